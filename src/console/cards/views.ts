// The cards pages: the list, and the editor with its pass preview and logo. Templates only.
import { PASS_TYPE_NAMES, type Card, type CardCustomerCounts, type CardLogoMeta } from '../../cards/model';
import { MAX_LOGO_SIDE, MIN_LOGO_SIDE } from '../../cards/logo';
import { CSRF_FIELD } from '../../web/csrf';
import type { FormErrors } from '../../web/forms';
import { html, type Markup } from '../../web/html';
import type { ConsoleContext } from '../context';
import { csrfField } from '../layout';
import { copyField } from '../widgets';
import { basicsSection, birthdaySection, designSection, earningSection, expirySection, levelsSection, limitsSection, questionsSection, rewardsSection, signupSection, watchSection, type SectionContext } from './editor-sections';
import type { CardForm } from './form';

export interface CardListRow {
  card: Card;
  customers: CardCustomerCounts;
}

const typeName = (passType: string) => {
  const name = PASS_TYPE_NAMES[passType as Card['passType']] ?? passType;
  return name.charAt(0).toUpperCase() + name.slice(1);
};

export function cardListBody(c: ConsoleContext, all: CardListRow[], deleted?: string): Markup {
  const mode = c.livemode ? 'live' : 'test';
  const newButton = html`<a class="button" href="/console/cards/new">New card</a>`;
  const deletedNotice = deleted ? html`<div class="notice ok" role="status"><p>${deleted} is deleted.</p></div>` : '';
  const rows = all.filter((r) => r.card.archivedAt === null);
  const archived = all.filter((r) => r.card.archivedAt !== null);
  if (all.length === 0) {
    return html`<div class="page-head"><h1>Cards</h1></div>
${deletedNotice}
<div class="panel empty-state">
  <h2>No cards yet</h2>
  <p>A card is your loyalty programme: stamps per coffee, points per purchase, levels, or prepaid credit. Customers keep it in Apple Wallet, Google Wallet or their browser.</p>
  <p><a class="button" href="/console/cards/new">Create your first card</a></p>
</div>`;
  }
  return html`<div class="page-head"><h1>Cards</h1>${newButton}</div>
${deletedNotice}
<p class="muted small">Cards are the same in live and test data. The counts show the customers of each: the ${mode} ones first, as the switch above stands.</p>
${rows.length ? cardTable(c, rows) : html`<p class="empty panel">Every card is archived. Restore one below, or make a new card.</p>`}
${
  archived.length
    ? html`<section aria-labelledby="archived-heading"><h2 id="archived-heading">Archived cards</h2>
<p class="muted small">Closed to new members; their customers keep their passes.</p>
${cardTable(c, archived)}</section>`
    : ''
}`;
}

function cardTable(c: ConsoleContext, rows: CardListRow[]): Markup {
  const mode = c.livemode ? 'live' : 'test';
  return html`<div class="table-wrap">
<table class="cards-table">
  <thead><tr><th scope="col">Card</th><th scope="col">Type</th><th scope="col" class="num">Customers</th><th scope="col">Sign-up</th><th scope="col" class="hide-narrow"><span class="visually-hidden">Actions</span></th></tr></thead>
  <tbody>
  ${rows.map(({ card, customers }) => {
    const shown = c.livemode ? customers.live : customers.test;
    const other = c.livemode ? customers.test : customers.live;
    return html`<tr>
    <th scope="row"><a href="/console/cards/${card.id}">${card.name}</a></th>
    <td>${typeName(card.passType)}</td>
    <td class="num"><span class="count">${shown} ${mode}</span> <span class="muted small block">${other} ${c.livemode ? 'test' : 'live'}</span></td>
    <td>${card.archivedAt !== null ? html`<span class="badge warn">Archived</span>` : card.dataCollectionEnabled ? html`<span class="badge ok">On</span> <a href="/console/cards/${card.id}/poster" class="small block">Poster</a>` : html`<span class="badge">Off</span>`}</td>
    <td class="actions-cell hide-narrow"><a href="/console/cards/${card.id}" aria-label="Edit ${card.name}">Edit</a></td>
  </tr>`;
  })}
  </tbody>
</table>
</div>`;
}

export interface EditorView {
  cardId?: string;
  /** The card's name as stored (the heading), whatever the form holds. */
  storedName?: string;
  form: CardForm;
  errors: FormErrors;
  /** The card's customers (edit only): a card with any, erased ones too, keeps its type. */
  customers?: CardCustomerCounts;
  logo?: CardLogoMeta & { url: string };
  logoError?: string;
  notice?: string;
  previewUrl: string;
  /** The card's archive and delete panel (edit only). */
  lifecycle?: Markup;
  archived?: boolean;
  /** The control to focus (after a row was added or removed). */
  focus?: string;
  locked?: SectionContext['locked'];
}

export function editorBody(c: ConsoleContext, view: EditorView): Markup {
  const editing = view.cardId !== undefined;
  // A new card's form is multipart (it carries the logo), so its token travels in the address.
  const action = editing ? `/console/cards/${view.cardId}` : `/console/cards/new?${CSRF_FIELD}=${encodeURIComponent(c.csrfToken)}`;
  const erased = view.customers ? view.customers.erased.live + view.customers.erased.test : 0;
  const total = view.customers ? view.customers.live + view.customers.test + erased : 0;
  const typeLock = editing && total > 0
    ? `This card has ${total} customer${total === 1 ? '' : 's'} (live and test${erased ? `, ${erased} of them with their personal data deleted` : ''}), so its type stays ${PASS_TYPE_NAMES[view.form.passType as Card['passType']] ?? view.form.passType}: their balances are counted in it. Create a new card for another type.`
    : undefined;
  const s: SectionContext = { form: view.form, errors: view.errors, action, ...(typeLock ? { typeLock } : {}), ...(view.focus ? { focus: view.focus } : {}), ...(view.locked ? { locked: view.locked } : {}) };
  const title = view.storedName ?? 'Card';
  return html`<div class="page-head"><h1>${editing ? html`Edit <span class="card-title">${title}</span>${view.archived ? html` <span class="badge warn">Archived</span>` : ''}` : 'New card'}</h1><span class="row">${editing && view.form.passType !== 'prepaid_card' ? html`<a href="/console/cards/${view.cardId}/promotions">Promotions</a>` : ''}${editing ? html`<a href="/console/cards/${view.cardId}/poster">Counter poster</a>` : ''}<a href="/console/cards">All cards</a></span></div>
${editing ? copyField({ id: 'card-id', label: 'Card id (for integrators)', value: view.cardId!, hint: 'The cardId of the API: enroll customers on this card with it, or give it to whoever connects your till or shop.' }) : ''}
${view.notice ? html`<div class="notice ok" role="status"><p>${view.notice}</p></div>` : ''}
${Object.keys(view.errors.fields).length || view.errors.form || (!editing && view.logoError) ? html`<div class="notice error" role="alert"><p>Nothing was saved: please correct the fields marked below.</p>${view.errors.form ? html`<p>${view.errors.form}</p>` : ''}</div>` : ''}
<div class="card-editor">
  <div class="card-editor-main">
    <form method="post" action="${action}" class="card-form" id="card-form" novalidate data-card-form${editing ? html` data-card-id="${view.cardId}"` : html` enctype="multipart/form-data"`}>
      ${csrfField(c)}
      <button type="submit" name="_action" value="save" class="default-submit" tabindex="-1" aria-hidden="true">Save</button>
      ${basicsSection(s)}
      ${rewardsSection(s)}
      ${levelsSection(s)}
      ${earningSection(s)}
      ${limitsSection(s)}
      ${expirySection(s)}
      ${signupSection(s)}
      ${questionsSection(s)}
      ${birthdaySection(s)}
      ${watchSection(s)}
      ${designSection(s)}
      ${editing ? '' : newLogoField(view.logoError)}
      <div class="actions sticky-actions">
        <button type="submit" name="_action" value="save">${editing ? 'Save changes' : 'Create card'}</button>
        <button type="submit" name="_action" value="preview" formaction="${action}#preview" formnovalidate class="secondary" data-preview-button>Update preview</button>
        <a href="/console/cards">Cancel</a>
      </div>
    </form>
    ${editing ? logoPanel(c, view) : ''}
    ${view.lifecycle ?? ''}
  </div>
  <aside class="card-preview" id="preview" aria-labelledby="preview-heading">
    <h2 id="preview-heading">Preview</h2>
    <iframe src="${view.previewUrl}" title="Pass preview" name="card-preview" data-card-preview></iframe>
    <p class="muted small">A sample customer's pass in the browser. Apple and Google Wallet show the same colours, name and progress in their own layout.</p>
  </aside>
</div>`;
}

/** The logo of a card being made: sent with the card when it is created. */
function newLogoField(error: string | undefined): Markup {
  return html`<fieldset id="logo" class="section"><legend class="small-heading">Logo <span class="muted small">(optional)</span></legend>
  <div class="field">
    <label for="f-logo">Logo image</label>
    <input id="f-logo" name="logo" type="file" accept="image/png,image/jpeg" aria-describedby="f-logo-hint${error ? ' f-logo-error' : ''}"${error ? html` aria-invalid="true"` : ''}>
    <span class="hint" id="f-logo-hint">PNG or JPEG, up to 1 MB, from ${MIN_LOGO_SIDE} to ${MAX_LOGO_SIDE} pixels a side; saved with the card. You can add or change it later too.</span>
    ${error ? html`<span class="error" id="f-logo-error">${error}</span>` : ''}
  </div>
</fieldset>`;
}

function logoPanel(c: ConsoleContext, view: EditorView): Markup {
  const id = view.cardId!;
  const error = view.logoError;
  return html`<section class="panel logo-panel" id="logo" aria-labelledby="logo-heading">
  <h2 id="logo-heading">Logo</h2>
  ${
    view.logo
      ? html`<div class="logo-current"><img src="${view.logo.url}" alt="The card's logo"><span class="muted small">${view.logo.width} × ${view.logo.height} pixels</span></div>`
      : html`<p class="muted">No logo yet: passes show a simple mark in the card's colours.</p>`
  }
  <form method="post" action="/console/cards/${id}/logo?${CSRF_FIELD}=${encodeURIComponent(c.csrfToken)}" enctype="multipart/form-data" novalidate>
    <div class="field">
      <label for="f-logo">${view.logo ? 'New logo image' : 'Logo image'}</label>
      <input id="f-logo" name="logo" type="file" accept="image/png,image/jpeg" required aria-describedby="f-logo-hint${error ? ' f-logo-error' : ''}"${error ? html` aria-invalid="true"` : ''}>
      <span class="hint" id="f-logo-hint">PNG or JPEG, up to 1 MB, from ${MIN_LOGO_SIDE} to ${MAX_LOGO_SIDE} pixels a side. A square logo also becomes the icon of iPhone notifications. The logo is saved at once: save other changes to the card first.</span>
      ${error ? html`<span class="error" id="f-logo-error">${error}</span>` : ''}
    </div>
    <button type="submit" class="secondary">Upload logo</button>
  </form>
  ${
    view.logo
      ? html`<form method="post" action="/console/cards/${id}/logo/remove" class="inline">${csrfField(c)}<button type="submit" class="link danger-link">Remove the logo</button></form>`
      : ''
  }
</section>`;
}
