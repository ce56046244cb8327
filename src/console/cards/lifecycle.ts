// A card's life after it is made (decisions §9): archive it (closed to new members, passes kept up
// to date), restore it, or delete one that no live customer holds (the demo cards, a mistake).
// Deleting asks first, on a page of its own that says what goes with the card.
import type Router from '@koa/router';
import type { Context } from 'koa';
import type { Card, CardCustomerCounts } from '../../cards/model';
import { cardCustomerCounts, deleteCard, getOrgCard, setCardArchived } from '../../cards/service';
import type { AppDeps } from '../../deps';
import { ApiError } from '../../lib/errors';
import { humanMessage } from '../../web/forms';
import { html, type Markup } from '../../web/html';
import { consoleOf, type ConsoleContext } from '../context';
import { csrfField, sendConsolePage } from '../layout';

export const LIFECYCLE_NOTICES: Record<string, string> = {
  archived: 'Archived. The card takes no new members and the counter no longer offers it; its customers keep their passes.',
  restored: 'Restored. The card takes new members again.',
};

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The editor's panel: what the card's state is and what can be done with it. */
export function lifecyclePanel(c: ConsoleContext, card: Card, customers: CardCustomerCounts): Markup {
  const base = `/console/cards/${card.id}`;
  const archived = card.archivedAt !== null;
  // As deleteCard decides: erased live customers' ledger rows are the shop's books, and go with no card.
  const deletable = customers.live === 0 && customers.erased.live === 0;
  return html`<section class="panel lifecycle" id="card-status" aria-labelledby="card-status-heading">
  <h2 id="card-status-heading">Archive or delete</h2>
  ${
    archived
      ? html`<p><span class="badge warn">Archived</span> This card takes no new members and the counter does not offer it. Its ${plural(customers.live, 'customer')} keep${customers.live === 1 ? 's' : ''} their pass${customers.live === 1 ? '' : 'es'}, which still update.</p>
  <form method="post" action="${base}/restore">${csrfField(c)}<button type="submit" class="secondary">Restore ${card.name}</button></form>`
      : html`<p>Archive a card you no longer offer: sign-up closes and the counter stops offering it, while its customers keep their passes and balances. You can restore it at any time.</p>
  <form method="post" action="${base}/archive">${csrfField(c)}<button type="submit" class="secondary">Archive ${card.name}</button></form>`
  }
  ${
    deletable
      ? html`<p class="small">No real customer has this card${customers.test ? ` (it has ${plural(customers.test, 'test customer')})` : ''}, so it can be deleted.</p>
  <p><a class="button danger" href="${base}/delete">Delete ${card.name}…</a></p>`
      : customers.live > 0
        ? html`<p class="small muted">It cannot be deleted: ${plural(customers.live, 'customer')} hold${customers.live === 1 ? 's' : ''} it.</p>`
        : html`<p class="small muted">It cannot be deleted: its history keeps ${plural(customers.erased.live, 'customer')} whose personal data was deleted, and your books need those rows.</p>`
  }
</section>`;
}

function confirmBody(c: ConsoleContext, card: Card, customers: CardCustomerCounts, error?: string): Markup {
  return html`<p class="small"><a href="/console/cards/${card.id}">← ${card.name}</a></p>
<div class="page-head"><h1>Delete ${card.name}?</h1></div>
${error ? html`<div class="notice error" role="alert"><p>${error}</p></div>` : ''}
<section class="panel" aria-labelledby="delete-heading">
  <h2 id="delete-heading" class="visually-hidden">What goes with it</h2>
  <p>The card, its design, its logo and its sign-up form are deleted${customers.test ? html`, with its <strong>${plural(customers.test, 'test customer')}</strong> and their history` : ''}. This cannot be undone.</p>
  <p class="muted">Posters already printed for it will lead nowhere.</p>
  <form method="post" action="/console/cards/${card.id}/delete" class="actions">
    ${csrfField(c)}
    <button type="submit" class="danger">Delete ${card.name} for good</button>
    <a href="/console/cards/${card.id}">Keep it</a>
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
    sendConsolePage(ctx, deps, c, { section: 'cards', title: `Delete ${card.name}`, status, body: confirmBody(c, card, cardCustomerCounts(deps, c.org.id)(card.id), error) });
  };

  router.get('/console/cards/:cardId/delete', (ctx) => confirmPage(ctx, orgCard(ctx)));

  router.post('/console/cards/:cardId/delete', (ctx) => {
    const card = orgCard(ctx);
    try {
      deleteCard(deps, consoleOf(ctx).org.id, card.id);
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      return confirmPage(ctx, card, err.status, humanMessage(err));
    }
    seeOther(ctx, `/console/cards?deleted=${encodeURIComponent(card.name)}`);
  });
}
