// The language of a customer's page and the switcher that changes it. A page is in the language
// the switcher's ?lang= asks for, else the customer's stored choice (when the page knows the
// customer), else the first of our languages the browser asks for, else the shop's
// (docs/translations.md). The language is also put on ctx.state.lang, so an error page sent while
// handling the request (web/errors.ts) speaks it too.
//
// Two switchers: on a page of nobody in particular (the sign-up form, the unsubscribe page) links
// that show the page in another language; on a page of one customer's card (the install page,
// the welcome, the web pass) buttons that store the choice on the customer, so their pass and
// emails follow it. Each language is named in its own words and marked with its own lang, so a
// screen reader pronounces "Français" as French whatever the page's language.
import type { Context } from 'koa';
import type { Db } from '../db/connection';
import { LANG_NAMES, LANGS, type Lang } from '../i18n/langs';
import { pageLang } from '../i18n/negotiate';
import { t } from '../i18n/translate';
import { readOrgSettings } from '../orgs/settings';
import { CSRF_FIELD } from '../web/csrf';
import { html, type Markup } from '../web/html';

/** The page's language, remembered on ctx.state.lang for the error pages. */
export function customerPageLang(ctx: Context, db: Db, orgId: string, stored: Lang | null = null): Lang {
  const lang = pageLang({ query: ctx.query.lang, stored, acceptLanguage: ctx.get('Accept-Language'), orgLang: readOrgSettings(db, orgId).language });
  ctx.state.lang = lang;
  return lang;
}

/** `path` with ?lang=xx (or &lang=xx), replacing any lang it had. */
export function withLang(path: string, lang: Lang): string {
  const [base = '', query = ''] = path.split('?');
  const params = new URLSearchParams(query);
  params.set('lang', lang);
  return `${base}?${params.toString()}`;
}

/** Links to this page in each language: for pages that know no customer. */
export function languageLinks(current: Lang, path: string): Markup {
  return html`<nav class="lang-switch" aria-label="${t(current, 'common.language')}"><ul>${LANGS.map(
    (lang) =>
      html`<li><a href="${withLang(path, lang)}" hreflang="${lang}" lang="${lang}"${lang === current ? html` aria-current="true"` : ''}>${LANG_NAMES[lang]}</a></li>`,
  )}</ul></nav>`;
}

export interface LanguageForm {
  /** Where the buttons post. */
  action: string;
  csrfToken: string;
  /** Hidden fields the route needs back (the install code, which page to return to). */
  hidden?: Record<string, string>;
}

/** Buttons that store the customer's language (their pass and emails follow): for a customer's own pages. */
export function languageButtons(current: Lang, form: LanguageForm): Markup {
  return html`<nav class="lang-switch" aria-label="${t(current, 'common.language')}"><form method="post" action="${form.action}">
<input type="hidden" name="${CSRF_FIELD}" value="${form.csrfToken}">
${Object.entries(form.hidden ?? {}).map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`)}
<ul>${LANGS.map(
    (lang) =>
      html`<li><button type="submit" name="lang" value="${lang}" lang="${lang}"${lang === current ? html` aria-current="true"` : ''}>${LANG_NAMES[lang]}</button></li>`,
  )}</ul></form></nav>`;
}
