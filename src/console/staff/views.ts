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

export interface StaffForm {
  name: string;
  pin: string;
}

const UNIT_WORDS: Record<Unit, [string, string]> = { stamps: ['stamp', 'stamps'], points: ['point', 'points'], credit: ['credit', 'credit'] };

/** 5 stamps, 12.5 points, 20.00 credit: each unit apart, credit with its cents. */
function amount(unit: Unit, hundredths: number, signed: boolean): string {
  const units = fromHundredths(hundredths);
  const number = unit === 'credit' ? Math.abs(units).toFixed(2) : String(Math.abs(units));
  const sign = signed ? (hundredths < 0 ? '−' : '+') : hundredths < 0 ? '−' : '';
  return `${sign}${number} ${UNIT_WORDS[unit][Math.abs(hundredths) === 100 && unit !== 'credit' ? 0 : 1]}`;
}

function tallyCell(tally: Tally, noun: [string, string], signed = false): Markup {
  if (tally.count === 0) return html`<span class="muted">—</span>`;
  const amounts = UNITS.filter((u) => tally.amounts[u] !== undefined).map((u) => amount(u, tally.amounts[u]!, signed));
  return html`<span class="tally-count">${tally.count} ${noun[tally.count === 1 ? 0 : 1]}</span> <span class="tally-amounts">${amounts.join(' · ')}</span>`;
}

/**
 * A PIN typed masked, as at the counter, so a customer at the till does not read it off the
 * screen; console.js shows a "Show PIN" button to check what was typed (pin-toggle.ts).
 * autocomplete=new-password keeps browsers from offering the admin's own saved password.
 */
function pinField(o: { name: string; label: string; value: string; error?: string; hint: string }): Markup {
  return html`<div class="pin-field">${inputField({ ...o, type: 'password', required: true, inputmode: 'numeric', autocomplete: 'new-password', maxlength: 8 })}
  <button type="button" class="secondary small-button" data-show-pin="f-${o.name}" aria-pressed="false" hidden>Show PIN</button></div>`;
}

const PIN_HINT = '4 to 8 digits, different from every other staff member’s. Tell it to them in person.';

function activityTable(days: StaffDay[], options: { withName: boolean; emptyText: string }): Markup {
  if (days.length === 0) return html`<p class="empty panel">${options.emptyText}</p>`;
  return html`<div class="table-wrap"><table class="activity stack-narrow">
  <thead><tr><th scope="col">Day</th>${options.withName ? html`<th scope="col">Staff member</th>` : ''}<th scope="col">Awarded</th><th scope="col">Redeemed</th><th scope="col">Corrected</th></tr></thead>
  <tbody>${days.map(
    (d) => html`<tr>
  <td class="nowrap" data-label="Day">${d.date}</td>
  ${options.withName ? html`<td data-label="Staff"><a href="/console/staff/${d.staffId}">${d.staffName}</a></td>` : ''}
  <td data-label="Awarded"><span>${tallyCell(d.awarded, ['award', 'awards'])}</span></td>
  <td data-label="Redeemed"><span>${tallyCell(d.redeemed, ['redemption', 'redemptions'])}</span></td>
  <td data-label="Corrected"><span>${tallyCell(d.corrected, ['correction', 'corrections'], true)}</span></td>
</tr>`,
  )}</tbody>
</table></div>`;
}

function activityIntro(c: ConsoleContext, timeZone: string): Markup {
  return html`<p class="muted small">What was awarded and redeemed at the counter per day of your shop (${timeZone.replace(/_/g, ' ')}), from the ledger${c.livemode ? '' : ' of the test sandbox'}. Stamps, points and credit are counted apart. An entry undone at the counter counts nowhere, as on the dashboard.</p>`;
}

const statusBadge = (s: Staff) => (s.status === 'active' ? html`<span class="badge ok">Active</span>` : html`<span class="badge">Disabled</span>`);
const testWord = (c: ConsoleContext) => (c.livemode ? '' : 'Test data: ');

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
  const errors = view.errors ?? { fields: {} };
  return html`<div class="page-head"><h1>Staff</h1></div>
<p class="muted">Staff use the counter only: they unlock it with their own PIN, and everything they award or redeem is recorded under their name.</p>
${doneNotice(view.notice)}
${formError(errors.form)}
${view.pauses ?? ''}
<section class="panel counter-link" aria-labelledby="counter-heading">
  <div class="counter-qr">${raw(view.counterQr)}</div>
  <div>
    <h2 id="counter-heading">The counter</h2>
    <p>Open this on the shop's tablet; staff unlock it with their PIN.</p>
    <p class="url-cell"><a href="${view.counterUrl}">${view.counterUrl}</a></p>
    <p class="small muted">Scan the QR code with the tablet's camera to open the link, then add it to the home screen.</p>
    ${qrAddressNote(view.counterUrl)}
  </div>
</section>
<section class="staff-list" aria-labelledby="staff-heading">
  <h2 id="staff-heading">Staff members</h2>
  ${
    view.staff.length === 0
      ? html`<p class="empty panel">No staff yet. Add the first member below.</p>`
      : html`<div class="table-wrap"><table>
  <thead><tr><th scope="col">Name</th><th scope="col">Status</th><th scope="col" class="hide-narrow">Added</th><th scope="col">Actions</th></tr></thead>
  <tbody>${view.staff.map(
    (s) => html`<tr><td><strong>${s.name}</strong></td><td>${statusBadge(s)}</td><td class="nowrap hide-narrow">${when(s.createdAt, view.timeZone)}</td>
  <td><a href="/console/staff/${s.id}" aria-label="Manage ${s.name}">Manage</a></td></tr>`,
  )}</tbody>
</table></div>`
  }
</section>
<form method="post" action="/console/staff" class="form panel" novalidate>
  ${csrfField(c)}
  <h2>Add a staff member</h2>
  ${inputField({ name: 'name', label: 'Name', value: view.form.name, error: errors.fields.name, required: true, maxlength: STAFF_NAME_MAX, autocomplete: 'off', hint: 'As the dashboard and the ledger show it, e.g. "Sam".' })}
  ${pinField({ name: 'pin', label: 'PIN', value: view.form.pin, error: errors.fields.pin, hint: PIN_HINT })}
  <div class="actions"><button type="submit">Add staff member</button></div>
</form>
<section aria-labelledby="activity-heading">
  <h2 id="activity-heading">${testWord(c)}Counter activity, last ${ACTIVITY_DAYS} days</h2>
  ${activityIntro(c, view.timeZone)}
  ${view.activity.length ? html`<p><a class="button secondary" href="/console/staff/activity.csv" download>Download CSV</a></p>` : ''}
  ${activityTable(view.activity, { withName: true, emptyText: `Nobody has used the counter${c.livemode ? '' : ' in test mode'} in the last ${ACTIVITY_DAYS} days.` })}
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
  const { member } = view;
  const errors = view.errors ?? { fields: {} };
  const active = member.status === 'active';
  return html`<p class="small"><a href="/console/staff">← Staff</a></p>
<div class="page-head"><h1>${member.name} ${statusBadge(member)}</h1></div>
${doneNotice(view.notice)}
${formError(errors.form)}
<div class="grid">
<form method="post" action="/console/staff/${member.id}/name" class="form panel" novalidate>
  ${csrfField(c)}
  <h2>Name</h2>
  ${inputField({ name: 'name', label: 'Name', value: view.nameValue, error: errors.fields.name, required: true, maxlength: STAFF_NAME_MAX, autocomplete: 'off' })}
  <div class="actions"><button type="submit">Rename</button></div>
</form>
<form method="post" action="/console/staff/${member.id}/pin" class="form panel" novalidate>
  ${csrfField(c)}
  <h2>PIN</h2>
  ${pinField({ name: 'pin', label: 'New PIN', value: view.pinValue, error: errors.fields.pin, hint: `${PIN_HINT} The old PIN stops working at once.` })}
  <div class="actions"><button type="submit">Change PIN</button></div>
</form>
<section class="panel" aria-labelledby="access-heading">
  <h2 id="access-heading">Access</h2>
  <p>${active ? `${member.name} can unlock the counter.` : `${member.name} cannot unlock the counter; what they did stays in the ledger.`}</p>
  <form method="post" action="/console/staff/${member.id}/status" class="actions">
    ${csrfField(c)}<input type="hidden" name="status" value="${active ? 'disabled' : 'active'}">
    <button type="submit" class="${active ? 'danger' : 'secondary'}">${active ? 'Disable' : 'Enable'} ${member.name}</button>
  </form>
  ${active ? html`<p class="small muted">Disabling also ends a counter session they have open.</p>` : ''}
</section>
</div>
<section aria-labelledby="activity-heading">
  <h2 id="activity-heading">${testWord(c)}Counter activity, last ${ACTIVITY_DAYS} days</h2>
  ${activityIntro(c, view.timeZone)}
  ${activityTable(view.activity, { withName: false, emptyText: `${member.name} has not used the counter${c.livemode ? '' : ' in test mode'} in the last ${ACTIVITY_DAYS} days.` })}
</section>`;
}
