import type Router from '@koa/router';
import type { AppDeps } from '../../deps';
import type { ConsoleLang } from '../../i18n/langs';
import { tConsole } from '../../i18n/translate';
import { ApiError, inWords } from '../../lib/errors';
import { html } from '../../web/html';
import { consoleOf } from '../context';
import { sendConsolePage } from '../layout';
import { helpBody, HELP_PAGES, helpPage } from './pages';

// GET /console/help and /console/help/<section>: the console's short help pages, in the admin's language.

export function bindHelp(router: Router, deps: AppDeps): void {
  const index = (lang: ConsoleLang) =>
    html`<nav aria-labelledby="help-topics"><h2 id="help-topics" class="small-heading">${tConsole(lang, 'console.help.all')}</h2><ul class="help-index">${HELP_PAGES.map(
      (p) => html`<li><a href="/console/help/${p.slug}">${tConsole(lang, p.title)}</a></li>`,
    )}</ul></nav>`;

  router.get('/console/help', (ctx) => {
    const c = consoleOf(ctx);
    const title = tConsole(c.lang, 'console.nav.help');
    sendConsolePage(ctx, deps, c, { section: null, title, body: html`<div class="page-head"><h1>${title}</h1></div><section class="panel help">${index(c.lang)}</section>` });
  });

  router.get('/console/help/:topic', (ctx) => {
    const c = consoleOf(ctx);
    const page = helpPage(ctx.params.topic!);
    if (!page) throw inWords(new ApiError(404, 'HELP_NOT_FOUND', { exactMessage: tConsole(c.lang, 'console.help.notFound') }));
    const title = tConsole(c.lang, 'console.help.pageTitle', { title: tConsole(c.lang, page.title) });
    sendConsolePage(ctx, deps, c, {
      section: null,
      title,
      body: html`<p class="small"><a href="/console/help">← ${tConsole(c.lang, 'console.nav.help')}</a></p><div class="page-head"><h1>${title}</h1></div>
<article class="panel help">${helpBody(page, c.lang)}</article>
<section class="panel help">${index(c.lang)}</section>`,
    });
  });
}
