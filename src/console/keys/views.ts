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

const MODE_WORDS: Record<Mode, { title: string; badge: Markup; hint: string }> = {
  live: { title: 'Live keys', badge: html`<span class="badge ok">Live</span>`, hint: 'Work on your real customers, cards and balances.' },
  test: { title: 'Test keys', badge: html`<span class="badge warn">Test</span>`, hint: 'See only the test sandbox: test customers, test webhook endpoints. Nothing real changes.' },
};

const ms = (iso: string) => Date.parse(iso);

function keyRow(key: ListedKey, timeZone: string): Markup {
  const revoked = key.revokedAt !== null;
  return html`<tr${revoked ? html` class="revoked"` : ''}>
  <td><strong>${key.deviceName}</strong><br><code class="small">${key.hint}</code></td>
  <td>${MODE_WORDS[key.mode].badge}</td>
  <td class="scopes">${key.scopes.length === SCOPES.length ? html`<span class="small">All permissions</span>` : key.scopes.map((s) => html`<code class="small">${s}</code> `)}</td>
  <td class="nowrap">${when(ms(key.createdAt), timeZone)}</td>
  <td class="nowrap">${key.lastUsedAt ? when(ms(key.lastUsedAt), timeZone) : html`<span class="muted">Never</span>`}</td>
  <td>${
    revoked
      ? html`<span class="badge danger">Revoked</span><br><span class="small muted">${when(ms(key.revokedAt!), timeZone)}</span>`
      : html`<a class="button secondary small-button" href="/console/keys/${key.id}/revoke" aria-label="Revoke ${key.deviceName}">Revoke</a>`
  }</td>
</tr>`;
}

function keyTable(mode: Mode, keys: ListedKey[], timeZone: string, current: boolean): Markup {
  const ofMode = keys.filter((k) => k.mode === mode);
  // Keys still in use first, newest first; revoked ones below them.
  ofMode.sort((a, b) => Number(a.revokedAt !== null) - Number(b.revokedAt !== null) || ms(b.createdAt) - ms(a.createdAt));
  const words = MODE_WORDS[mode];
  return html`<section class="key-list" aria-labelledby="keys-${mode}">
  <h2 id="keys-${mode}">${words.title} ${words.badge}${current ? html` <span class="small muted">(the data you are looking at)</span>` : ''}</h2>
  <p class="muted small">${words.hint}</p>
  ${
    ofMode.length === 0
      ? html`<p class="empty panel">No ${mode} keys yet.</p>`
      : html`<div class="table-wrap"><table class="keys" aria-labelledby="keys-${mode}">
  <thead><tr><th scope="col">Device and key</th><th scope="col">Mode</th><th scope="col">Permissions</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col">Status</th></tr></thead>
  <tbody>${ofMode.map((k) => keyRow(k, timeZone))}</tbody>
</table></div>`
  }
</section>`;
}

function createForm(c: ConsoleContext, form: KeyForm, errors: FormErrors): Markup {
  return html`<form method="post" action="/console/keys" class="form panel" novalidate>
  ${csrfField(c)}
  <h2>Create a key</h2>
  ${inputField({ name: 'deviceName', label: 'Device or integration', value: form.deviceName, error: errors.fields.deviceName, required: true, maxlength: DEVICE_NAME_MAX, hint: 'What will use the key, e.g. "Till 1" or "Online shop": it tells keys apart later.' })}
  ${choiceGroup({
    name: 'mode',
    legend: 'Mode',
    type: 'radio',
    checked: [form.mode],
    error: errors.fields.mode,
    choices: [
      { value: 'live', label: 'Live', hint: MODE_WORDS.live.hint },
      { value: 'test', label: 'Test', hint: MODE_WORDS.test.hint },
    ],
  })}
  ${choiceGroup({
    name: 'scopes',
    legend: 'Permissions',
    type: 'checkbox',
    checked: form.scopes,
    error: errors.fields.scopes,
    hint: 'Give a key only what its integration needs.',
    choices: SCOPES.map((s) => ({ value: s, label: html`<code>${s}</code>`, hint: SCOPE_DESCRIPTIONS[s] })),
  })}
  <div class="actions"><button type="submit">Create key</button></div>
</form>`;
}

const intro = html`<p class="muted">Your till, website or CRM calls the loyalty API with a key in the <code>X-Api-Key</code> header.
A live key works on your real customers; a test key only on the test sandbox.</p>`;

export function keysBody(c: ConsoleContext, view: KeysView): Markup {
  const errors = view.errors ?? { fields: {} };
  const order: Mode[] = c.livemode ? ['live', 'test'] : ['test', 'live'];
  return html`<div class="page-head"><h1>API keys</h1></div>
${intro}
${doneNotice(view.notice)}
${formError(errors.form)}
${order.map((mode) => keyTable(mode, view.keys, view.timeZone, (mode === 'live') === c.livemode))}
${createForm(c, view.form, errors)}`;
}

/** The answer to "Create key": the raw key, this once. */
export function createdKeyBody(created: CreatedKey, publicUrl: string): Markup {
  const words = MODE_WORDS[created.mode];
  return html`<div class="page-head"><h1>Your new API key</h1></div>
<div class="notice ok" role="status"><p>Key for <strong>${created.deviceName}</strong> created: ${words.badge} ${created.mode === 'test' ? 'It sees only the test sandbox.' : 'It works on your real customers.'}</p></div>
<section class="panel" aria-labelledby="new-key-heading">
  <h2 id="new-key-heading">${created.deviceName}</h2>
  ${shownOnce({ id: 'new-key', label: 'API key', value: created.key, warning: 'This server keeps only a fingerprint of the key, so nobody can show it to you again. If you lose it, revoke it and create another.' })}
  <dl class="facts">
    <dt>Permissions</dt><dd>${created.scopes.map((s) => html`<code>${s}</code> `)}</dd>
    <dt>Use it as</dt><dd><code>curl -H "X-Api-Key: &lt;the key&gt;" ${publicUrl}/api/v1/cards</code></dd>
  </dl>
  <div class="actions"><a class="button" href="/console/keys">Done, I have stored the key</a></div>
</section>`;
}

/** "Revoke key X?" — a plain form, so the step works without JavaScript. */
export function revokeBody(c: ConsoleContext, key: ListedKey, timeZone: string): Markup {
  return html`<div class="page-head"><h1>Revoke key ${key.deviceName}?</h1></div>
<section class="panel confirm">
  <p><strong>Revoke key ${key.deviceName} (<code>${key.hint}</code>)? Integrations using it stop at once.</strong></p>
  <p class="muted">${MODE_WORDS[key.mode].badge} Created ${when(ms(key.createdAt), timeZone)}; last used ${key.lastUsedAt ? when(ms(key.lastUsedAt), timeZone) : 'never'}. Revoking cannot be undone: the integration will need a new key.</p>
  <form method="post" action="/console/keys/${key.id}/revoke" class="actions">
    ${csrfField(c)}
    <button type="submit" class="danger">Revoke key</button>
    <a class="button secondary" href="/console/keys">Cancel</a>
  </form>
</section>`;
}
