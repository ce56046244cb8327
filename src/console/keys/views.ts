import type { CreatedKey } from '../../keys/service';
import type { ListedKey } from '../../keys/admin';
import { SCOPE_DESCRIPTIONS, DEVICE_NAME_MAX } from '../../keys/schemas';
import { SCOPES, type Mode } from '../../keys/scopes';
import { html, type Markup } from '../../web/html';
import { formError, inputField } from '../../web/fields';
import type { FormErrors } from '../../web/forms';
import type { ConsoleContext } from '../context';
import { csrfField } from '../layout';
import { choiceGroup, doneNotice, shownOnce, when } from '../widgets';
import type { ConsoleLang } from '../../i18n/langs';
import { tConsole, type ConsoleKey, type MessageParams } from '../../i18n/translate';
import { sayMarkup } from '../say';

export interface KeyForm {
  deviceName: string;
  mode: string;
  scopes: string[];
}

export interface KeysView {
  keys: ListedKey[];
  form: KeyForm;
  timeZone: string;
  errors?: FormErrors;
  notice?: string;
}

const SCOPE_KEYS: Record<(typeof SCOPES)[number], ConsoleKey> = {
  'customers:read': 'console.keys.scope.customersRead',
  'customers:write': 'console.keys.scope.customersWrite',
  'loyalty:write': 'console.keys.scope.loyaltyWrite',
  'webhooks:manage': 'console.keys.scope.webhooksManage',
  'cards:read': 'console.keys.scope.cardsRead',
  'cards:write': 'console.keys.scope.cardsWrite',
};

function modeWords(mode: Mode, lang: ConsoleLang): { title: string; badge: Markup; hint: string } {
  const say = (key: ConsoleKey) => tConsole(lang, key);
  return mode === 'live'
    ? { title: say('console.keys.liveTitle'), badge: html`<span class="badge ok">${say('console.keys.live')}</span>`, hint: say('console.keys.liveHint') }
    : { title: say('console.keys.testTitle'), badge: html`<span class="badge warn">${say('console.keys.test')}</span>`, hint: say('console.keys.testHint') };
}

const ms = (iso: string) => Date.parse(iso);

function keyRow(key: ListedKey, timeZone: string, lang: ConsoleLang): Markup {
  const say = (k: ConsoleKey, params?: MessageParams) => tConsole(lang, k, params);
  const revoked = key.revokedAt !== null;
  return html`<tr${revoked ? html` class="revoked"` : ''}>
  <td><strong>${key.deviceName}</strong><br><code class="small">${key.hint}</code></td>
  <td>${modeWords(key.mode, lang).badge}</td>
  <td class="scopes">${key.scopes.length === SCOPES.length ? html`<span class="small">${say('console.keys.allPermissions')}</span>` : key.scopes.map((s) => html`<code class="small">${s}</code> `)}</td>
  <td class="nowrap">${when(ms(key.createdAt), timeZone, {}, lang)}</td>
  <td class="nowrap">${key.lastUsedAt ? when(ms(key.lastUsedAt), timeZone, {}, lang) : html`<span class="muted">${say('console.keys.never')}</span>`}</td>
  <td>${
    revoked
      ? html`<span class="badge danger">${say('console.keys.revoked')}</span><br><span class="small muted">${when(ms(key.revokedAt!), timeZone, {}, lang)}</span>`
      : html`<a class="button secondary small-button" href="/console/keys/${key.id}/revoke" aria-label="${say('console.keys.revokeWho', { name: key.deviceName })}">${say('console.keys.revoke')}</a>`
  }</td>
</tr>`;
}

function keyTable(mode: Mode, keys: ListedKey[], timeZone: string, current: boolean, lang: ConsoleLang): Markup {
  const say = (k: ConsoleKey) => tConsole(lang, k);
  const ofMode = keys.filter((k) => k.mode === mode);
  // Keys still in use first, newest first; revoked ones below them.
  ofMode.sort((a, b) => Number(a.revokedAt !== null) - Number(b.revokedAt !== null) || ms(b.createdAt) - ms(a.createdAt));
  const words = modeWords(mode, lang);
  return html`<section class="key-list" aria-labelledby="keys-${mode}">
  <h2 id="keys-${mode}">${words.title} ${words.badge}${current ? html` <span class="small muted">${say('console.keys.current')}</span>` : ''}</h2>
  <p class="muted small">${words.hint}</p>
  ${
    ofMode.length === 0
      ? html`<p class="empty panel">${say(mode === 'live' ? 'console.keys.noLive' : 'console.keys.noTest')}</p>`
      : html`<div class="table-wrap"><table class="keys" aria-labelledby="keys-${mode}">
  <thead><tr><th scope="col">${say('console.keys.deviceAndKey')}</th><th scope="col">${say('console.keys.mode')}</th><th scope="col">${say('console.keys.permissions')}</th><th scope="col">${say('console.keys.created')}</th><th scope="col">${say('console.keys.lastUsed')}</th><th scope="col">${say('console.keys.status')}</th></tr></thead>
  <tbody>${ofMode.map((k) => keyRow(k, timeZone, lang))}</tbody>
</table></div>`
  }
</section>`;
}

function createForm(c: ConsoleContext, form: KeyForm, errors: FormErrors): Markup {
  const lang = c.lang;
  const say = (k: ConsoleKey) => tConsole(lang, k);
  return html`<form method="post" action="/console/keys" class="form panel" novalidate>
  ${csrfField(c)}
  <h2>${say('console.keys.createTitle')}</h2>
  ${inputField({ name: 'deviceName', label: say('console.keys.device'), value: form.deviceName, error: errors.fields.deviceName, required: true, maxlength: DEVICE_NAME_MAX, hint: say('console.keys.deviceHint') })}
  ${choiceGroup({
    name: 'mode',
    legend: say('console.keys.mode'),
    type: 'radio',
    checked: [form.mode],
    error: errors.fields.mode,
    choices: [
      { value: 'live', label: say('console.keys.live'), hint: modeWords('live', lang).hint },
      { value: 'test', label: say('console.keys.test'), hint: modeWords('test', lang).hint },
    ],
  })}
  ${choiceGroup({
    name: 'scopes',
    legend: say('console.keys.permissions'),
    type: 'checkbox',
    checked: form.scopes,
    error: errors.fields.scopes,
    hint: say('console.keys.permissionsHint'),
    choices: SCOPES.map((s) => ({ value: s, label: html`<code>${s}</code>`, hint: lang === 'en' ? SCOPE_DESCRIPTIONS[s] : say(SCOPE_KEYS[s]) })),
  })}
  <div class="actions"><button type="submit">${say('console.keys.create')}</button></div>
</form>`;
}

export function keysBody(c: ConsoleContext, view: KeysView): Markup {
  const lang = c.lang;
  const errors = view.errors ?? { fields: {} };
  const order: Mode[] = c.livemode ? ['live', 'test'] : ['test', 'live'];
  return html`<div class="page-head"><h1>${tConsole(lang, 'console.nav.keys')}</h1></div>
<p class="muted">${sayMarkup(lang, 'console.keys.intro', { header: html`<code>X-Api-Key</code>` })}</p>
${doneNotice(view.notice)}
${formError(errors.form)}
${order.map((mode) => keyTable(mode, view.keys, view.timeZone, (mode === 'live') === c.livemode, lang))}
${createForm(c, view.form, errors)}`;
}

/** The answer to "Create key": the raw key, this once. */
export function createdKeyBody(created: CreatedKey, publicUrl: string, lang: ConsoleLang = 'en'): Markup {
  const say = (k: ConsoleKey) => tConsole(lang, k);
  const words = modeWords(created.mode, lang);
  return html`<div class="page-head"><h1>${say('console.keys.newTitle')}</h1></div>
<div class="notice ok" role="status"><p>${sayMarkup(lang, 'console.keys.createdFor', { name: html`<strong>${created.deviceName}</strong>` })} ${words.badge} ${say(created.mode === 'test' ? 'console.keys.createdTest' : 'console.keys.createdLive')}</p></div>
<section class="panel" aria-labelledby="new-key-heading">
  <h2 id="new-key-heading">${created.deviceName}</h2>
  ${shownOnce({ id: 'new-key', label: say('console.keys.apiKey'), value: created.key, warning: say('console.keys.fingerprint'), lang })}
  <dl class="facts">
    <dt>${say('console.keys.permissions')}</dt><dd>${created.scopes.map((s) => html`<code>${s}</code> `)}</dd>
    <dt>${say('console.keys.useAs')}</dt><dd><code>curl -H "X-Api-Key: &lt;${say('console.keys.theKey')}&gt;" ${publicUrl}/api/v1/cards</code></dd>
  </dl>
  <div class="actions"><a class="button" href="/console/keys">${say('console.keys.stored')}</a></div>
</section>`;
}

/** "Revoke key X?" — a plain form, so the step works without JavaScript. */
export function revokeBody(c: ConsoleContext, key: ListedKey, timeZone: string): Markup {
  const lang = c.lang;
  const say = (k: ConsoleKey, params?: MessageParams) => tConsole(lang, k, params);
  const created = when(ms(key.createdAt), timeZone, {}, lang);
  return html`<div class="page-head"><h1>${say('console.keys.revokeTitle', { name: key.deviceName })}</h1></div>
<section class="panel confirm">
  <p><strong>${sayMarkup(lang, 'console.keys.revokeQuestion', { name: key.deviceName, hint: html`<code>${key.hint}</code>` })}</strong></p>
  <p class="muted">${modeWords(key.mode, lang).badge} ${
    key.lastUsedAt
      ? sayMarkup(lang, 'console.keys.revokeFacts', { created, lastUsed: when(ms(key.lastUsedAt), timeZone, {}, lang) })
      : sayMarkup(lang, 'console.keys.revokeFactsNever', { created })
  }</p>
  <form method="post" action="/console/keys/${key.id}/revoke" class="actions">
    ${csrfField(c)}
    <button type="submit" class="danger">${say('console.keys.revokeKey')}</button>
    <a class="button secondary" href="/console/keys">${say('console.keys.cancel')}</a>
  </form>
</section>`;
}
