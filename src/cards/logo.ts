// What a card's logo upload must be, and the one form it is kept in: a PNG re-encoded from the
// decoded pixels (so nothing but pixels survives: no metadata, no trailing bytes), scaled down to
// at most MAX_STORED_SIDE. Apple needs PNG inside a .pkpass; a JPEG is converted on the way in.
import { createHash } from 'node:crypto';
import { ApiError } from '../lib/errors';
import { decodeImage, encodePngImage, imageHeader, scaleToFit } from '../lib/image';

export const MAX_LOGO_BYTES = 1024 * 1024;
/** Smallest side: below this a logo is a smudge on every pass. */
export const MIN_LOGO_SIDE = 32;
/** Largest side the file may declare: decoding more would cost memory for nothing. */
export const MAX_LOGO_SIDE = 4096;
/** A logo wider (or taller) than this ratio is a line, not a logo. */
export const MAX_LOGO_RATIO = 8;
/** Kept at most this size: the largest any wallet draws is Apple's @3x logo (480 × 150 px). */
export const MAX_STORED_SIDE = 1024;

export interface PreparedLogo {
  png: Buffer;
  width: number;
  height: number;
  sha256: string;
}

const refuse = (code: string, detail: string) => new ApiError(400, code, { detail, extra: { field: 'logo' } });

/** Checks an uploaded file and returns the PNG to keep, or throws a 400/413 naming the problem. */
export function prepareLogo(bytes: Buffer): PreparedLogo {
  if (bytes.length === 0) throw refuse('LOGO_MISSING', 'choose a PNG or JPEG file to upload');
  if (bytes.length > MAX_LOGO_BYTES) throw new ApiError(413, 'LOGO_TOO_LARGE', { detail: 'the logo file must be 1 MB or smaller', extra: { field: 'logo' } });
  const header = imageHeader(bytes);
  if (!header) throw refuse('LOGO_NOT_AN_IMAGE', 'the file is not a PNG or JPEG image');
  const { width, height } = header;
  if (width < MIN_LOGO_SIDE || height < MIN_LOGO_SIDE) throw refuse('LOGO_TOO_SMALL', `the image is ${width} × ${height} pixels; it must be at least ${MIN_LOGO_SIDE} pixels wide and high`);
  if (width > MAX_LOGO_SIDE || height > MAX_LOGO_SIDE) throw refuse('LOGO_TOO_BIG', `the image is ${width} × ${height} pixels; it must be at most ${MAX_LOGO_SIDE} pixels wide and high`);
  if (Math.max(width / height, height / width) > MAX_LOGO_RATIO) throw refuse('LOGO_BAD_SHAPE', `the image is ${width} × ${height} pixels; a logo can be at most ${MAX_LOGO_RATIO} times wider than high (or higher than wide)`);
  let pixels;
  try {
    pixels = decodeImage(bytes, header.format);
  } catch {
    throw refuse('LOGO_NOT_AN_IMAGE', `the file looks like a ${header.format.toUpperCase()} but cannot be read; save it again and upload the new file`);
  }
  if (pixels.width !== width || pixels.height !== height) throw refuse('LOGO_NOT_AN_IMAGE', 'the image is damaged: its size does not match its header');
  const kept = scaleToFit(pixels, MAX_STORED_SIDE, MAX_STORED_SIDE);
  const png = encodePngImage(kept);
  return { png, width: kept.width, height: kept.height, sha256: createHash('sha256').update(png).digest('hex') };
}
