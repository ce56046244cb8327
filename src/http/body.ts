import bodyParser from 'koa-bodyparser';
import type { Context, Next } from 'koa';
import { ApiError } from '../lib/errors';

export const BODY_LIMIT_BYTES = 64 * 1024;

const parseJson = bodyParser({
  enableTypes: ['json'],
  // The same media types readJsonBody lets through: application/json and any */*+json.
  extendTypes: { json: ['+json'] },
  jsonLimit: `${BODY_LIMIT_BYTES}b`,
  strict: true,
  onerror(err: Error & { status?: number; type?: string }) {
    if (err.status === 413 || err.type === 'entity.too.large') {
      throw new ApiError(413, 'PAYLOAD_TOO_LARGE', { detail: `request bodies are limited to ${BODY_LIMIT_BYTES} bytes` });
    }
    if (err.status === 415) {
      // An unknown Content-Encoding: the bytes cannot be read as JSON at all.
      throw new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE', { detail: 'send the body as UTF-8 application/json (gzip, deflate or br encoding allowed)' });
    }
    // The parser refuses a __proto__ key outright (prototype pollution); say so rather than "not JSON".
    if (/prototype/i.test(err.message)) throw new ApiError(400, 'INVALID_JSON', { detail: 'a "__proto__" key is not accepted in a request body' });
    throw new ApiError(400, 'INVALID_JSON', { detail: 'the request body is not a JSON object or array' });
  },
});

function hasBody(ctx: Context): boolean {
  const length = ctx.get('Content-Length');
  return (length !== '' && length !== '0') || ctx.get('Transfer-Encoding') !== '';
}

// JSON between systems is UTF-8 (RFC 8259 §8.1); the parser reads every body as UTF-8, so a body
// declared in another charset would be misread silently (é arriving as U+FFFD) rather than refused.
const UTF8_CHARSETS = ['utf-8', 'utf8', 'us-ascii'];

/** Reads a JSON body: 415 for other content types or charsets, 413 past 64 KiB, 400 INVALID_JSON when malformed. */
export async function readJsonBody(ctx: Context): Promise<unknown> {
  if (!hasBody(ctx)) return undefined;
  if (!ctx.request.is('application/json', '+json')) {
    throw new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE', { detail: 'send the body as application/json' });
  }
  const charset = ctx.request.charset.toLowerCase();
  if (charset !== '' && !UTF8_CHARSETS.includes(charset)) {
    throw new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE', { detail: `send the body as UTF-8 application/json (charset=${charset} is not read)` });
  }
  await parseJson(ctx, (async () => {}) as Next);
  return ctx.request.body;
}
