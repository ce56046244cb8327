import { fromHundredths } from '../../lib/money';
import type { Staff } from '../../staff/model';
import { STAFF_NAME_MAX } from '../../staff/model';
import { ACTIVITY_DAYS, UNITS, type StaffDay, type Tally, type Unit } from '../../staff/activity';
import { html, raw, type Markup } from '../../web/html';
import { formError, inputField } from '../../web/fields';
import type { FormErrors } from '../../web/forms';
import { qrAddressNote } from '../public-address';
import type { ConsoleContext } from '../context';
import { csrfField } from '../layout';
import { doneNotice, when } from '../widgets';
import { formatNumber } from '../../i18n/format';
import type { ConsoleLang } from '../../i18n/langs';
import { tConsole, type ConsoleKey, type MessageParams } from '../../i18n/translate';

export interface StaffForm {
  name: string;
  pin: string;
}

type Say = (key: ConsoleKey, params?: MessageParams) => string;
const sayer = (c: ConsoleContext): Say => (key, params) => tConsole(c.lang, key, params);

/** 5 stamps, 12.5 points, 20.00 credit (20,00 Guthaben): each unit apart, credit with its cents. */
function amount(lang: ConsoleLang, unit: Unit, hundredths: number, signed: boolean): string {
  const units = Math.abs(fromHundredths(hundredths));
  const sign = signed ? (hundredths < 0 ? '−' : '+') : hundredths < 0 ? '−' : '';
  const text =
    unit === 'credit'
      ? tConsole(lang, 'console.dashboard.credit', { amount: formatNumber(lang, units, { decimals: 2, fixed: true }) })
      : tConsole(lang, 'console.format.units', { unit, count: units });
  return `${sign}${text}`;
}

function tallyCell(lang: ConsoleLang, tally: Tally, noun: ConsoleKey, signed = false): Markup {
  if (tally.count === 0) return html`<span class="muted">—</span>`;
  const amounts = UNITS.filter((u) => tally.amounts[u] !== undefined).map((u) => amount(lang, u, tally.amounts[u]!, signed));
  return html`<span class="tally-count">${tConsole(lang, noun, { n: tally.count })}</span> <span class="tally-amounts">${amounts.join(' · ')}</span>`;
}

/**
 * A PIN typed masked, as at the counter, so a customer at the till does not read it off the
 * screen; console.js shows a "Show PIN" button to check what was typed (pin-toggle.ts).
 * autocomplete=new-password keeps browsers from offering the admin's own saved password.
 */
function pinField(say: Say, o: { name: string; label: string; value: string; error?: string; hint: string }): Markup {
  return html`<div class="pin-field">${inputField({ ...o, type: 'password', required: true, inputmode: 'numeric', autocomplete: 'new-password', maxlength: 8 })}
  <button type="button" class="secondary small-button" data-show-pin="f-${o.name}" aria-pressed="false" hidden>${say('console.staff.showPin')}</button></div>`;
}

function activityTable(c: ConsoleContext, days: StaffDay[], options: { withName: boolean; emptyText: string }): Markup {
  const say = sayer(c);
  if (days.length === 0) return html`<p class="empty panel">${options.emptyText}</p>`;
  return html`<div class="table-wrap"><table class="activity stack-narrow">
  <thead><tr><th scope="col">${say('console.dashboard.day')}</th>${options.withName ? html`<th scope="col">${say('console.dashboard.staffMember')}</th>` : ''}<th scope="col">${say('console.staff.awarded')}</th><th scope="col">${say('console.staff.redeemed')}</th><th scope="col">${say('console.staff.corrected')}</th></tr></thead>
  <tbody>${days.map(
    (d) => html`<tr>
  <td class="nowrap" data-label="${say('console.dashboard.day')}">${d.date}</td>
  ${options.withName ? html`<td data-label="${say('console.dashboard.staffMember')}"><a href="/console/staff/${d.staffId}">${d.staffName}</a></td>` : ''}
  <td data-label="${say('console.staff.awarded')}"><span>${tallyCell(c.lang, d.awarded, 'console.staff.awards')}</span></td>
  <td data-label="${say('console.staff.redeemed')}"><span>${tallyCell(c.lang, d.redeemed, 'console.staff.redemptions')}</span></td>
  <td data-label="${say('console.staff.corrected')}"><span>${tallyCell(c.lang, d.corrected, 'console.staff.corrections', true)}</span></td>
</tr>`,
  )}</tbody>
</table></div>`;
}

function activityIntro(c: ConsoleContext, timeZone: string): Markup {
  return html`<p class="muted small">${tConsole(c.lang, 'console.staff.activityIntro', { timeZone: timeZone.replace(/_/g, ' '), mode: c.livemode ? 'live' : 'test' })}</p>`;
}

const statusBadge = (c: ConsoleContext, s: Staff) =>
  s.status === 'active' ? html`<span class="badge ok">${tConsole(c.lang, 'console.webhooks.active')}</span>` : html`<span class="badge">${tConsole(c.lang, 'console.webhooks.disabled')}</span>`;
const activityHeading = (c: ConsoleContext) => tConsole(c.lang, 'console.staff.activityTitle', { mode: c.livemode ? 'live' : 'test', days: ACTIVITY_DAYS });

export interface StaffPageView {
  staff: Staff[];
  activity: StaffDay[];
  counterUrl: string;
  counterQr: string;
  timeZone: string;
  form: StaffForm;
  errors?: FormErrors;
  notice?: string;
  /** Counters paused after wrong PINs, with the buttons that lift a pause. */
  pauses?: Markup;
}

export function staffBody(c: ConsoleContext, view: StaffPageView): Markup {
  const say = sayer(c);
  const errors = view.errors ?? { fields: {} };
  return html`<div class="page-head"><h1>${say('console.nav.staff')}</h1></div>
<p class="muted">${say('console.staff.intro')}</p>
${doneNotice(view.notice)}
${formError(errors.form)}
${view.pauses ?? ''}
<section class="panel counter-link" aria-labelledby="counter-heading">
  <div class="counter-qr">${raw(view.counterQr)}</div>
  <div>
    <h2 id="counter-heading">${say('console.staff.counterTitle')}</h2>
    <p>${say('console.staff.counterOpen')}</p>
    <p class="url-cell"><a href="${view.counterUrl}">${view.counterUrl}</a></p>
    <p class="small muted">${say('console.staff.counterScan')}</p>
    ${qrAddressNote(view.counterUrl, c.lang)}
  </div>
</section>
<section class="staff-list" aria-labelledby="staff-heading">
  <h2 id="staff-heading">${say('console.staff.members')}</h2>
  ${
    view.staff.length === 0
      ? html`<p class="empty panel">${say('console.staff.none')}</p>`
      : html`<div class="table-wrap"><table>
  <thead><tr><th scope="col">${say('console.staff.name')}</th><th scope="col">${say('console.keys.status')}</th><th scope="col" class="hide-narrow">${say('console.admins.addedAt')}</th><th scope="col">${say('console.admins.actions')}</th></tr></thead>
  <tbody>${view.staff.map(
    (s) => html`<tr><td><strong>${s.name}</strong></td><td>${statusBadge(c, s)}</td><td class="nowrap hide-narrow">${when(s.createdAt, view.timeZone, {}, c.lang)}</td>
  <td><a href="/console/staff/${s.id}" aria-label="${say('console.staff.manageWho', { name: s.name })}">${say('console.staff.manage')}</a></td></tr>`,
  )}</tbody>
</table></div>`
  }
</section>
<form method="post" action="/console/staff" class="form panel" novalidate>
  ${csrfField(c)}
  <h2>${say('console.staff.addTitle')}</h2>
  ${inputField({ name: 'name', label: say('console.staff.name'), value: view.form.name, error: errors.fields.name, required: true, maxlength: STAFF_NAME_MAX, autocomplete: 'off', hint: say('console.staff.nameHint') })}
  ${pinField(say, { name: 'pin', label: 'PIN', value: view.form.pin, error: errors.fields.pin, hint: say('console.staff.pinHint') })}
  <div class="actions"><button type="submit">${say('console.staff.add')}</button></div>
</form>
<section aria-labelledby="activity-heading">
  <h2 id="activity-heading">${activityHeading(c)}</h2>
  ${activityIntro(c, view.timeZone)}
  ${view.activity.length ? html`<p><a class="button secondary" href="/console/staff/activity.csv" download>${say('console.staff.csv')}</a></p>` : ''}
  ${activityTable(c, view.activity, { withName: true, emptyText: say('console.staff.nobody', { mode: c.livemode ? 'live' : 'test', days: ACTIVITY_DAYS }) })}
</section>`;
}

export interface MemberView {
  member: Staff;
  activity: StaffDay[];
  timeZone: string;
  nameValue: string;
  pinValue: string;
  errors?: FormErrors;
  notice?: string;
}

export function memberBody(c: ConsoleContext, view: MemberView): Markup {
  const say = sayer(c);
  const { member } = view;
  const errors = view.errors ?? { fields: {} };
  const active = member.status === 'active';
  return html`<p class="small"><a href="/console/staff">← ${say('console.nav.staff')}</a></p>
<div class="page-head"><h1>${member.name} ${statusBadge(c, member)}</h1></div>
${doneNotice(view.notice)}
${formError(errors.form)}
<div class="grid">
<form method="post" action="/console/staff/${member.id}/name" class="form panel" novalidate>
  ${csrfField(c)}
  <h2>${say('console.staff.name')}</h2>
  ${inputField({ name: 'name', label: say('console.staff.name'), value: view.nameValue, error: errors.fields.name, required: true, maxlength: STAFF_NAME_MAX, autocomplete: 'off' })}
  <div class="actions"><button type="submit">${say('console.staff.rename')}</button></div>
</form>
<form method="post" action="/console/staff/${member.id}/pin" class="form panel" novalidate>
  ${csrfField(c)}
  <h2>PIN</h2>
  ${pinField(say, { name: 'pin', label: say('console.staff.newPin'), value: view.pinValue, error: errors.fields.pin, hint: say('console.staff.newPinHint') })}
  <div class="actions"><button type="submit">${say('console.staff.changePin')}</button></div>
</form>
<section class="panel" aria-labelledby="access-heading">
  <h2 id="access-heading">${say('console.staff.access')}</h2>
  <p>${say(active ? 'console.staff.canUnlock' : 'console.staff.cannotUnlock', { name: member.name })}</p>
  <form method="post" action="/console/staff/${member.id}/status" class="actions">
    ${csrfField(c)}<input type="hidden" name="status" value="${active ? 'disabled' : 'active'}">
    <button type="submit" class="${active ? 'danger' : 'secondary'}">${say(active ? 'console.staff.disable' : 'console.staff.enable', { name: member.name })}</button>
  </form>
  ${active ? html`<p class="small muted">${say('console.staff.disableHint')}</p>` : ''}
</section>
</div>
<section aria-labelledby="activity-heading">
  <h2 id="activity-heading">${activityHeading(c)}</h2>
  ${activityIntro(c, view.timeZone)}
  ${activityTable(c, view.activity, { withName: false, emptyText: say('console.staff.memberNobody', { name: member.name, mode: c.livemode ? 'live' : 'test', days: ACTIVITY_DAYS }) })}
</section>`;
}
