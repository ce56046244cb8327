import { html, type Markup } from '../../web/html';
import { formError, inputField } from '../../web/fields';
import { CSRF_FIELD } from '../../web/csrf';
import type { FormErrors } from '../../web/forms';
import type { ConsoleLang } from '../../i18n/langs';
import { tConsole } from '../../i18n/translate';
import { PASSWORD_MIN_LENGTH } from '../../lib/password';
import type { ConsoleContext } from '../context';
import { csrfField } from '../layout';
import { sayMarkup } from '../say';

export function signInBody(lang: ConsoleLang, input: { csrf: string; next: string; email?: string; errors?: FormErrors; notice?: string }): Markup {
  const say = (key: Parameters<typeof tConsole>[1]) => tConsole(lang, key);
  const errors = input.errors ?? { fields: {} };
  return html`<main class="centered">
  <div class="box">
    <h1>${say('console.signIn.title')}</h1>
    <p class="muted">${say('console.signIn.subtitle')}</p>
    ${input.notice ? html`<div class="notice ok" role="status"><p>${input.notice}</p></div>` : ''}
    ${formError(errors.form)}
    <form method="post" action="/console/sign-in" novalidate>
      <input type="hidden" name="${CSRF_FIELD}" value="${input.csrf}">
      <input type="hidden" name="next" value="${input.next}">
      ${inputField({ name: 'email', label: say('console.signIn.email'), type: 'email', value: input.email, error: errors.fields.email, required: true, autocomplete: 'username', autofocus: !input.email })}
      ${inputField({ name: 'password', label: say('console.signIn.password'), type: 'password', error: errors.fields.password, required: true, autocomplete: 'current-password', autofocus: !!input.email })}
      <button type="submit">${say('console.signIn.submit')}</button>
    </form>
    <p class="small muted lost-password"><strong>${say('console.signIn.lostTitle')}</strong> ${sayMarkup(lang, 'console.signIn.lost', {
      command: html`<code>wallet-loyalty admin reset-password --email &lt;${say('console.signIn.yourEmail')}&gt;</code>`,
    })}</p>
  </div>
</main>`;
}

export function passwordBody(c: ConsoleContext, input: { errors?: FormErrors; done?: boolean }): Markup {
  const say = (key: Parameters<typeof tConsole>[1], params?: Record<string, string | number>) => tConsole(c.lang, key, params);
  const errors = input.errors ?? { fields: {} };
  return html`<div class="page-head"><h1>${say('console.password.title')}</h1></div>
${input.done ? html`<div class="notice ok" role="status"><p>${say('console.password.done')}</p></div>` : ''}
${formError(errors.form)}
<form method="post" action="/console/password" class="form panel" novalidate>
  ${csrfField(c)}
  <p class="muted">${sayMarkup(c.lang, 'console.password.signedInAs', { email: html`<strong>${c.admin.email}</strong>` })}</p>
  ${inputField({ name: 'current', label: say('console.password.current'), type: 'password', error: errors.fields.current, required: true, autocomplete: 'current-password' })}
  ${inputField({ name: 'next', label: say('console.password.next'), type: 'password', error: errors.fields.next, required: true, autocomplete: 'new-password', hint: say('console.password.nextHint', { min: PASSWORD_MIN_LENGTH }) })}
  ${inputField({ name: 'confirm', label: say('console.password.confirm'), type: 'password', error: errors.fields.confirm, required: true, autocomplete: 'new-password' })}
  <div class="actions"><button type="submit">${say('console.password.submit')}</button></div>
</form>`;
}
