// Default pass artwork, drawn in code from the card's colours. Wallet refuses a pass without
// icon.png, and cards carry no uploaded images. Drawing here (a few thousand pixels,
// encoded with node:zlib) instead of shipping PNG files keeps the bundled build free of assets
// and lets the default icon follow the card's colours.
import { deflateSync } from 'node:zlib';
import type { Rgb } from '../../lib/colors';

/** Encodes 8-bit RGBA pixels (row-major, 4 bytes each) as a PNG. */
export function encodePng(width: number, height: number, rgba: Uint8Array): Buffer {
  if (rgba.length !== width * height * 4) throw new Error('encodePng: pixel buffer does not match the size');
  const raw = Buffer.alloc((width * 4 + 1) * height);
  for (let y = 0; y < height; y++) {
    raw[y * (width * 4 + 1)] = 0; // filter type "None" for each scanline
    raw.set(rgba.subarray(y * width * 4, (y + 1) * width * 4), y * (width * 4 + 1) + 1);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 6; // colour type RGBA
  // compression, filter and interlace methods stay 0
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function chunk(type: string, data: Buffer): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'latin1');
  data.copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/**
 * A stamp-like mark: a ring and a dot in `mark`, optionally on a rounded square of `plate`.
 * Coverage comes from signed distances, so edges are anti-aliased at every size.
 */
function drawMark(size: number, mark: Rgb, plate?: Rgb): Buffer {
  const px = new Uint8Array(size * size * 4);
  const c = size / 2;
  const corner = size * 0.22;
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const dx = x + 0.5 - c;
      const dy = y + 0.5 - c;
      const r = Math.hypot(dx, dy);
      const ring = coverage(Math.abs(r - size * 0.3) - size * 0.055);
      const dot = coverage(r - size * 0.13);
      const markAlpha = Math.max(ring, dot);
      let rgb: Rgb = mark;
      let alpha = markAlpha;
      if (plate) {
        // Rounded-square signed distance.
        const qx = Math.abs(dx) - (c - corner);
        const qy = Math.abs(dy) - (c - corner);
        const outside = Math.hypot(Math.max(qx, 0), Math.max(qy, 0)) + Math.min(Math.max(qx, qy), 0) - corner;
        const plateAlpha = coverage(outside);
        rgb = mix(plate, mark, markAlpha);
        alpha = plateAlpha;
      }
      const i = (y * size + x) * 4;
      px[i] = rgb[0];
      px[i + 1] = rgb[1];
      px[i + 2] = rgb[2];
      px[i + 3] = Math.round(alpha * 255);
    }
  }
  return encodePng(size, size, px);
}

function coverage(signedDistance: number): number {
  return Math.min(1, Math.max(0, 0.5 - signedDistance));
}

function mix(a: Rgb, b: Rgb, t: number): Rgb {
  return [0, 1, 2].map((k) => Math.round(a[k]! * (1 - t) + b[k]! * t)) as unknown as Rgb;
}

/** The mark on a rounded square of the card's background, at any size (the web pass's home-screen icon). */
export function drawnIcon(size: number, colors: { background: Rgb; foreground: Rgb }): Buffer {
  return drawMark(size, colors.foreground, colors.background);
}

export interface DefaultPassImages {
  icon: Readonly<Record<string, Buffer>>;
  logo: Readonly<Record<string, Buffer>>;
}

/** Colour pairs kept drawn: every card's pair fits many times over (about 6 KB each). */
export const DRAWN_IMAGES_CACHE_SIZE = 256;

// Drawing a set costs about 10 ms of CPU, paid on every pass and on the public logo URL before;
// the images depend on the two colours alone, so each pair is drawn once. Least recently used
// pairs go first (a Map iterates in insertion order; a hit is re-inserted at the end).
const drawn = new Map<string, DefaultPassImages>();

/**
 * icon.png family (29 pt; shown on the lock screen and in notifications) and logo.png family
 * (50×50 pt, within the 160×50 pt logo box, shown left of logoText on the card). Drawn once per
 * colour pair and shared: callers must not modify the buffers.
 */
export function defaultPassImages(colors: { background: Rgb; foreground: Rgb }): DefaultPassImages {
  const key = `${colors.background.join(',')}/${colors.foreground.join(',')}`;
  let images = drawn.get(key);
  if (images) drawn.delete(key);
  else images = draw(colors);
  drawn.set(key, images);
  if (drawn.size > DRAWN_IMAGES_CACHE_SIZE) drawn.delete(drawn.keys().next().value!);
  return images;
}

function draw(colors: { background: Rgb; foreground: Rgb }): DefaultPassImages {
  return {
    icon: Object.freeze({
      'icon.png': drawMark(29, colors.foreground, colors.background),
      'icon@2x.png': drawMark(58, colors.foreground, colors.background),
      'icon@3x.png': drawMark(87, colors.foreground, colors.background),
    }),
    logo: Object.freeze({
      'logo.png': drawMark(50, colors.foreground),
      'logo@2x.png': drawMark(100, colors.foreground),
      'logo@3x.png': drawMark(150, colors.foreground),
    }),
  };
}
