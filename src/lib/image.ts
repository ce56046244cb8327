// Raster images in plain JavaScript: reading a PNG or JPEG's size from its header, decoding it to
// RGBA pixels (pngjs, jpeg-js: no native code, which the bundle and a machine without a compiler
// could not load), scaling down, placing on a coloured plate, and encoding as PNG. Enough for a
// card's logo in the sizes the wallets want; not a general image library.
import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';
import type { Rgb } from './colors';

export type ImageFormat = 'png' | 'jpeg';

export interface RgbaImage {
  width: number;
  height: number;
  /** 8-bit RGBA, row-major, not premultiplied. */
  data: Uint8Array;
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/**
 * The format and pixel size a file's header declares, or null when it is neither a PNG nor a
 * JPEG. Read before decoding, so a small file that claims a huge size is refused without
 * allocating its pixels.
 */
export function imageHeader(bytes: Buffer): { format: ImageFormat; width: number; height: number } | null {
  if (bytes.length >= 24 && bytes.subarray(0, 8).equals(PNG_SIGNATURE) && bytes.toString('latin1', 12, 16) === 'IHDR') {
    return { format: 'png', width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
  }
  if (bytes.length >= 4 && bytes[0] === 0xff && bytes[1] === 0xd8) return jpegHeader(bytes);
  return null;
}

/** Walks the JPEG markers to the first start-of-frame, which holds the size. */
function jpegHeader(bytes: Buffer): { format: ImageFormat; width: number; height: number } | null {
  let at = 2;
  while (at + 4 <= bytes.length) {
    if (bytes[at] !== 0xff) return null;
    const marker = bytes[at + 1]!;
    if (marker === 0xff) {
      at += 1; // fill byte
      continue;
    }
    const length = bytes.readUInt16BE(at + 2);
    // SOF0–SOF15, except DHT (C4), JPG (C8) and DAC (CC), carry precision, height, width.
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      if (at + 9 > bytes.length) return null;
      return { format: 'jpeg', height: bytes.readUInt16BE(at + 5), width: bytes.readUInt16BE(at + 7) };
    }
    if (marker === 0xd9 || marker === 0xda) return null; // end of image / start of scan before any frame
    at += 2 + length;
  }
  return null;
}

/** Decodes to RGBA. Throws on a damaged file; callers check the header's size first. */
export function decodeImage(bytes: Buffer, format: ImageFormat): RgbaImage {
  if (format === 'png') {
    const png = PNG.sync.read(bytes);
    return { width: png.width, height: png.height, data: new Uint8Array(png.data.buffer, png.data.byteOffset, png.data.length) };
  }
  const decoded = jpeg.decode(bytes, { useTArray: true, formatAsRGBA: true, maxResolutionInMP: 20, maxMemoryUsageInMB: 128 });
  return { width: decoded.width, height: decoded.height, data: decoded.data };
}

export function encodePngImage(image: RgbaImage): Buffer {
  const png = new PNG({ width: image.width, height: image.height });
  Buffer.from(image.data.buffer, image.data.byteOffset, image.data.length).copy(png.data);
  return PNG.sync.write(png, { colorType: 6 });
}

/** The largest size with the image's proportions inside the box, never larger than the image. */
export function fitSize(width: number, height: number, maxWidth: number, maxHeight: number): { width: number; height: number } {
  const scale = Math.min(1, maxWidth / width, maxHeight / height);
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

/**
 * Scales down to fit the box (an area average, so thin lines stay visible; colours are weighted by
 * alpha, so transparent pixels do not darken the edges). An image that fits already is returned as is.
 */
export function scaleToFit(image: RgbaImage, maxWidth: number, maxHeight: number): RgbaImage {
  const size = fitSize(image.width, image.height, maxWidth, maxHeight);
  if (size.width === image.width && size.height === image.height) return image;
  const out = new Uint8Array(size.width * size.height * 4);
  const sx = image.width / size.width;
  const sy = image.height / size.height;
  const src = image.data;
  for (let y = 0; y < size.height; y++) {
    const y0 = y * sy;
    const y1 = y0 + sy;
    for (let x = 0; x < size.width; x++) {
      const x0 = x * sx;
      const x1 = x0 + sx;
      let r = 0, g = 0, b = 0, a = 0, area = 0;
      for (let yy = Math.floor(y0); yy < Math.min(image.height, Math.ceil(y1)); yy++) {
        const wy = Math.min(y1, yy + 1) - Math.max(y0, yy);
        for (let xx = Math.floor(x0); xx < Math.min(image.width, Math.ceil(x1)); xx++) {
          const w = wy * (Math.min(x1, xx + 1) - Math.max(x0, xx));
          const i = (yy * image.width + xx) * 4;
          const alpha = src[i + 3]! * w;
          r += src[i]! * alpha;
          g += src[i + 1]! * alpha;
          b += src[i + 2]! * alpha;
          a += alpha;
          area += w;
        }
      }
      const o = (y * size.width + x) * 4;
      if (a > 0) {
        out[o] = Math.round(r / a);
        out[o + 1] = Math.round(g / a);
        out[o + 2] = Math.round(b / a);
      }
      out[o + 3] = Math.round(a / area);
    }
  }
  return { ...size, data: out };
}

/**
 * A square of `size` pixels in `plate`, the image scaled to fit `fraction` of it and drawn in the
 * middle (source-over): for icons and round-cropped logos, whatever the image's proportions.
 */
export function onPlate(image: RgbaImage, size: number, plate: Rgb, fraction: number): RgbaImage {
  const inner = Math.max(1, Math.floor(size * fraction));
  // Scale within the inner box even when the image is smaller: a small logo may grow to fill it.
  const fitted = growOrShrink(image, inner, inner);
  const out = new Uint8Array(size * size * 4);
  for (let i = 0; i < size * size; i++) {
    out[i * 4] = plate[0];
    out[i * 4 + 1] = plate[1];
    out[i * 4 + 2] = plate[2];
    out[i * 4 + 3] = 255;
  }
  const left = Math.floor((size - fitted.width) / 2);
  const top = Math.floor((size - fitted.height) / 2);
  for (let y = 0; y < fitted.height; y++) {
    for (let x = 0; x < fitted.width; x++) {
      const s = (y * fitted.width + x) * 4;
      const o = ((top + y) * size + left + x) * 4;
      const alpha = fitted.data[s + 3]! / 255;
      for (let k = 0; k < 3; k++) out[o + k] = Math.round(fitted.data[s + k]! * alpha + out[o + k]! * (1 - alpha));
    }
  }
  return { width: size, height: size, data: out };
}

/** Fits the box exactly in one dimension: down by area average, up by nearest neighbour (rare: tiny logos). */
function growOrShrink(image: RgbaImage, maxWidth: number, maxHeight: number): RgbaImage {
  const scale = Math.min(maxWidth / image.width, maxHeight / image.height);
  if (scale <= 1) return scaleToFit(image, maxWidth, maxHeight);
  const width = Math.max(1, Math.round(image.width * scale));
  const height = Math.max(1, Math.round(image.height * scale));
  const out = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    const sy = Math.min(image.height - 1, Math.floor(y / scale));
    for (let x = 0; x < width; x++) {
      const sx = Math.min(image.width - 1, Math.floor(x / scale));
      out.set(image.data.subarray((sy * image.width + sx) * 4, (sy * image.width + sx) * 4 + 4), (y * width + x) * 4);
    }
  }
  return { width, height, data: out };
}
