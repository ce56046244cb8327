import type Router from '@koa/router';
import type { Context } from 'koa';
import type { AppDeps } from '../../deps';
import { addAdmin, AdminError, changeAdminEmail, listAdmins, removeAdmin } from '../../admins/service';
import { PASSWORD_MAX_LENGTH } from '../../lib/password';
import { readOrgSettings } from '../../orgs/settings';
import { clearCookie } from '../../web/cookies';
import { field, noErrors } from '../../web/forms';
import { CONSOLE_SESSIONS } from '../../web/sessions';
import { checkOwnPassword } from '../auth/service';
import { consoleForm, consoleOf } from '../context';
import { sendConsolePage } from '../layout';
import { ADMINS_PATH, adminsBody, type AdminsView } from './views';
import type { ConsoleLang } from '../../i18n/langs';
import { tConsole, type ConsoleKey } from '../../i18n/translate';

const NOTICES: Record<string, ConsoleKey> = {
  removed: 'console.admins.removed',
  email: 'console.admins.emailChanged',
};

/**
 * The admins service's messages (shared with the command line, in English) as the admin reads
 * them; one the table does not know is shown as it is.
 */
const SERVICE_MESSAGES: readonly [RegExp, ConsoleKey][] = [
  [/^(?<email>.+) is already an admin of this shop\.$/, 'console.admins.errAlreadyHere'],
  [/^(?<email>.+) cannot be used for an admin login\. Choose another email address\.$/, 'console.admins.errTaken'],
  [/^Enter an email address\.$/, 'console.admins.errEnterEmail'],
  [/^(?<email>.+) is not an email address\.$/, 'console.admins.errNotEmail'],
  [/^This admin no longer exists\.$/, 'console.admins.errGone'],
  [/^The last admin cannot be removed: add another admin first\.$/, 'console.admins.errLast'],
  [/^This is already your login email\.$/, 'console.admins.errSame'],
];

export function adminMessage(lang: ConsoleLang, message: string): string {
  for (const [pattern, key] of SERVICE_MESSAGES) {
    const match = pattern.exec(message);
    if (match) return tConsole(lang, key, { ...match.groups });
  }
  return message;
}

/** Settings → Admins: several admins per org with equal rights; never none. */
export function bindAdmins(router: Router, deps: AppDeps): void {
  const page = (ctx: Context, view: Partial<AdminsView>, status = 200) => {
    const c = consoleOf(ctx);
    sendConsolePage(ctx, deps, c, {
      section: 'settings',
      title: tConsole(c.lang, 'console.settingsNav.admins'),
      status,
      body: adminsBody(c, { admins: listAdmins(deps.db, c.org.id), timeZone: readOrgSettings(deps.db, c.org.id).timeZone, ...view }),
    });
  };
  const refused = (ctx: Context, form: 'add' | 'remove' | 'email', err: AdminError, typed?: string) => {
    const errors = noErrors();
    const message = adminMessage(consoleOf(ctx).lang, err.orgMessage ?? err.message);
    if (err.field === 'form') errors.form = message;
    else errors.fields[err.field] = message;
    page(ctx, { errors: { form, errors, typed } }, 400);
  };

  router.get(ADMINS_PATH, (ctx) => {
    const notice = typeof ctx.query.done === 'string' ? NOTICES[ctx.query.done] : undefined;
    page(ctx, { notice: notice && tConsole(consoleOf(ctx).lang, notice) });
  });

  router.post(ADMINS_PATH, async (ctx) => {
    const c = consoleOf(ctx);
    const email = field(consoleForm(ctx), 'email').slice(0, 320);
    try {
      const created = await addAdmin(deps, { orgId: c.org.id, email });
      // The password is in this answer only (no-store, never in a URL), as new API keys are.
      page(ctx, { created: { email: created.email, password: created.password } });
    } catch (err) {
      if (err instanceof AdminError) return refused(ctx, 'add', err, email);
      throw err;
    }
  });

  router.post(`${ADMINS_PATH}/:adminId/remove`, (ctx) => {
    const c = consoleOf(ctx);
    const adminId = ctx.params.adminId!;
    try {
      removeAdmin(deps, { orgId: c.org.id, adminId });
    } catch (err) {
      if (err instanceof AdminError) return refused(ctx, 'remove', err);
      throw err;
    }
    ctx.status = 303;
    if (adminId === c.admin.id) {
      // Removing yourself ends your own session with the login.
      clearCookie(ctx, deps.config, CONSOLE_SESSIONS.cookie, CONSOLE_SESSIONS.path);
      return ctx.redirect('/console/sign-in');
    }
    ctx.redirect(`${ADMINS_PATH}?done=removed`);
  });

  router.post(`${ADMINS_PATH}/email`, async (ctx) => {
    const c = consoleOf(ctx);
    const form = consoleForm(ctx);
    const email = field(form, 'email').slice(0, 320);
    const password = field(form, 'password').slice(0, PASSWORD_MAX_LENGTH);
    try {
      if (!password) throw new AdminError('password', tConsole(c.lang, 'console.signIn.enterPassword'));
      const wrong = await checkOwnPassword(deps, { admin: c.admin, password, ip: ctx.ip, lang: c.lang });
      if (wrong) throw new AdminError('password', wrong);
      changeAdminEmail(deps, c.admin, email);
    } catch (err) {
      if (err instanceof AdminError) return refused(ctx, 'email', err, email);
      throw err;
    }
    ctx.status = 303;
    ctx.redirect(`${ADMINS_PATH}?done=email`);
  });
}
