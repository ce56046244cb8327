import type Router from '@koa/router';
import type { AppDeps } from '../deps';
import { html } from '../web/html';
import { consoleOf } from './context';
import { sendConsolePage } from './layout';
import { addressProblem } from './public-address';
import { tConsole, type ConsoleKey } from '../i18n/translate';
import { sayMarkup } from './say';

/**
 * The going-live help the address banner links to: the three ways to give the server an address
 * phones can open, in short; the README's "Going live" has the recipes with their files in deploy/.
 */
export function bindGoingLive(router: Router, deps: AppDeps): void {
  router.get('/console/going-live', (ctx) => {
    const c = consoleOf(ctx);
    const say = (key: ConsoleKey) => tConsole(c.lang, key);
    const code = (text: string) => html`<code>${text}</code>`;
    const problem = addressProblem(deps.config.publicUrl);
    const now = say(problem === 'loopback' ? 'console.goingLive.loopback' : problem === 'plain-http' ? 'console.goingLive.plainHttp' : 'console.goingLive.https');
    sendConsolePage(ctx, deps, c, {
      section: null,
      title: say('console.goingLive.title'),
      body: html`<div class="going-live"><div class="page-head"><h1>${say('console.goingLive.title')}</h1></div>
<section class="panel" aria-labelledby="now-heading">
  <h2 id="now-heading">${say('console.goingLive.now')}</h2>
  <p><code>${deps.config.publicUrl}</code> — ${now}</p>
  <p>${sayMarkup(c.lang, 'console.goingLive.setting', { setting: code('PUBLIC_URL') })}</p>
</section>
<section class="panel" aria-labelledby="ways-heading">
  <h2 id="ways-heading">${say('console.goingLive.ways')}</h2>
  <ol>
    <li><strong>${say('console.goingLive.domainTitle')}</strong> ${sayMarkup(c.lang, 'console.goingLive.domain', {
      url: code('PUBLIC_URL=https://loyalty.example.com'),
      proxy: code('TRUST_PROXY=true'),
      file: code('deploy/Caddyfile'),
    })}</li>
    <li><strong>${say('console.goingLive.tunnelTitle')}</strong> ${sayMarkup(c.lang, 'console.goingLive.tunnel', { setting: code('PUBLIC_URL'), proxy: code('TRUST_PROXY=true') })}</li>
    <li><strong>${say('console.goingLive.wifiTitle')}</strong>${sayMarkup(c.lang, 'console.goingLive.wifi', {
      host: code('HOST=0.0.0.0'),
      url: code(`PUBLIC_URL=http://<${say('console.goingLive.thisAddress')}>:3000`),
    })}</li>
  </ol>
</section></div>`,
    });
  });
}
