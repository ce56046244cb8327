// The language switcher of a customer's own pages (the install page, the welcome after signing up,
// the web pass): choosing a language stores it on the customer (setCustomerLanguage), so their
// pass, its updates on the phone and their emails follow, and the page comes back in it. Only the
// holder of the link can choose (the install code is the proof), through a pre-session form as
// "Email me my card" is; a GET never changes anything.
import type Router from '@koa/router';
import type { Context } from 'koa';
import { setCustomerLanguage } from '../../customers/language';
import type { AppDeps } from '../../deps';
import { isLang, type Lang } from '../../i18n/langs';
import { t } from '../../i18n/translate';
import type { RateLimiter } from '../../routing/rate-limit';
import { limitAnonymous } from '../../routing/rate-limited';
import { findCustomerByInstallCode } from '../../wallet/install-code';
import { checkPreSessionForm, CSRF_FIELD, preSessionToken } from '../../web/csrf';
import { errorLang, pageErrors, sendErrorPage } from '../../web/errors';
import { field, readForm, type FormFields } from '../../web/forms';
import { html, type Markup } from '../../web/html';
import { customerPageLang, languageButtons } from '../lang';

/** The page a switcher sits on, and so where its choice goes back to. */
export type SwitchTarget = { kind: 'install' | 'welcome'; cardId: string; code: string } | { kind: 'pass'; code: string };

/** Each page's pre-session cookie is scoped to its own paths: the switcher posts under the same one. */
const cookiePath = (target: SwitchTarget) => (target.kind === 'pass' ? '/pass' : '/get-pass');

function pagePath(target: SwitchTarget): string {
  const code = encodeURIComponent(target.code);
  if (target.kind === 'pass') return `/pass/${code}?language=saved`;
  return `/get-pass/${encodeURIComponent(target.cardId)}${target.kind === 'welcome' ? '/welcome' : ''}?code=${code}&language=saved`;
}

/** The switcher for a customer's own page, and after a choice the line saying their card follows it (styled by either page shell). */
export function customerLanguageSwitch(ctx: Context, deps: Pick<AppDeps, 'config'>, lang: Lang, target: SwitchTarget): Markup {
  const csrfToken = preSessionToken(ctx, deps.config, cookiePath(target));
  const buttons =
    target.kind === 'pass'
      ? languageButtons(lang, { action: `/pass/${encodeURIComponent(target.code)}/language`, csrfToken })
      : languageButtons(lang, { action: `/get-pass/${encodeURIComponent(target.cardId)}/language`, csrfToken, hidden: { code: target.code, page: target.kind } });
  const saved = ctx.query.language === 'saved' ? html`<p class="note done notice ok lang-saved" role="status">${t(lang, 'getpass.language.saved')}</p>` : '';
  return html`${buttons}${saved}`;
}

export function bindLanguageRoutes(router: Router, deps: AppDeps, limiter: RateLimiter): void {
  /** `code` from the address (web pass) or the form (install and welcome pages); `cardId` when the address names the card. */
  async function choose(ctx: Context, target: (form: FormFields) => SwitchTarget | undefined, cardId?: string): Promise<void> {
    limitAnonymous(ctx, deps, limiter);
    const form = await readForm(ctx);
    const wanted = target(form);
    const customer = wanted && findCustomerByInstallCode(deps.db, wanted.code, cardId);
    if (customer) customerPageLang(ctx, deps.db, customer.orgId, customer.language);
    // The install page's address may be INSTALL_BASE_URL, another address of this server than PUBLIC_URL.
    checkPreSessionForm(ctx, deps.config, field(form, CSRF_FIELD), [deps.config.installBaseUrl]);
    if (!wanted || !customer) return sendErrorPage(ctx, 404, t(errorLang(ctx), 'common.cardNotFound'));
    const chosen = field(form, 'lang');
    if (!isLang(chosen)) return sendErrorPage(ctx, 400, t(errorLang(ctx), 'errors.unreadable'));
    setCustomerLanguage(deps, customer, chosen);
    // POST-redirect-GET: the page again, now in the chosen language; a reload sends nothing again.
    ctx.status = 303;
    ctx.redirect(pagePath(wanted));
  }

  router.post('/pass/:code/language', pageErrors(deps.log), (ctx) => choose(ctx, () => ({ kind: 'pass', code: ctx.params.code! })));

  router.post('/get-pass/:cardId/language', pageErrors(deps.log), (ctx) => {
    const cardId = ctx.params.cardId!;
    return choose(ctx, (form) => ({ kind: field(form, 'page') === 'welcome' ? 'welcome' : 'install', cardId, code: field(form, 'code') }), cardId);
  });
}
