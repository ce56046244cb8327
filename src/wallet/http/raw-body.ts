import type { Context } from 'koa';
import { ApiError } from '../../lib/errors';
import { BODY_LIMIT_BYTES } from '../../http/body';

/**
 * The request body as text, whatever its content type: Google's callback must be read exactly as
 * sent, and a sender that labels it differently must not be refused for that alone.
 */
export async function readRawBody(ctx: Context, limit = BODY_LIMIT_BYTES): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req) {
    size += (chunk as Buffer).length;
    if (size > limit) throw new ApiError(413, 'PAYLOAD_TOO_LARGE', { detail: `request bodies are limited to ${limit} bytes` });
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}
