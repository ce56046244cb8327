import type { IncomingMessage } from 'node:http';
import { promisify } from 'node:util';
import { brotliDecompress, unzip, type ZlibOptions } from 'node:zlib';
import type { Context } from 'koa';
import { ApiError } from '../lib/errors';

// Request bodies are read here, in three layers a caller picks from: the bytes (size limit,
// Content-Encoding), the text (strict UTF-8), and JSON. The API reads JSON (http/bind.ts), the
// Apple web service JSON, Google's callback the exact text, and console forms the bytes
// (web/forms.ts); multipart uploads are busboy's. Not koa-bodyparser or @koa/bodyparser: both
// decode through co-body → raw-body → iconv-lite, which turns bytes that are not UTF-8 into U+FFFD
// without a word, so `caf\xE9` and `caf\xE8` would arrive as the same id.

export const BODY_LIMIT_BYTES = 64 * 1024;

const tooLarge = (limit: number) => new ApiError(413, 'PAYLOAD_TOO_LARGE', { detail: `request bodies are limited to ${limit} bytes` });

function hasBody(ctx: Context): boolean {
  const length = ctx.get('Content-Length');
  return (length !== '' && length !== '0') || ctx.get('Transfer-Encoding') !== '';
}

/** The bytes as they arrive, at most `limit`; a declared Content-Length past it is refused unread. */
function receive(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (declared > limit) return Promise.reject(tooLarge(limit));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (outcome: () => void) => {
      req.off('data', onData).off('end', onEnd).off('error', onAbort).off('close', onAbort);
      outcome();
    };
    // Past the limit the rest is left unread (not destroyed), so the client still gets the 413.
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) finish(() => reject(tooLarge(limit)));
      else chunks.push(chunk);
    };
    const onEnd = () => finish(() => resolve(Buffer.concat(chunks, size)));
    const onAbort = () => finish(() => reject(new ApiError(400, 'BAD_REQUEST', { detail: 'the request body did not arrive whole' })));
    req.on('data', onData).once('end', onEnd).once('error', onAbort).once('close', onAbort);
  });
}

// gzip and deflate (zlib) are told apart by their header, as co-body did; both are `unzip`.
const decoders: Record<string, ((bytes: Buffer, options: ZlibOptions) => Promise<Buffer>) | undefined> = {
  identity: async (bytes) => bytes,
  gzip: promisify(unzip),
  'x-gzip': promisify(unzip),
  deflate: promisify(unzip),
  br: promisify(brotliDecompress) as (bytes: Buffer, options: ZlibOptions) => Promise<Buffer>,
};

/**
 * The body's bytes after its Content-Encoding, at most `limit` of them both before and after
 * decompression (a small gzip of a huge body is 413 as well). undefined when there is no body.
 */
export async function readBodyBytes(ctx: Context, limit = BODY_LIMIT_BYTES): Promise<Buffer | undefined> {
  if (!hasBody(ctx)) return undefined;
  const encoding = (ctx.get('Content-Encoding') || 'identity').trim().toLowerCase();
  const decode = decoders[encoding];
  if (!decode) throw new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE', { detail: `Content-Encoding ${encoding} is not read (gzip, deflate or br are)` });
  const sent = await receive(ctx.req, limit);
  if (sent.length === 0) return undefined;
  try {
    return await decode(sent, { maxOutputLength: limit });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw tooLarge(limit);
    throw new ApiError(400, 'INVALID_JSON', { detail: `the body is not valid ${encoding} data` });
  }
}

/**
 * Bytes as UTF-8, strictly: a byte sequence that is not UTF-8 (a Latin-1 é, a lone continuation
 * byte, an overlong form, an encoded surrogate) is 415, never replaced by U+FFFD and stored. A
 * byte order mark is dropped.
 */
export function decodeUtf8(bytes: Buffer): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE', { detail: 'the body is not valid UTF-8; send it as UTF-8' });
  }
}

/** The body as text whatever its content type (Google's callback is read exactly as sent). */
export async function readBodyText(ctx: Context, limit = BODY_LIMIT_BYTES): Promise<string | undefined> {
  const bytes = await readBodyBytes(ctx, limit);
  return bytes && decodeUtf8(bytes);
}

// JSON between systems is UTF-8 (RFC 8259 §8.1): a body declared in another charset would be
// misread, so it is refused rather than guessed at.
const UTF8_CHARSETS = ['utf-8', 'utf8', 'us-ascii'];

/** Whether a `__proto__` key sits anywhere in a parsed document (JSON.parse makes it an own key). */
function holdsProtoKey(document: object): boolean {
  // A loop, not recursion: a 64 KiB body nests 20,000 levels deep, past the call stack.
  const pending: object[] = [document];
  for (let node = pending.pop(); node !== undefined; node = pending.pop()) {
    if (Object.hasOwn(node, '__proto__')) return true;
    for (const value of Object.values(node)) if (typeof value === 'object' && value !== null) pending.push(value);
  }
  return false;
}

/**
 * A JSON object or array. A `__proto__` key anywhere is refused (also spelt `\u005f_proto__`):
 * a later Object.assign or merge would make it a prototype.
 */
function parseJsonDocument(text: string): object {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  if (typeof parsed !== 'object' || parsed === null) throw new ApiError(400, 'INVALID_JSON', { detail: 'the request body is not a JSON object or array' });
  if (holdsProtoKey(parsed)) throw new ApiError(400, 'INVALID_JSON', { detail: 'a "__proto__" key is not accepted in a request body' });
  return parsed;
}

/** 415 unless the body is JSON (`application/json` or `+json`) in UTF-8 or no declared charset. */
function checkJsonType(ctx: Context): void {
  if (!ctx.request.is('application/json', '+json')) {
    throw new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE', { detail: 'send the body as application/json' });
  }
  const charset = ctx.request.charset.toLowerCase();
  if (charset !== '' && !UTF8_CHARSETS.includes(charset)) {
    throw new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE', { detail: `send the body as UTF-8 application/json (charset=${charset} is not read)` });
  }
}

/** Reads a JSON body: 415 for other content types, charsets or bytes that are not UTF-8, 413 past 64 KiB, 400 INVALID_JSON when malformed. */
export async function readJsonBody(ctx: Context): Promise<unknown> {
  if (!hasBody(ctx)) return undefined;
  checkJsonType(ctx);
  const text = await readBodyText(ctx);
  return text === undefined ? undefined : parseJsonDocument(text);
}
