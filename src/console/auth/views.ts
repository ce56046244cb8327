import { html, type Markup } from '../../web/html';
import { formError, inputField } from '../../web/fields';
import { CSRF_FIELD } from '../../web/csrf';
import type { FormErrors } from '../../web/forms';
import { PASSWORD_MIN_LENGTH } from '../../lib/password';
import type { ConsoleContext } from '../context';
import { csrfField } from '../layout';

export function signInBody(input: { csrf: string; next: string; email?: string; errors?: FormErrors; notice?: string }): Markup {
  const errors = input.errors ?? { fields: {} };
  return html`<main class="centered">
  <div class="box">
    <h1>Sign in</h1>
    <p class="muted">Wallet Loyalty console</p>
    ${input.notice ? html`<div class="notice ok" role="status"><p>${input.notice}</p></div>` : ''}
    ${formError(errors.form)}
    <form method="post" action="/console/sign-in" novalidate>
      <input type="hidden" name="${CSRF_FIELD}" value="${input.csrf}">
      <input type="hidden" name="next" value="${input.next}">
      ${inputField({ name: 'email', label: 'Email', type: 'email', value: input.email, error: errors.fields.email, required: true, autocomplete: 'username', autofocus: !input.email })}
      ${inputField({ name: 'password', label: 'Password', type: 'password', error: errors.fields.password, required: true, autocomplete: 'current-password', autofocus: !!input.email })}
      <button type="submit">Sign in</button>
    </form>
    <p class="small muted lost-password"><strong>Lost your password?</strong> Ask another admin of your business to add your login again (Settings → Admins). Or ask whoever runs this server: they can set a new password with <code>wallet-loyalty admin reset-password --email &lt;your email&gt;</code>, which prints it once.</p>
  </div>
</main>`;
}

export function passwordBody(c: ConsoleContext, input: { errors?: FormErrors; done?: boolean }): Markup {
  const errors = input.errors ?? { fields: {} };
  return html`<div class="page-head"><h1>Change password</h1></div>
${input.done ? html`<div class="notice ok" role="status"><p>Your password is changed. Every other browser signed in as you has been signed out.</p></div>` : ''}
${formError(errors.form)}
<form method="post" action="/console/password" class="form panel" novalidate>
  ${csrfField(c)}
  <p class="muted">Signed in as <strong>${c.admin.email}</strong>.</p>
  ${inputField({ name: 'current', label: 'Current password', type: 'password', error: errors.fields.current, required: true, autocomplete: 'current-password' })}
  ${inputField({ name: 'next', label: 'New password', type: 'password', error: errors.fields.next, required: true, autocomplete: 'new-password', hint: `At least ${PASSWORD_MIN_LENGTH} characters.` })}
  ${inputField({ name: 'confirm', label: 'New password again', type: 'password', error: errors.fields.confirm, required: true, autocomplete: 'new-password' })}
  <div class="actions"><button type="submit">Change password</button></div>
</form>`;
}
