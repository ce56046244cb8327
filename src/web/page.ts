import { randomBytes } from 'node:crypto';
import type { Context } from 'koa';
import { assetUrl, type AssetName } from './assets';
import { html, jsonForScript, raw, type Markup } from './html';

// Every HTML page of the merchant side (console, counter, sign-up) goes out through sendDocument:
// one set of security headers, a fresh CSP nonce per response, the shared style sheet and only
// scripts this server serves itself (no CDN: the pages work without reaching another host).

export interface DocumentOptions {
  title: string;
  /** The contents of <body>. `nonce` is the response's CSP nonce, for an inline <script> or <style>. */
  body: Markup | ((nonce: string) => Markup);
  status?: number;
  /** CSS this program generated (the org's colours as custom properties); sent under the nonce. */
  css?: string;
  /** Embedded scripts the page loads (htmx, the counter's client), in order, deferred. */
  scripts?: AssetName[];
  /** Extra CSP sources a page needs (the counter: 'wasm-unsafe-eval' for the scanner, workers). */
  csp?: Partial<Record<'script-src' | 'connect-src' | 'img-src' | 'frame-src' | 'worker-src' | 'media-src' | 'manifest-src', string[]>>;
  /** Frames of our own pages (the card preview) may be framed by our own pages only. */
  frameable?: boolean;
  bodyClass?: string;
  lang?: string;
}

// htmx without eval (hx-on and js: are off, so the CSP needs no 'unsafe-eval'), without the inline
// indicator style it would otherwise inject (blocked by the CSP), and swapping error answers too:
// a form answered 400 with its fields' messages must replace the form like a 200 does.
const HTMX_CONFIG = jsonForScript({
  allowEval: false,
  allowScriptTags: false,
  includeIndicatorStyles: false,
  selfRequestsOnly: true,
  historyCacheSize: 0,
  responseHandling: [
    { code: '204', swap: false },
    { code: '[23]..', swap: true },
    { code: '(400|401|403|404|409|422|429)', swap: true, error: false },
    { code: '[45]..', swap: false, error: true },
  ],
});

function contentSecurityPolicy(nonce: string, options: DocumentOptions): string {
  const extra = options.csp ?? {};
  const directive = (name: keyof NonNullable<DocumentOptions['csp']>, base: string[]) => `${name} ${[...base, ...(extra[name] ?? [])].join(' ')}`;
  return [
    "default-src 'none'",
    directive('script-src', ["'self'", `'nonce-${nonce}'`]),
    `style-src 'self' 'nonce-${nonce}'`,
    directive('img-src', ["'self'", 'data:', 'blob:']),
    directive('connect-src', ["'self'"]),
    directive('frame-src', ["'self'"]),
    directive('worker-src', ["'self'"]),
    directive('media-src', ["'self'"]),
    directive('manifest-src', ["'self'"]),
    "font-src 'self'",
    "form-action 'self'",
    "base-uri 'none'",
    `frame-ancestors ${options.frameable ? "'self'" : "'none'"}`,
  ].join('; ');
}

/** The headers every merchant-side page carries. Pages show merchant or customer data: never cached. */
export function setPageHeaders(ctx: Context, nonce: string, options: DocumentOptions): void {
  ctx.set('Content-Security-Policy', contentSecurityPolicy(nonce, options));
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.set('X-Frame-Options', options.frameable ? 'SAMEORIGIN' : 'DENY');
  // same-origin, not no-referrer: with no-referrer a browser sends `Origin: null` on a form POST,
  // and the CSRF check needs the page's own origin there (Fetch standard, "append a request Origin header").
  ctx.set('Referrer-Policy', 'same-origin');
  ctx.set('Cross-Origin-Opener-Policy', 'same-origin');
  ctx.set('Cache-Control', 'no-store');
  ctx.set('X-Robots-Tag', 'noindex');
}

export function sendDocument(ctx: Context, options: DocumentOptions): void {
  const nonce = randomBytes(16).toString('base64');
  setPageHeaders(ctx, nonce, options);
  const body = typeof options.body === 'function' ? options.body(nonce) : options.body;
  const scripts = options.scripts ?? [];
  ctx.status = options.status ?? 200;
  ctx.type = 'text/html; charset=utf-8';
  ctx.body = html`<!doctype html>
<html lang="${options.lang ?? 'en'}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${options.title}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${assetUrl('app.css')}">
${options.css ? html`<style nonce="${nonce}">${raw(options.css)}</style>` : ''}
${scripts.includes('htmx.js') ? html`<meta name="htmx-config" content="${HTMX_CONFIG}">` : ''}
${scripts.map((name) => html`<script src="${assetUrl(name)}" defer></script>`)}
</head>
<body${options.bodyClass ? html` class="${options.bodyClass}"` : ''}>
${body}
</body>
</html>
`.value;
}
