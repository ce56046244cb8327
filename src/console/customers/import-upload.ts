// Reads the import page's upload form (multipart/form-data from a plain HTML form): the card and the
// file. busboy parses the stream; the file stops counting past 10 MB, and the rest is read and
// dropped so the browser gets the answer instead of a cut connection.
import busboy from 'busboy';
import type { Context } from 'koa';
import { MAX_FILE_BYTES } from '../../import/csv-file';
import { ApiError } from '../../lib/errors';

/**
 * Beyond this a request is refused unread (its connection closed). Up to it, a file past 10 MB is
 * read to its end and dropped, so the browser shows the form's message about the size.
 */
const MAX_REQUEST_BYTES = 10 * MAX_FILE_BYTES;

export interface ImportUpload {
  cardId: string;
  fileName: string;
  bytes: Buffer;
  /** The file passed 10 MB (its bytes were cut there). */
  tooLarge: boolean;
}

const unreadable = () => new ApiError(400, 'UPLOAD_UNREADABLE', { detail: 'the upload could not be read; choose the file again', extra: { field: 'file' } });

export async function readImportUpload(ctx: Context): Promise<ImportUpload> {
  if (!ctx.request.is('multipart/form-data')) throw new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE', { detail: 'send the file as multipart/form-data', extra: { field: 'file' } });
  if (Number(ctx.get('Content-Length') || 0) > MAX_REQUEST_BYTES) {
    ctx.set('Connection', 'close');
    throw new ApiError(413, 'FILE_TOO_LARGE', { detail: 'the file must be 10 MB or smaller', extra: { field: 'file' } });
  }
  return new Promise<ImportUpload>((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: ctx.req.headers, limits: { files: 1, fileSize: MAX_FILE_BYTES, fields: 8, fieldSize: 4096, parts: 10 } });
    } catch {
      reject(unreadable());
      return;
    }
    const upload: ImportUpload = { cardId: '', fileName: '', bytes: Buffer.alloc(0), tooLarge: false };
    const chunks: Buffer[] = [];
    parser.on('field', (name, value) => {
      if (name === 'card') upload.cardId = value;
    });
    parser.on('file', (name, stream, info) => {
      if (name !== 'file' || upload.fileName) {
        stream.resume();
        return;
      }
      upload.fileName = info.filename || 'customers.csv';
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('limit', () => (upload.tooLarge = true));
    });
    parser.on('error', () => reject(unreadable()));
    parser.on('close', () => resolve({ ...upload, bytes: Buffer.concat(chunks) }));
    ctx.req.pipe(parser);
  });
}
