import type { Context, Next } from 'koa';
import type { Logger } from '../lib/log';
import { isLang, type Lang } from '../i18n/langs';
import { pageLang } from '../i18n/negotiate';
import { t, type MessageKey } from '../i18n/translate';
import { ApiError, isInWords } from '../lib/errors';
import { humanMessage } from './forms';
import { html } from './html';
import { sendDocument } from './page';

// The error boundary of the merchant pages: a refusal is a page a person can read (or, for an htmx
// request, a fragment that takes the place of what was asked for), never JSON and never a stack
// trace. Anything unexpected is logged with the request id and shown as an apology quoting it.

/** Each refusal's heading, by status. */
const TITLES: Record<number, MessageKey> = {
  400: 'errors.title.failed',
  403: 'errors.title.forbidden',
  404: 'errors.title.notFound',
  405: 'errors.title.forbidden',
  409: 'errors.title.failed',
  410: 'errors.title.gone',
  413: 'errors.title.tooLarge',
  415: 'errors.title.failed',
  429: 'errors.title.tooMany',
};

/**
 * The language of an error page: the one the page being handled chose (ctx.state.lang: a customer
 * page's language, or a console page's admin language), else the first of ours the browser asks
 * for. This layer knows no shop, so without either it is English.
 */
export function errorLang(ctx: Context): Lang {
  const chosen: unknown = ctx.state.lang;
  return isLang(chosen) ? chosen : pageLang({ acceptLanguage: ctx.get('Accept-Language'), orgLang: 'en' });
}

/** A refusal in words a person reads, in the page's language: the ones every page shares by their code; a service's own refusal is its message in English, its code otherwise. */
function messageOf(err: ApiError, lang: Lang, word?: PageWording): string {
  const worded = word?.(lang, err);
  if (worded !== undefined) return worded;
  switch (err.code) {
    case 'CSRF_CHECK_FAILED':
      return t(lang, 'errors.csrf');
    case 'PAYLOAD_TOO_LARGE':
      return t(lang, 'errors.tooLarge');
    case 'RATE_LIMITED':
      return t(lang, 'errors.rateLimited', { seconds: Math.max(1, Number(err.headers['Retry-After']) || 1) });
    case 'UNSUPPORTED_MEDIA_TYPE':
    case 'BAD_REQUEST':
    case 'INVALID_JSON':
      return lang === 'en' ? humanMessage(err) : t(lang, 'errors.unreadable');
    default:
      // A service's reason is the API's English: another language names the code instead.
      return lang === 'en' || isInWords(err) ? humanMessage(err) : t(lang, 'errors.refused', { code: err.code });
  }
}

/** An area's own wording of a service's refusal (the console's, in the admin's language); undefined: the shared wording. */
export type PageWording = (lang: Lang, err: ApiError) => string | undefined;

export function pageErrors(log: Logger, word?: PageWording) {
  return async (ctx: Context, next: Next) => {
    try {
      await next();
    } catch (err) {
      const requestId = ctx.state.requestId as string | undefined;
      const lang = errorLang(ctx);
      let status = 500;
      let message = t(lang, 'errors.unexpected', { reference: requestId ?? new Date().toISOString() });
      if (err instanceof ApiError) {
        status = err.status;
        message = messageOf(err, lang, word);
        for (const [name, value] of Object.entries(err.headers)) ctx.set(name, value);
      } else if (isClientError(err)) {
        status = (err as { status: number }).status;
        message = t(lang, 'errors.unreadable');
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

/** An error page (or an htmx fragment) with `message`, already in the page's language (errorLang). */
export function sendErrorPage(ctx: Context, status: number, message: string): void {
  const lang = errorLang(ctx);
  const title = t(lang, TITLES[status] ?? 'errors.title.other');
  if (ctx.get('HX-Request') === 'true') {
    sendFragment(ctx, status, html`<div class="notice error" role="alert"><p>${message}</p></div>`);
    return;
  }
  sendDocument(ctx, {
    title,
    status,
    lang,
    body: html`<main class="centered"><div class="box" role="alert"><h1>${title}</h1><p>${message}</p><p><a href="javascript:history.back()" class="no-print">${t(lang, 'common.goBack')}</a></p></div></main>`,
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
