import type { Config } from '../config';
import { hostOf, isLoopbackHost } from '../lib/url-host';
import type { ConsoleLang } from '../i18n/langs';
import { tConsole } from '../i18n/translate';
import { html, type Markup } from '../web/html';
import { sayMarkup } from './say';

// Where customers' phones are sent: every link and QR code is built on PUBLIC_URL (install links
// on INSTALL_BASE_URL), see docs/going-live.md. The console says plainly when phones cannot follow them.

export const GOING_LIVE_HELP = '/console/going-live';

export type AddressProblem = 'loopback' | 'plain-http' | null;

/** `loopback`: this computer only (localhost, 127.x, ::1); `plain-http`: reachable, without HTTPS. */
export function addressProblem(url: string): AddressProblem {
  const parsed = new URL(url);
  const host = hostOf(parsed).toLowerCase();
  if (isLoopbackHost(host)) return 'loopback';
  return parsed.protocol === 'http:' ? 'plain-http' : null;
}

/** The banner on every console page while PUBLIC_URL is not an address customers' phones can use. */
export function publicAddressBanner(config: Pick<Config, 'publicUrl'>, lang: ConsoleLang = 'en'): Markup {
  const problem = addressProblem(config.publicUrl);
  const label = tConsole(lang, 'console.address.label');
  const code = (text: string) => html`<code>${text}</code>`;
  if (problem === 'loopback') {
    return html`<aside class="test-banner address-banner" aria-label="${label}"><p><strong>${tConsole(lang, 'console.address.loopbackTitle')}</strong> ${sayMarkup(lang, 'console.address.loopback', {
      address: code(config.publicUrl),
      setting: code('PUBLIC_URL'),
      link: html`<a href="${GOING_LIVE_HELP}">${tConsole(lang, 'console.address.howToGoLive')}</a>`,
    })}</p></aside>`;
  }
  if (problem === 'plain-http') {
    return html`<aside class="test-banner address-banner" aria-label="${label}"><p><strong>${tConsole(lang, 'console.address.plainHttpTitle')}</strong> ${sayMarkup(lang, 'console.address.plainHttp', {
      address: code(config.publicUrl),
      link: html`<a href="${GOING_LIVE_HELP}">${tConsole(lang, 'console.address.howToGetHttps')}</a>`,
    })}</p></aside>`;
  }
  return html``;
}

/** Beside a QR code on screen (never on paper): what a phone scanning it would meet. */
export function qrAddressNote(link: string, lang: ConsoleLang = 'en'): Markup {
  const problem = addressProblem(link);
  if (problem === 'loopback') {
    return html`<div class="notice warn no-print"><p>${sayMarkup(lang, 'console.address.qrLoopback', {
      address: html`<code>${new URL(link).origin}</code>`,
      setting: html`<code>PUBLIC_URL</code>`,
      link: html`<a href="${GOING_LIVE_HELP}">${tConsole(lang, 'console.address.howToGoLive')}</a>`,
    })}</p></div>`;
  }
  if (problem === 'plain-http') {
    return html`<div class="notice warn no-print"><p>${sayMarkup(lang, 'console.address.qrPlainHttp', {
      link: html`<a href="${GOING_LIVE_HELP}">${tConsole(lang, 'console.address.howToGetIt')}</a>`,
    })}</p></div>`;
  }
  return html``;
}
