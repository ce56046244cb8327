import type { Config } from '../config';
import { hostOf, isLoopbackHost } from '../lib/url-host';
import { html, type Markup } from '../web/html';

// Where customers' phones are sent (decisions §9): every link and QR code is built on PUBLIC_URL
// (install links on INSTALL_BASE_URL). The console says plainly when phones cannot follow them.

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
export function publicAddressBanner(config: Pick<Config, 'publicUrl'>): Markup {
  const problem = addressProblem(config.publicUrl);
  if (problem === 'loopback') {
    return html`<aside class="test-banner address-banner" aria-label="Public address"><p><strong>Customers' phones can't open links to this computer.</strong> The public address is <code>${config.publicUrl}</code>, so every QR code and install link leads a phone to itself. Set <code>PUBLIC_URL</code> before you print a poster: <a href="${GOING_LIVE_HELP}">how to go live</a>.</p></aside>`;
  }
  if (problem === 'plain-http') {
    return html`<aside class="test-banner address-banner" aria-label="Public address"><p><strong>Plain http:</strong> phones on your network can open <code>${config.publicUrl}</code>, but Apple Wallet passes need HTTPS, and browsers open the camera only over HTTPS, so the counter cannot scan with a tablet's camera (a USB scanner or typing works). <a href="${GOING_LIVE_HELP}">How to get HTTPS</a>.</p></aside>`;
  }
  return html``;
}

/** Beside a QR code on screen (never on paper): what a phone scanning it would meet. */
export function qrAddressNote(link: string): Markup {
  const problem = addressProblem(link);
  if (problem === 'loopback') {
    return html`<div class="notice warn no-print"><p><strong>This code won't work on customers' phones:</strong> it points at <code>${new URL(link).origin}</code>, this computer. Set <code>PUBLIC_URL</code> to an address phones can reach first (<a href="${GOING_LIVE_HELP}">how to go live</a>); a code printed now stays wrong.</p></div>`;
  }
  if (problem === 'plain-http') {
    return html`<div class="notice warn no-print"><p>This code opens a plain <code>http</code> address: it works on your shop's network, but Apple Wallet and the camera need HTTPS (<a href="${GOING_LIVE_HELP}">how to get it</a>).</p></div>`;
  }
  return html``;
}
