// The cards pages: the list, and the editor with its pass preview and logo. Templates only.
import { type Card, type CardCustomerCounts, type CardLogoMeta } from '../../cards/model';
import { MAX_LOGO_SIDE, MIN_LOGO_SIDE } from '../../cards/logo';
import { CSRF_FIELD } from '../../web/csrf';
import type { FormErrors } from '../../web/forms';
import { html, jsonForScript, raw, type Markup } from '../../web/html';
import { tConsole } from '../../i18n/translate';
import type { ConsoleContext } from '../context';
import { consoleText, messageWith } from '../message-markup';
import { csrfField } from '../layout';
import { copyField } from '../widgets';
import { basicsSection, birthdaySection, designSection, earningSection, expirySection, levelsSection, limitsSection, questionsSection, rewardsSection, signupSection, watchSection, type SectionContext } from './editor-sections';
import type { CardForm } from './form';

export interface CardListRow {
  card: Card;
  customers: CardCustomerCounts;
}

const typeName = (c: ConsoleContext, passType: string) => tConsole(c.lang, 'console.cards.typeName', { type: passType });

export function cardListBody(c: ConsoleContext, all: CardListRow[], deleted?: string): Markup {
  const m = consoleText(c.lang);
  const mode = c.livemode ? 'live' : 'test';
  const newButton = html`<a class="button" href="/console/cards/new">${m('console.cards.new')}</a>`;
  const deletedNotice = deleted ? html`<div class="notice ok" role="status"><p>${m('console.cards.deleted', { name: deleted })}</p></div>` : '';
  const rows = all.filter((r) => r.card.archivedAt === null);
  const archived = all.filter((r) => r.card.archivedAt !== null);
  if (all.length === 0) {
    return html`<div class="page-head"><h1>${m('console.cards.title')}</h1></div>
${deletedNotice}
<div class="panel empty-state">
  <h2>${m('console.cards.empty.title')}</h2>
  <p>${m('console.cards.empty.text')}</p>
  <p><a class="button" href="/console/cards/new">${m('console.cards.empty.create')}</a></p>
</div>`;
  }
  return html`<div class="page-head"><h1>${m('console.cards.title')}</h1>${newButton}</div>
${deletedNotice}
<p class="muted small">${m('console.cards.modeNote', { mode })}</p>
${rows.length ? cardTable(c, rows) : html`<p class="empty panel">${m('console.cards.allArchived')}</p>`}
${
  archived.length
    ? html`<section aria-labelledby="archived-heading"><h2 id="archived-heading">${m('console.cards.archived.heading')}</h2>
<p class="muted small">${m('console.cards.archived.note')}</p>
${cardTable(c, archived)}</section>`
    : ''
}`;
}

function cardTable(c: ConsoleContext, rows: CardListRow[]): Markup {
  const m = consoleText(c.lang);
  return html`<div class="table-wrap">
<table class="cards-table">
  <thead><tr><th scope="col">${m('console.cards.col.card')}</th><th scope="col">${m('console.cards.col.type')}</th><th scope="col" class="num">${m('console.cards.col.customers')}</th><th scope="col">${m('console.cards.col.signup')}</th><th scope="col" class="hide-narrow"><span class="visually-hidden">${m('console.cards.col.actions')}</span></th></tr></thead>
  <tbody>
  ${rows.map(({ card, customers }) => {
    const shown = c.livemode ? customers.live : customers.test;
    const other = c.livemode ? customers.test : customers.live;
    return html`<tr>
    <th scope="row"><a href="/console/cards/${card.id}">${card.name}</a></th>
    <td>${typeName(c, card.passType)}</td>
    <td class="num"><span class="count">${m('console.cards.count', { count: shown, mode: c.livemode ? 'live' : 'test' })}</span> <span class="muted small block">${m('console.cards.count', { count: other, mode: c.livemode ? 'test' : 'live' })}</span></td>
    <td>${card.archivedAt !== null ? html`<span class="badge warn">${m('console.cards.badge.archived')}</span>` : card.dataCollectionEnabled ? html`<span class="badge ok">${m('console.cards.badge.on')}</span> <a href="/console/cards/${card.id}/poster" class="small block">${m('console.cards.poster')}</a>` : html`<span class="badge">${m('console.cards.badge.off')}</span>`}</td>
    <td class="actions-cell hide-narrow"><a href="/console/cards/${card.id}" aria-label="${m('console.cards.editNamed', { name: card.name })}">${m('console.cards.edit')}</a></td>
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
  const m = consoleText(c.lang);
  const typeLock = editing && total > 0 ? m('console.cardEditor.typeLock', { total, erased, type: view.form.passType }) : undefined;
  const s: SectionContext = { lang: c.lang, form: view.form, errors: view.errors, action, ...(typeLock ? { typeLock } : {}), ...(view.focus ? { focus: view.focus } : {}), ...(view.locked ? { locked: view.locked } : {}) };
  const title = view.storedName ?? m('console.cardEditor.untitled');
  return html`<div class="page-head"><h1>${editing ? html`${messageWith(c.lang, 'console.cardEditor.heading', 'name', html`<span class="card-title">${title}</span>`)}${view.archived ? html` <span class="badge warn">${m('console.cards.badge.archived')}</span>` : ''}` : m('console.cardEditor.newTitle')}</h1><span class="row">${editing && view.form.passType !== 'prepaid_card' ? html`<a href="/console/cards/${view.cardId}/promotions">${m('console.cardEditor.promotions')}</a>` : ''}${editing ? html`<a href="/console/cards/${view.cardId}/poster">${m('console.cardEditor.poster')}</a>` : ''}<a href="/console/cards">${m('console.cardEditor.allCards')}</a></span></div>
${editing ? copyField({ id: 'card-id', label: m('console.cardEditor.cardId'), value: view.cardId!, hint: m('console.cardEditor.cardIdHint') }) : ''}
${view.notice ? html`<div class="notice ok" role="status"><p>${view.notice}</p></div>` : ''}
${Object.keys(view.errors.fields).length || view.errors.form || (!editing && view.logoError) ? html`<div class="notice error" role="alert"><p>${m('console.cardEditor.nothingSaved')}</p>${view.errors.form ? html`<p>${view.errors.form}</p>` : ''}</div>` : ''}
${editorTexts(c)}
<div class="card-editor">
  <div class="card-editor-main">
    <form method="post" action="${action}" class="card-form" id="card-form" novalidate data-card-form${editing ? html` data-card-id="${view.cardId}"` : html` enctype="multipart/form-data"`}>
      ${csrfField(c)}
      <button type="submit" name="_action" value="save" class="default-submit" tabindex="-1" aria-hidden="true">${m('console.cardEditor.save')}</button>
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
      ${editing ? '' : newLogoField(c, view.logoError)}
      <div class="actions sticky-actions">
        <button type="submit" name="_action" value="save">${editing ? m('console.cardEditor.saveChanges') : m('console.cardEditor.create')}</button>
        <button type="submit" name="_action" value="preview" formaction="${action}#preview" formnovalidate class="secondary" data-preview-button>${m('console.cardEditor.updatePreview')}</button>
        <a href="/console/cards">${m('console.cardEditor.cancel')}</a>
      </div>
    </form>
    ${editing ? logoPanel(c, view) : ''}
    ${view.lifecycle ?? ''}
  </div>
  <aside class="card-preview" id="preview" aria-labelledby="preview-heading">
    <h2 id="preview-heading">${m('console.cardEditor.preview')}</h2>
    <iframe src="${view.previewUrl}" title="${m('console.cardEditor.previewFrame')}" name="card-preview" data-card-preview></iframe>
    <p class="muted small">${m('console.cardEditor.previewNote')}</p>
  </aside>
</div>`;
}

/** The words the editor's script shows (colour pickers, the birthday list), pre-rendered in the admin's language. */
function editorTexts(c: ConsoleContext): Markup {
  const m = consoleText(c.lang);
  const fields = ['backgroundColor', 'foregroundColor', 'labelColor'];
  const texts = {
    pickColour: Object.fromEntries(fields.map((field) => [`design.${field}`, m('console.cardEditor.design.pickColour', { field })])),
    noBirthday: m('console.cardEditor.birthday.none'),
    notDate: m('console.cardEditor.birthday.notDate', { key: '{key}' }),
  };
  return html`<script type="application/json" id="card-editor-texts">${raw(jsonForScript(texts))}</script>`;
}

/** The logo of a card being made: sent with the card when it is created. */
function newLogoField(c: ConsoleContext, error: string | undefined): Markup {
  const m = consoleText(c.lang);
  return html`<fieldset id="logo" class="section"><legend class="small-heading">${m('console.cardEditor.logo.heading')} <span class="muted small">${m('console.cardEditor.logo.optional')}</span></legend>
  <div class="field">
    <label for="f-logo">${m('console.cardEditor.logo.image')}</label>
    <input id="f-logo" name="logo" type="file" accept="image/png,image/jpeg" aria-describedby="f-logo-hint${error ? ' f-logo-error' : ''}"${error ? html` aria-invalid="true"` : ''}>
    <span class="hint" id="f-logo-hint">${m('console.cardEditor.logo.hintNew', { min: MIN_LOGO_SIDE, max: MAX_LOGO_SIDE })}</span>
    ${error ? html`<span class="error" id="f-logo-error">${error}</span>` : ''}
  </div>
</fieldset>`;
}

function logoPanel(c: ConsoleContext, view: EditorView): Markup {
  const id = view.cardId!;
  const error = view.logoError;
  const m = consoleText(c.lang);
  return html`<section class="panel logo-panel" id="logo" aria-labelledby="logo-heading">
  <h2 id="logo-heading">${m('console.cardEditor.logo.heading')}</h2>
  ${
    view.logo
      ? html`<div class="logo-current"><img src="${view.logo.url}" alt="${m('console.cardEditor.logo.alt')}"><span class="muted small">${m('console.cardEditor.logo.size', { width: view.logo.width, height: view.logo.height })}</span></div>`
      : html`<p class="muted">${m('console.cardEditor.logo.none')}</p>`
  }
  <form method="post" action="/console/cards/${id}/logo?${CSRF_FIELD}=${encodeURIComponent(c.csrfToken)}" enctype="multipart/form-data" novalidate>
    <div class="field">
      <label for="f-logo">${view.logo ? m('console.cardEditor.logo.newImage') : m('console.cardEditor.logo.image')}</label>
      <input id="f-logo" name="logo" type="file" accept="image/png,image/jpeg" required aria-describedby="f-logo-hint${error ? ' f-logo-error' : ''}"${error ? html` aria-invalid="true"` : ''}>
      <span class="hint" id="f-logo-hint">${m('console.cardEditor.logo.hint', { min: MIN_LOGO_SIDE, max: MAX_LOGO_SIDE })}</span>
      ${error ? html`<span class="error" id="f-logo-error">${error}</span>` : ''}
    </div>
    <button type="submit" class="secondary">${m('console.cardEditor.logo.upload')}</button>
  </form>
  ${
    view.logo
      ? html`<form method="post" action="/console/cards/${id}/logo/remove" class="inline">${csrfField(c)}<button type="submit" class="link danger-link">${m('console.cardEditor.logo.remove')}</button></form>`
      : ''
  }
</section>`;
}
