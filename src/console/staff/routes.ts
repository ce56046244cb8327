import type Router from '@koa/router';
import type { Context } from 'koa';
import * as v from 'valibot';
import type { AppDeps } from '../../deps';
import { ApiError } from '../../lib/errors';
import { readOrgSettings } from '../../orgs/settings';
import { staffActivity } from '../../staff/activity';
import type { Staff } from '../../staff/model';
import { StaffInput, StaffName, StaffPin } from '../../staff/schemas';
import { changeStaffPin, createStaff, getStaff, listStaff, renameStaff, setStaffStatus } from '../../staff/service';
import { qrSvg } from '../../wallet/qr';
import { field, formErrorsFrom, parseForm, type FormErrors } from '../../web/forms';
import { consoleForm, consoleOf } from '../context';
import { sendConsolePage } from '../layout';
import { memberBody, staffBody, type StaffForm } from './views';
import { bindStaffExport } from './export';
import { bindCounterPauses, PAUSE_NOTICES, pausesPanel } from './pauses';
import { pausedCounters } from '../../counter/unlock';
import { STAFF_NAME_MAX } from '../../staff/model';
import { errorsInLang } from '../say';
import type { ConsoleLang } from '../../i18n/langs';
import { tConsole, type ConsoleKey } from '../../i18n/translate';

// Staff: add with a name and a PIN, rename, re-PIN, disable; each
// member's counter activity per day; and the counter's link with its QR for the shop's tablet.
// Writes go through src/staff/service.ts, as the seed file's do; a taken PIN comes back on the field.

/** The staff schema's and service's messages (shared with the seed file, in English) as the admin reads them. */
const SERVICE_MESSAGES: Readonly<Record<string, ConsoleKey | readonly [ConsoleKey, { max: number }]>> = {
  'Enter a name': 'console.staff.errName',
  [`At most ${STAFF_NAME_MAX} characters`]: ['console.staff.errNameLong', { max: STAFF_NAME_MAX }],
  'A PIN is 4 to 8 digits': 'console.staff.errPin',
  'Another staff member of this organisation has this PIN; choose another': 'console.staff.errPinTaken',
};

/** Valibot's and the service's messages as the form shows them: on their field, with a capital, in the admin's language. */
function capitalised(errors: FormErrors, lang: ConsoleLang): FormErrors {
  const up = (m: string) => m.charAt(0).toUpperCase() + m.slice(1);
  const out: FormErrors = { ...errors, fields: {} };
  for (const [name, message] of Object.entries(errors.fields)) out.fields[name] = up(message);
  if (errors.form) out.form = up(errors.form);
  return errorsInLang(out, lang, SERVICE_MESSAGES);
}

const NOTICE_KEYS: Record<string, ConsoleKey> = {
  added: 'console.staff.doneAdded',
  renamed: 'console.staff.doneRenamed',
  pin: 'console.staff.donePin',
  disabled: 'console.staff.doneDisabled',
  active: 'console.staff.doneActive',
};
const NOTICES: Record<string, (s: Staff, lang: ConsoleLang) => string> = Object.fromEntries(
  Object.entries(NOTICE_KEYS).map(([done, key]) => [done, (s: Staff, lang: ConsoleLang) => tConsole(lang, key, { name: s.name })]),
);

export function bindStaff(router: Router, deps: AppDeps): void {
  const timeZone = (ctx: Context) => readOrgSettings(deps.db, consoleOf(ctx).org.id).timeZone;
  const counterUrl = (orgId: string) => `${deps.config.publicUrl}/counter/${orgId}`;

  const listPage = async (ctx: Context, view: { form?: StaffForm; errors?: FormErrors }, status = 200) => {
    const c = consoleOf(ctx);
    const zone = timeZone(ctx);
    const url = counterUrl(c.org.id);
    const staff = listStaff(deps, c.org.id);
    const added = typeof ctx.query.added === 'string' ? staff.find((s) => s.id === ctx.query.added) : undefined;
    const pause = typeof ctx.query.pause === 'string' ? PAUSE_NOTICES[ctx.query.pause] : undefined;
    sendConsolePage(ctx, deps, c, {
      section: 'staff',
      title: tConsole(c.lang, 'console.nav.staff'),
      status,
      body: staffBody(c, {
        staff,
        activity: staffActivity(deps, c.namespace, zone),
        counterUrl: url,
        counterQr: await qrSvg(url, tConsole(c.lang, 'console.staff.qrAlt')),
        timeZone: zone,
        form: view.form ?? { name: '', pin: '' },
        errors: view.errors,
        notice: added ? NOTICES.added!(added, c.lang) : pause && tConsole(c.lang, pause),
        pauses: pausesPanel(c, pausedCounters(deps, c.org.id), zone),
      }),
    });
  };

  const memberPage = (ctx: Context, member: Staff, view: { name?: string; pin?: string; errors?: FormErrors }, status = 200) => {
    const c = consoleOf(ctx);
    const zone = timeZone(ctx);
    const done = typeof ctx.query.done === 'string' ? NOTICES[ctx.query.done] : undefined;
    sendConsolePage(ctx, deps, c, {
      section: 'staff',
      title: member.name,
      status,
      body: memberBody(c, {
        member,
        activity: staffActivity(deps, c.namespace, zone, { staffId: member.id }),
        timeZone: zone,
        nameValue: view.name ?? member.name,
        pinValue: view.pin ?? '',
        errors: view.errors,
        notice: done && status === 200 ? done(member, c.lang) : undefined,
      }),
    });
  };

  const member = (ctx: Context) => getStaff(deps, consoleOf(ctx).org.id, ctx.params.id!);
  const seeOther = (ctx: Context, path: string) => {
    ctx.status = 303;
    ctx.redirect(path);
  };

  router.get('/console/staff', (ctx) => listPage(ctx, {}));
  bindStaffExport(router, deps);
  bindCounterPauses(router, deps);

  router.post('/console/staff', async (ctx) => {
    const c = consoleOf(ctx);
    const posted = consoleForm(ctx);
    const form = { name: field(posted, 'name'), pin: field(posted, 'pin') };
    const parsed = parseForm(StaffInput, form);
    if (!parsed.ok) return listPage(ctx, { form, errors: capitalised(parsed.errors, consoleOf(ctx).lang) }, 400);
    let created: Staff;
    try {
      created = createStaff(deps, c.org.id, parsed.value);
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      return listPage(ctx, { form, errors: capitalised(formErrorsFrom(err, ['name', 'pin']), consoleOf(ctx).lang) }, err.status);
    }
    seeOther(ctx, `/console/staff?added=${created.id}`);
  });

  router.get('/console/staff/:id', (ctx) => memberPage(ctx, member(ctx), {}));

  /** One field's form on the member page: validate, write through the service, or show the refusal. */
  const oneField = (name: 'name' | 'pin', schema: typeof StaffName | typeof StaffPin, write: (orgId: string, id: string, value: string) => Staff, done: string) => {
    router.post(`/console/staff/:id/${name}`, (ctx) => {
      const c = consoleOf(ctx);
      const current = member(ctx);
      const typed = field(consoleForm(ctx), name);
      const parsed = parseForm(v.object({ [name]: schema }), { [name]: typed });
      const again = (errors: FormErrors, status: number) => memberPage(ctx, current, { [name]: typed, errors: capitalised(errors, consoleOf(ctx).lang) }, status);
      if (!parsed.ok) return again(parsed.errors, 400);
      try {
        write(c.org.id, current.id, (parsed.value as Record<string, string>)[name]!);
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
        return again(formErrorsFrom(err, [name]), err.status);
      }
      seeOther(ctx, `/console/staff/${current.id}?done=${done}`);
    });
  };
  oneField('name', StaffName, (orgId, id, value) => renameStaff(deps, orgId, id, value), 'renamed');
  oneField('pin', StaffPin, (orgId, id, value) => changeStaffPin(deps, orgId, id, value), 'pin');

  router.post('/console/staff/:id/status', (ctx) => {
    const current = member(ctx);
    const status = field(consoleForm(ctx), 'status');
    if (status !== 'active' && status !== 'disabled') throw new ApiError(400, 'VALIDATION_FAILED', { detail: 'status is active or disabled' });
    setStaffStatus(deps, consoleOf(ctx).org.id, current.id, status);
    seeOther(ctx, `/console/staff/${current.id}?done=${status}`);
  });
}
