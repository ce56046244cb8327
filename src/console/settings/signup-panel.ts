import type Router from '@koa/router';
import type { Context } from 'koa';
import type { AppDeps } from '../../deps';
import { SignupSettingsSchema, type OrgSettings } from '../../orgs/settings';
import { saveSignupSettings } from '../../customer-pages/signup/service';
import { formError, inputField, textareaField } from '../../web/fields';
import { field, parseForm, type FormErrors } from '../../web/forms';
import { html, type Markup } from '../../web/html';
import type { ConsoleContext } from '../context';
import { consoleForm, consoleOf } from '../context';
import { csrfField } from '../layout';
import { tConsole, type ConsoleKey } from '../../i18n/translate';
import { errorsInLang } from '../say';

/** The shared schema's messages (orgs/settings.ts, English) as the admin reads them. */
const SCHEMA_MESSAGES: Readonly<Record<string, ConsoleKey>> = {
  'Write the sentence customers agree to.': 'console.signup.consentMissing',
  'At most 1000 characters.': 'console.signup.consentTooLong',
  'At most 2000 characters.': 'console.signup.urlTooLong',
  'Enter a full web address starting with https://': 'console.signup.urlInvalid',
};

export interface SignupPanelView {
  consentText: string;
  privacyUrl: string;
  errors?: FormErrors;
  saved?: boolean;
}

export function signupPanelView(settings: OrgSettings, saved: boolean): SignupPanelView {
  return { consentText: settings.signup.consentText, privacyUrl: settings.signup.privacyUrl ?? '', saved };
}

export function signupPanel(c: ConsoleContext, view: SignupPanelView): Markup {
  const say = (key: ConsoleKey) => tConsole(c.lang, key);
  const errors = errorsInLang(view.errors ?? { fields: {} }, c.lang, SCHEMA_MESSAGES);
  return html`<section class="panel" aria-labelledby="signup-heading">
  <h2 id="signup-heading">${say('console.signup.title')}</h2>
  <p class="muted">${say('console.signup.intro')}</p>
  ${view.saved ? html`<div class="notice ok" role="status"><p>${say('console.signup.saved')}</p></div>` : ''}
  ${formError(errors.form)}
  <form method="post" action="/console/settings/signup" class="form" novalidate>
    ${csrfField(c)}
    ${textareaField({ name: 'consentText', label: say('console.signup.consent'), value: view.consentText, error: errors.fields.consentText, required: true, maxlength: 1000, rows: 4, hint: say('console.signup.consentHint') })}
    ${inputField({ name: 'privacyUrl', label: say('console.signup.privacyUrl'), type: 'url', value: view.privacyUrl, error: errors.fields.privacyUrl, maxlength: 2000, placeholder: 'https://', hint: say('console.signup.privacyUrlHint') })}
    <div class="actions"><button type="submit">${say('console.signup.save')}</button></div>
  </form>
</section>`;
}

/** POST /console/settings/signup; a refusal shows the whole settings page again (`page`) with this panel's messages. */
export function bindSignupSettings(router: Router, deps: AppDeps, page: (ctx: Context, signup: SignupPanelView, status: number) => void): void {
  router.post('/console/settings/signup', (ctx) => {
    const c = consoleOf(ctx);
    const form = consoleForm(ctx);
    const typed = { consentText: field(form, 'consentText'), privacyUrl: field(form, 'privacyUrl').trim() };
    const parsed = parseForm(SignupSettingsSchema, { consentText: typed.consentText, privacyUrl: typed.privacyUrl === '' ? null : typed.privacyUrl });
    if (!parsed.ok) return page(ctx, { ...typed, errors: parsed.errors }, 400);
    saveSignupSettings(deps, c.org.id, parsed.value);
    ctx.status = 303;
    ctx.redirect('/console/settings?saved=signup#signup-heading');
  });
}
