import type Router from '@koa/router';
import type { AppDeps } from '../deps';
import { html } from '../web/html';
import { consoleOf } from './context';
import { sendConsolePage } from './layout';
import { addressProblem } from './public-address';

/**
 * The going-live help the address banner links to: the three ways to give the server an address
 * phones can open, in short; the README's "Going live" has the recipes with their files in deploy/.
 */
export function bindGoingLive(router: Router, deps: AppDeps): void {
  router.get('/console/going-live', (ctx) => {
    const c = consoleOf(ctx);
    const problem = addressProblem(deps.config.publicUrl);
    const now =
      problem === 'loopback'
        ? 'This computer only: phones cannot open it.'
        : problem === 'plain-http'
          ? 'Reachable, without HTTPS: no Apple Wallet passes, no camera at the counter.'
          : 'HTTPS: everything works.';
    sendConsolePage(ctx, deps, c, {
      section: null,
      title: 'Going live',
      body: html`<div class="going-live"><div class="page-head"><h1>Going live</h1></div>
<section class="panel" aria-labelledby="now-heading">
  <h2 id="now-heading">Your address now</h2>
  <p><code>${deps.config.publicUrl}</code> — ${now}</p>
  <p>Every link and QR code (posters, the counter, install links) is built on the server setting <code>PUBLIC_URL</code>. Whoever runs the server sets it and restarts it; see "Going live" in the README.</p>
</section>
<section class="panel" aria-labelledby="ways-heading">
  <h2 id="ways-heading">Three ways</h2>
  <ol>
    <li><strong>Your own domain</strong> (this machine or a small server): Caddy in front gets the HTTPS certificate by itself. <code>PUBLIC_URL=https://loyalty.example.com</code>, <code>TRUST_PROXY=true</code>; the file is <code>deploy/Caddyfile</code>.</li>
    <li><strong>A computer in the shop behind the router</strong> (a Raspberry Pi): a tunnel (Cloudflare Tunnel or Tailscale Funnel) gives it a public HTTPS address without opening the router. <code>PUBLIC_URL</code> is the tunnel's address, <code>TRUST_PROXY=true</code>.</li>
    <li><strong>Shop Wi-Fi only</strong>: <code>HOST=0.0.0.0</code>, <code>PUBLIC_URL=http://&lt;this computer's address&gt;:3000</code>. Phones on the shop's Wi-Fi can sign up and see their web pass; Apple Wallet passes and the counter's camera need HTTPS, and nothing works off the Wi-Fi.</li>
  </ol>
</section></div>`,
    });
  });
}
