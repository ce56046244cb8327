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

// The settings page's "Sign-up form" panel: the consent sentence customers tick on every
// card's sign-up form, and the link to the shop's privacy policy. Its own form and route, so the
// business profile form above it is untouched.

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
  const errors = view.errors ?? { fields: {} };
  return html`<section class="panel" aria-labelledby="signup-heading">
  <h2 id="signup-heading">Sign-up form</h2>
  <p class="muted">Customers join a card with data collection by themselves, from its counter poster. Before they send the form they tick this agreement.</p>
  ${view.saved ? html`<div class="notice ok" role="status"><p>Sign-up form saved.</p></div>` : ''}
  ${formError(errors.form)}
  <form method="post" action="/console/settings/signup" class="form" novalidate>
    ${csrfField(c)}
    ${textareaField({ name: 'consentText', label: 'Agreement customers tick', value: view.consentText, error: errors.fields.consentText, required: true, maxlength: 1000, rows: 4, hint: 'Say what you keep and why, and how customers can have it deleted.' })}
    ${inputField({ name: 'privacyUrl', label: 'Privacy policy link', type: 'url', value: view.privacyUrl, error: errors.fields.privacyUrl, maxlength: 2000, placeholder: 'https://', hint: 'A full web address (https://…). Shown under the agreement; leave empty for none.' })}
    <div class="actions"><button type="submit">Save sign-up form</button></div>
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
