// Reads the logo file of the editor's upload form (multipart/form-data from a plain HTML form).
// busboy parses the stream; the file stops counting at the logo limit, and what follows is read
// and dropped so the browser gets the answer instead of a cut connection.
import busboy from 'busboy';
import type { Context } from 'koa';
import { MAX_LOGO_BYTES } from '../../cards/logo';
import { ApiError } from '../../lib/errors';
import type { FormFields } from '../../web/forms';

/** Beyond this a request is refused unread: no logo plus its form comes near. */
const MAX_REQUEST_BYTES = MAX_LOGO_BYTES + 64 * 1024;

const tooLarge = () => new ApiError(413, 'LOGO_TOO_LARGE', { detail: 'the logo file must be 1 MB or smaller', extra: { field: 'logo' } });

/** The bytes of the form's `logo` file (empty when none was chosen). */
export async function readLogoUpload(ctx: Context): Promise<Buffer> {
  if (!ctx.request.is('multipart/form-data')) throw new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE', { detail: 'send the logo as multipart/form-data', extra: { field: 'logo' } });
  if (Number(ctx.get('Content-Length') || 0) > MAX_REQUEST_BYTES) {
    ctx.set('Connection', 'close');
    throw tooLarge();
  }
  return new Promise<Buffer>((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: ctx.req.headers, limits: { files: 1, fileSize: MAX_LOGO_BYTES, fields: 8, fieldSize: 4096, parts: 10 } });
    } catch {
      reject(new ApiError(400, 'UPLOAD_UNREADABLE', { detail: 'the upload could not be read; choose the file again', extra: { field: 'logo' } }));
      return;
    }
    const chunks: Buffer[] = [];
    let truncated = false;
    let taken = false;
    parser.on('file', (name, stream) => {
      if (name !== 'logo' || taken) {
        stream.resume();
        return;
      }
      taken = true;
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('limit', () => (truncated = true));
    });
    parser.on('error', () => reject(new ApiError(400, 'UPLOAD_UNREADABLE', { detail: 'the upload could not be read; choose the file again', extra: { field: 'logo' } })));
    parser.on('close', () => (truncated ? reject(tooLarge()) : resolve(Buffer.concat(chunks))));
    ctx.req.pipe(parser);
  });
}

/**
 * The new-card form, which carries the logo with the card (multipart/form-data): its fields, as
 * the url-encoded editor form would give them, and the logo's bytes (empty when none was chosen).
 */
export async function readCardUpload(ctx: Context): Promise<{ fields: FormFields; logo: Buffer }> {
  if (Number(ctx.get('Content-Length') || 0) > MAX_REQUEST_BYTES) {
    ctx.set('Connection', 'close');
    throw tooLarge();
  }
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    const unreadable = () => new ApiError(400, 'UPLOAD_UNREADABLE', { detail: 'the form could not be read; send it again', extra: { field: 'logo' } });
    try {
      parser = busboy({ headers: ctx.req.headers, limits: { files: 1, fileSize: MAX_LOGO_BYTES, fields: 4000, fieldSize: 4096, parts: 4001 } });
    } catch {
      reject(unreadable());
      return;
    }
    const fields: FormFields = Object.create(null);
    const chunks: Buffer[] = [];
    let truncated = false;
    parser.on('field', (name, value) => {
      const existing = fields[name];
      fields[name] = existing === undefined ? value : Array.isArray(existing) ? [...existing, value] : [existing, value];
    });
    parser.on('file', (name, stream) => {
      if (name !== 'logo') {
        stream.resume();
        return;
      }
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('limit', () => (truncated = true));
    });
    parser.on('error', () => reject(unreadable()));
    parser.on('close', () => (truncated ? reject(tooLarge()) : resolve({ fields, logo: Buffer.concat(chunks) })));
    ctx.req.pipe(parser);
  });
}
