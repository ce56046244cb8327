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
import { field, formErrorsFrom, noErrors, parseForm, type FormErrors } from '../../web/forms';
import { consoleForm, consoleOf } from '../context';
import { sendConsolePage } from '../layout';
import { memberBody, staffBody, type StaffForm } from './views';
import { bindStaffExport } from './export';
import { bindCounterPauses, PAUSE_NOTICES, pausesPanel } from './pauses';
import { pausedCounters } from '../../counter/unlock';

// Staff (decisions §8): add with a name and a PIN, rename, re-PIN, disable; each
// member's counter activity per day; and the counter's link with its QR for the shop's tablet.
// Writes go through src/staff/service.ts, as the seed file's do; a taken PIN comes back on the field.

/** Valibot's and the service's messages as the form shows them: on their field, with a capital. */
function capitalised(errors: FormErrors): FormErrors {
  const up = (m: string) => m.charAt(0).toUpperCase() + m.slice(1);
  const out = noErrors();
  for (const [name, message] of Object.entries(errors.fields)) out.fields[name] = up(message);
  if (errors.form) out.form = up(errors.form);
  return out;
}

const NOTICES: Record<string, (s: Staff) => string> = {
  added: (s) => `${s.name} is added. They can unlock the counter with their PIN now.`,
  renamed: (s) => `Renamed to ${s.name}.`,
  pin: (s) => `${s.name}'s PIN is changed; the old one no longer works.`,
  disabled: (s) => `${s.name} is disabled and can no longer unlock the counter.`,
  active: (s) => `${s.name} is enabled and can unlock the counter again.`,
};

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
      title: 'Staff',
      status,
      body: staffBody(c, {
        staff,
        activity: staffActivity(deps, c.namespace, zone),
        counterUrl: url,
        counterQr: await qrSvg(url, 'QR code of the counter link'),
        timeZone: zone,
        form: view.form ?? { name: '', pin: '' },
        errors: view.errors,
        notice: added ? NOTICES.added!(added) : pause,
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
        notice: done && status === 200 ? done(member) : undefined,
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
    if (!parsed.ok) return listPage(ctx, { form, errors: capitalised(parsed.errors) }, 400);
    let created: Staff;
    try {
      created = createStaff(deps, c.org.id, parsed.value);
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      return listPage(ctx, { form, errors: capitalised(formErrorsFrom(err, ['name', 'pin'])) }, err.status);
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
      const again = (errors: FormErrors, status: number) => memberPage(ctx, current, { [name]: typed, errors: capitalised(errors) }, status);
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
