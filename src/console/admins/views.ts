import type { AdminListing } from '../../admins/service';
import { html, type Markup } from '../../web/html';
import { formError, inputField } from '../../web/fields';
import type { FormErrors } from '../../web/forms';
import type { ConsoleContext } from '../context';
import { csrfField } from '../layout';
import { settingsPage } from '../settings/subnav';
import { doneNotice, shownOnce, when } from '../widgets';
import { tConsole, type ConsoleKey, type MessageParams } from '../../i18n/translate';
import { sayMarkup } from '../say';

export const ADMINS_PATH = '/console/settings/admins';

export interface AdminsView {
  admins: AdminListing[];
  timeZone: string;
  created?: { email: string; password: string };
  notice?: string;
  /** Which form the errors belong to. */
  errors?: { form: 'add' | 'remove' | 'email'; errors: FormErrors; typed?: string };
}

function addForm(c: ConsoleContext, view: AdminsView): Markup {
  const say = (key: ConsoleKey) => tConsole(c.lang, key);
  const errors = view.errors?.form === 'add' ? view.errors.errors : { fields: {} };
  return html`<form method="post" action="${ADMINS_PATH}" class="form panel" novalidate aria-labelledby="add-admin-heading">
  ${csrfField(c)}
  <h2 id="add-admin-heading">${say('console.admins.addTitle')}</h2>
  <p class="muted">${say('console.admins.addIntro')}</p>
  ${formError(errors.form)}
  ${inputField({ name: 'email', label: say('console.admins.newEmail'), type: 'email', value: view.errors?.form === 'add' ? view.errors.typed : '', error: errors.fields.email, required: true, autocomplete: 'off' })}
  <div class="actions"><button type="submit">${say('console.admins.add')}</button></div>
</form>`;
}

function emailForm(c: ConsoleContext, view: AdminsView): Markup {
  const say = (key: ConsoleKey) => tConsole(c.lang, key);
  const errors = view.errors?.form === 'email' ? view.errors.errors : { fields: {} };
  return html`<form method="post" action="${ADMINS_PATH}/email" class="form panel" novalidate aria-labelledby="email-heading">
  ${csrfField(c)}
  <h2 id="email-heading">${say('console.admins.loginEmail')}</h2>
  <p>${sayMarkup(c.lang, 'console.admins.youSignInAs', { email: html`<strong>${c.admin.email}</strong>` })}</p>
  ${formError(errors.form)}
  ${inputField({ name: 'email', label: say('console.admins.newLoginEmail'), type: 'email', value: view.errors?.form === 'email' ? view.errors.typed : '', error: errors.fields.email, required: true, autocomplete: 'username' })}
  ${inputField({ name: 'password', label: say('console.admins.yourPassword'), type: 'password', error: errors.fields.password, required: true, autocomplete: 'current-password' })}
  <div class="actions"><button type="submit">${say('console.admins.changeEmail')}</button></div>
</form>`;
}

export function adminsBody(c: ConsoleContext, view: AdminsView): Markup {
  const lang = c.lang;
  const say = (key: ConsoleKey, params?: MessageParams) => tConsole(lang, key, params);
  const removeError = view.errors?.form === 'remove' ? view.errors.errors.form : undefined;
  return settingsPage(
    ADMINS_PATH,
    html`${doneNotice(view.notice)}
${
  view.created
    ? html`<section class="panel" aria-labelledby="created-heading"><h2 id="created-heading">${say('console.admins.added', { email: view.created.email })}</h2>
  ${shownOnce({ id: 'new-admin-password', label: say('console.admins.passwordFor', { email: view.created.email }), value: view.created.password, warning: say('console.admins.passwordWarning'), lang })}
</section>`
    : ''
}
<section class="panel" aria-labelledby="admins-heading">
  <h2 id="admins-heading">${say('console.settingsNav.admins')}</h2>
  ${formError(removeError)}
  <div class="table-wrap"><table>
  <thead><tr><th scope="col">${say('console.signIn.email')}</th><th scope="col" class="hide-narrow">${say('console.admins.addedAt')}</th><th scope="col">${say('console.admins.actions')}</th></tr></thead>
  <tbody>${view.admins.map(
    (a) => html`<tr><td><strong>${a.email}</strong>${a.id === c.admin.id ? html` <span class="badge">${say('console.admins.you')}</span>` : ''}</td>
  <td class="nowrap hide-narrow">${when(a.createdAt, view.timeZone, {}, lang)}</td>
  <td>${
    view.admins.length > 1
      ? html`<form method="post" action="${ADMINS_PATH}/${a.id}/remove">${csrfField(c)}<button type="submit" class="button secondary" aria-label="${say('console.admins.removeWho', { email: a.email })}">${say('console.admins.remove')}</button></form>`
      : html`<span class="small muted">${say('console.admins.only')}</span>`
  }</td></tr>`,
  )}</tbody>
  </table></div>
  <p class="small muted">${sayMarkup(lang, 'console.admins.lost', { command: html`<code>wallet-loyalty admin reset-password --email &lt;${say('console.admins.emailWord')}&gt;</code>` })}</p>
</section>
${addForm(c, view)}
${emailForm(c, view)}`,
    lang,
  );
}
