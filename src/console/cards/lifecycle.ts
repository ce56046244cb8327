// A card's life after it is made: archive it (closed to new members, passes kept up
// to date), restore it, or delete one that no live customer holds (the demo cards, a mistake).
// Deleting asks first, on a page of its own that says what goes with the card.
import type Router from '@koa/router';
import type { Context } from 'koa';
import type { Card, CardCustomerCounts } from '../../cards/model';
import { cardCustomerCounts, deleteCard, getOrgCard, setCardArchived } from '../../cards/service';
import type { AppDeps } from '../../deps';
import { ApiError } from '../../lib/errors';
import { refusalText } from '../refusals';
import { html, type Markup } from '../../web/html';
import { consoleOf, type ConsoleContext } from '../context';
import { csrfField, sendConsolePage } from '../layout';
import { consoleText } from '../message-markup';
import { tConsole, type ConsoleKey } from '../../i18n/translate';

export const LIFECYCLE_NOTICES: Record<string, ConsoleKey> = {
  archived: 'console.cardEditor.notice.archived',
  restored: 'console.cardEditor.notice.restored',
};

/** The editor's panel: what the card's state is and what can be done with it. */
export function lifecyclePanel(c: ConsoleContext, card: Card, customers: CardCustomerCounts): Markup {
  const base = `/console/cards/${card.id}`;
  const archived = card.archivedAt !== null;
  // As deleteCard decides: erased live customers' ledger rows are the shop's books, and go with no card.
  const deletable = customers.live === 0 && customers.erased.live === 0;
  const m = consoleText(c.lang);
  return html`<section class="panel lifecycle" id="card-status" aria-labelledby="card-status-heading">
  <h2 id="card-status-heading">${m('console.lifecycle.heading')}</h2>
  ${
    archived
      ? html`<p><span class="badge warn">${m('console.cards.badge.archived')}</span> ${m('console.lifecycle.archivedText', { count: customers.live })}</p>
  <form method="post" action="${base}/restore">${csrfField(c)}<button type="submit" class="secondary">${m('console.lifecycle.restore', { name: card.name })}</button></form>`
      : html`<p>${m('console.lifecycle.archiveText')}</p>
  <form method="post" action="${base}/archive">${csrfField(c)}<button type="submit" class="secondary">${m('console.lifecycle.archive', { name: card.name })}</button></form>`
  }
  ${
    deletable
      ? html`<p class="small">${m('console.lifecycle.deletable', { test: customers.test })}</p>
  <p><a class="button danger" href="${base}/delete">${m('console.lifecycle.deleteLink', { name: card.name })}</a></p>`
      : customers.live > 0
        ? html`<p class="small muted">${m('console.lifecycle.heldBy', { count: customers.live })}</p>`
        : html`<p class="small muted">${m('console.lifecycle.keptErased', { count: customers.erased.live })}</p>`
  }
</section>`;
}

function confirmBody(c: ConsoleContext, card: Card, customers: CardCustomerCounts, error?: string): Markup {
  const m = consoleText(c.lang);
  return html`<p class="small"><a href="/console/cards/${card.id}">← ${card.name}</a></p>
<div class="page-head"><h1>${m('console.lifecycle.confirmTitle', { name: card.name })}</h1></div>
${error ? html`<div class="notice error" role="alert"><p>${error}</p></div>` : ''}
<section class="panel" aria-labelledby="delete-heading">
  <h2 id="delete-heading" class="visually-hidden">${m('console.lifecycle.whatGoes')}</h2>
  <p>${m('console.lifecycle.goes', { test: customers.test })}</p>
  <p class="muted">${m('console.lifecycle.posters')}</p>
  <form method="post" action="/console/cards/${card.id}/delete" class="actions">
    ${csrfField(c)}
    <button type="submit" class="danger">${m('console.lifecycle.deleteForGood', { name: card.name })}</button>
    <a href="/console/cards/${card.id}">${m('console.lifecycle.keep')}</a>
  </form>
</section>`;
}

export function bindCardLifecycle(router: Router, deps: AppDeps): void {
  const orgCard = (ctx: Context) => getOrgCard(deps, consoleOf(ctx).org.id, ctx.params.cardId!);
  const seeOther = (ctx: Context, path: string) => {
    ctx.status = 303;
    ctx.redirect(path);
  };

  for (const [action, archived] of [['archive', true], ['restore', false]] as const) {
    router.post(`/console/cards/:cardId/${action}`, (ctx) => {
      const card = setCardArchived(deps, consoleOf(ctx).org.id, orgCard(ctx).id, archived);
      seeOther(ctx, `/console/cards/${encodeURIComponent(card.id)}?done=${archived ? 'archived' : 'restored'}#card-status`);
    });
  }

  const confirmPage = (ctx: Context, card: Card, status = 200, error?: string) => {
    const c = consoleOf(ctx);
    sendConsolePage(ctx, deps, c, { section: 'cards', title: tConsole(c.lang, 'console.lifecycle.pageTitle', { name: card.name }), status, body: confirmBody(c, card, cardCustomerCounts(deps, c.org.id)(card.id), error) });
  };

  router.get('/console/cards/:cardId/delete', (ctx) => confirmPage(ctx, orgCard(ctx)));

  router.post('/console/cards/:cardId/delete', (ctx) => {
    const card = orgCard(ctx);
    try {
      deleteCard(deps, consoleOf(ctx).org.id, card.id);
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      const c = consoleOf(ctx);
      const counts = cardCustomerCounts(deps, c.org.id)(card.id);
      return confirmPage(ctx, card, err.status, err.code === 'CARD_HAS_CUSTOMERS' && c.lang !== 'en' ? tConsole(c.lang, 'console.lifecycle.hasCustomers', { name: card.name, count: counts.live }) : refusalText(c.lang, err));
    }
    seeOther(ctx, `/console/cards?deleted=${encodeURIComponent(card.name)}`);
  });
}
