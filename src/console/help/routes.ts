import type Router from '@koa/router';
import type { AppDeps } from '../../deps';
import { ApiError } from '../../lib/errors';
import { html } from '../../web/html';
import { consoleOf } from '../context';
import { sendConsolePage } from '../layout';
import { HELP_PAGES, helpPage } from './pages';

// GET /console/help and /console/help/<section>: the console's short help pages.

export function bindHelp(router: Router, deps: AppDeps): void {
  const index = html`<nav aria-labelledby="help-topics"><h2 id="help-topics" class="small-heading">All help pages</h2><ul class="help-index">${HELP_PAGES.map((p) => html`<li><a href="/console/help/${p.slug}">${p.title}</a></li>`)}</ul></nav>`;

  router.get('/console/help', (ctx) => {
    const c = consoleOf(ctx);
    sendConsolePage(ctx, deps, c, { section: null, title: 'Help', body: html`<div class="page-head"><h1>Help</h1></div><section class="panel help">${index}</section>` });
  });

  router.get('/console/help/:topic', (ctx) => {
    const c = consoleOf(ctx);
    const page = helpPage(ctx.params.topic!);
    if (!page) throw new ApiError(404, 'HELP_NOT_FOUND', { exactMessage: 'There is no such help page.' });
    sendConsolePage(ctx, deps, c, {
      section: null,
      title: `Help: ${page.title}`,
      body: html`<p class="small"><a href="/console/help">← Help</a></p><div class="page-head"><h1>Help: ${page.title}</h1></div>
<article class="panel help">${page.body}</article>
<section class="panel help">${index}</section>`,
    });
  });
}
