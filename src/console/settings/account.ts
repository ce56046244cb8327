import type Router from '@koa/router';
import type { Context } from 'koa';
import { adminLang, setAdminLanguage } from '../../admins/service';
import type { AppDeps } from '../../deps';
import { CONSOLE_LANGS, isConsoleLang, LANG_NAMES, type ConsoleLang } from '../../i18n/langs';
import { tConsole } from '../../i18n/translate';
import { formError, selectField } from '../../web/fields';
import { field } from '../../web/forms';
import { html } from '../../web/html';
import { consoleForm, consoleOf, type ConsoleContext } from '../context';
import { csrfField, sendConsolePage } from '../layout';
import { settingsPage } from './subnav';

// Settings → Account: what belongs to the signed-in admin alone, their login and the language the
// console speaks to them in (English or German, each admin's own choice). The page itself is in
// that language, from the console's catalogues.

export const ACCOUNT_PATH = '/console/settings/account';

interface AccountView {
  /** The language chosen, or typed into a refused form. */
  language: string;
  error?: string;
  saved?: boolean;
}

function accountBody(c: ConsoleContext, lang: ConsoleLang, view: AccountView) {
  const say = (key: Parameters<typeof tConsole>[1], params?: Record<string, string>) => tConsole(lang, key, params);
  return settingsPage(
    ACCOUNT_PATH,
    html`<div lang="${lang}">
${view.saved ? html`<div class="notice ok" role="status"><p>${say('console.account.saved')}</p></div>` : ''}
${formError(view.error)}
<form method="post" action="${ACCOUNT_PATH}" class="form panel" novalidate>
  ${csrfField(c)}
  <h2>${say('console.account.title')}</h2>
  <p>${say('console.account.signedInAs', { email: c.admin.email })} <a href="/console/password">${say('console.account.changePassword')}</a></p>
  ${selectField({
    name: 'language',
    label: say('console.account.language'),
    value: view.language,
    error: view.error,
    required: true,
    options: CONSOLE_LANGS.map((l) => ({ value: l, label: LANG_NAMES[l] })),
    hint: say('console.account.languageHint'),
  })}
  <div class="actions"><button type="submit">${say('console.account.save')}</button></div>
</form>
</div>`,
  );
}

export function bindAccountSettings(router: Router, deps: AppDeps): void {
  const page = (ctx: Context, view: AccountView, status = 200) => {
    const c = consoleOf(ctx);
    const lang = c.lang;
    sendConsolePage(ctx, deps, c, { section: 'settings', title: tConsole(lang, 'console.account.title'), status, body: accountBody(c, lang, view) });
  };

  router.get(ACCOUNT_PATH, (ctx) => {
    const c = consoleOf(ctx);
    page(ctx, { language: adminLang(deps.db, c.admin), saved: ctx.query.saved === '1' });
  });

  router.post(ACCOUNT_PATH, (ctx) => {
    const c = consoleOf(ctx);
    const language = field(consoleForm(ctx), 'language');
    if (!isConsoleLang(language)) {
      return page(ctx, { language, error: tConsole(adminLang(deps.db, c.admin), 'console.account.languageInvalid') }, 400);
    }
    setAdminLanguage(deps, c.admin, language);
    ctx.status = 303;
    ctx.redirect(`${ACCOUNT_PATH}?saved=1`);
  });
}
