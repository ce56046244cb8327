import type { Context, Next } from 'koa';
import type { Logger } from '../lib/log';
import { ApiError } from '../lib/errors';
import { humanMessage } from './forms';
import { html } from './html';
import { sendDocument } from './page';

// The error boundary of the merchant pages: a refusal is a page a person can read (or, for an htmx
// request, a fragment that takes the place of what was asked for), never JSON and never a stack
// trace. Anything unexpected is logged with the request id and shown as an apology quoting it.

const TITLES: Record<number, string> = {
  400: 'That did not work',
  403: 'Not allowed',
  404: 'Not found',
  405: 'Not allowed',
  409: 'That did not work',
  410: 'Removed',
  413: 'Too large',
  415: 'That did not work',
  429: 'Too many attempts',
};

export function pageErrors(log: Logger) {
  return async (ctx: Context, next: Next) => {
    try {
      await next();
    } catch (err) {
      const requestId = ctx.state.requestId as string | undefined;
      let status = 500;
      let message = `Something went wrong on our side. If it happens again, quote ${requestId ?? 'the time'} when you report it.`;
      if (err instanceof ApiError) {
        status = err.status;
        message =
          err.code === 'CSRF_CHECK_FAILED'
            ? 'This form has expired or was sent from another site. Go back, reload the page and try again.'
            : err.code === 'PAYLOAD_TOO_LARGE'
              ? 'Forms are limited to 64 KiB. Shorten what you typed and try again.'
              : humanMessage(err);
        for (const [name, value] of Object.entries(err.headers)) ctx.set(name, value);
      } else if (isClientError(err)) {
        status = (err as { status: number }).status;
        message = 'The request could not be read.';
      } else {
        log.error('unhandled error', { requestId, method: ctx.method, path: ctx.path, err });
      }
      sendErrorPage(ctx, status, message);
    }
  };
}

function isClientError(err: unknown): boolean {
  const status = (err as { status?: unknown })?.status;
  return typeof status === 'number' && status >= 400 && status < 500 && Boolean((err as { expose?: unknown }).expose);
}

export function sendErrorPage(ctx: Context, status: number, message: string): void {
  const title = TITLES[status] ?? 'Something went wrong';
  if (ctx.get('HX-Request') === 'true') {
    sendFragment(ctx, status, html`<div class="notice error" role="alert"><p>${message}</p></div>`);
    return;
  }
  sendDocument(ctx, {
    title,
    status,
    body: html`<main class="centered"><div class="box" role="alert"><h1>${title}</h1><p>${message}</p><p><a href="javascript:history.back()" class="no-print">Go back</a></p></div></main>`,
  });
}

/** An htmx answer: a piece of a page, under the same headers as a whole one. */
export function sendFragment(ctx: Context, status: number, body: ReturnType<typeof html>): void {
  ctx.status = status;
  ctx.type = 'text/html; charset=utf-8';
  ctx.set('Cache-Control', 'no-store');
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.body = body.value;
}
