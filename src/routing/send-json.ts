import type { Context } from 'koa';

/** Sends JSON text already serialised (the API's answers, /healthz, the OpenAPI document). */
export function sendJson(ctx: Context, status: number, json: string): void {
  ctx.status = status;
  ctx.type = 'application/json; charset=utf-8';
  ctx.body = json;
}
