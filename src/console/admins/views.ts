import type { AdminListing } from '../../admins/service';
import { html, type Markup } from '../../web/html';
import { formError, inputField } from '../../web/fields';
import type { FormErrors } from '../../web/forms';
import type { ConsoleContext } from '../context';
import { csrfField } from '../layout';
import { settingsPage } from '../settings/subnav';
import { doneNotice, shownOnce, when } from '../widgets';

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
  const errors = view.errors?.form === 'add' ? view.errors.errors : { fields: {} };
  return html`<form method="post" action="${ADMINS_PATH}" class="form panel" novalidate aria-labelledby="add-admin-heading">
  ${csrfField(c)}
  <h2 id="add-admin-heading">Add an admin</h2>
  <p class="muted">Admins have the same rights as you. The new admin gets a password, shown here once: give it to them, and they change it after signing in.</p>
  ${formError(errors.form)}
  ${inputField({ name: 'email', label: 'Email of the new admin', type: 'email', value: view.errors?.form === 'add' ? view.errors.typed : '', error: errors.fields.email, required: true, autocomplete: 'off' })}
  <div class="actions"><button type="submit">Add admin</button></div>
</form>`;
}

function emailForm(c: ConsoleContext, view: AdminsView): Markup {
  const errors = view.errors?.form === 'email' ? view.errors.errors : { fields: {} };
  return html`<form method="post" action="${ADMINS_PATH}/email" class="form panel" novalidate aria-labelledby="email-heading">
  ${csrfField(c)}
  <h2 id="email-heading">Your login email</h2>
  <p>You sign in as <strong>${c.admin.email}</strong>.</p>
  ${formError(errors.form)}
  ${inputField({ name: 'email', label: 'New login email', type: 'email', value: view.errors?.form === 'email' ? view.errors.typed : '', error: errors.fields.email, required: true, autocomplete: 'username' })}
  ${inputField({ name: 'password', label: 'Your password', type: 'password', error: errors.fields.password, required: true, autocomplete: 'current-password' })}
  <div class="actions"><button type="submit">Change login email</button></div>
</form>`;
}

export function adminsBody(c: ConsoleContext, view: AdminsView): Markup {
  const removeError = view.errors?.form === 'remove' ? view.errors.errors.form : undefined;
  return settingsPage(ADMINS_PATH, html`${doneNotice(view.notice)}
${
  view.created
    ? html`<section class="panel" aria-labelledby="created-heading"><h2 id="created-heading">Admin added: ${view.created.email}</h2>
  ${shownOnce({ id: 'new-admin-password', label: `Password for ${view.created.email}`, value: view.created.password, warning: 'Give it to the new admin; they sign in with their email and this password, then change it.' })}
</section>`
    : ''
}
<section class="panel" aria-labelledby="admins-heading">
  <h2 id="admins-heading">Admins</h2>
  ${formError(removeError)}
  <div class="table-wrap"><table>
  <thead><tr><th scope="col">Email</th><th scope="col" class="hide-narrow">Added</th><th scope="col">Actions</th></tr></thead>
  <tbody>${view.admins.map(
    (a) => html`<tr><td><strong>${a.email}</strong>${a.id === c.admin.id ? html` <span class="badge">you</span>` : ''}</td>
  <td class="nowrap hide-narrow">${when(a.createdAt, view.timeZone)}</td>
  <td>${
    view.admins.length > 1
      ? html`<form method="post" action="${ADMINS_PATH}/${a.id}/remove">${csrfField(c)}<button type="submit" class="button secondary" aria-label="Remove ${a.email}">Remove</button></form>`
      : html`<span class="small muted">The only admin</span>`
  }</td></tr>`,
  )}</tbody>
  </table></div>
  <p class="small muted">Lost password? Another admin can remove and add the login again here; whoever runs the server can set a new one with <code>wallet-loyalty admin reset-password --email &lt;email&gt;</code>.</p>
</section>
${addForm(c, view)}
${emailForm(c, view)}`);
}
