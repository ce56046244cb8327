// A card's promotions page: what runs now, a day-by-day list of what runs next, every promotion
// with its state, and the form that adds or changes one. Templates only. Dates and hours are the
// shop's (its time zone), as the promotions service reads them.
import { PASS_TYPE_NAMES, type Card } from '../../cards/model';
import { fromHundredths } from '../../lib/money';
import { hasEnded } from '../../promotions/active';
import { MAX_OPEN_PROMOTIONS, MULTIPLIER_SCALE, type Promotion } from '../../promotions/model';
import type { PromotionsOverview } from '../../promotions/service';
import { checkboxField, formError, inputField } from '../../web/fields';
import type { FormErrors } from '../../web/forms';
import { html, type Markup } from '../../web/html';
import type { ConsoleContext } from '../context';
import { formatDate, formatDay } from '../format';
import { csrfField } from '../layout';
import { choiceGroup, doneNotice } from '../widgets';
import type { PromotionForm } from './form';

/** The shop days the page lists ahead, today included. */
export const DAYS_AHEAD = 14;

export const promotionsPath = (cardId: string) => `/console/cards/${encodeURIComponent(cardId)}/promotions`;

const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

/** What the card counts, for "+2 stamps". */
export const unitWord = (card: Pick<Card, 'passType'>) => (card.passType === 'stamp_card' ? 'stamps' : 'points');

/** A calendar date `YYYY-MM-DD` as "14 May 2026". */
const dateText = (date: string) => {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return formatDate(Date.UTC(y, m - 1, d), 'UTC');
};

/** "×2", "×1.5", "+2 stamps": what the promotion does to an award. */
export function effectText(card: Card, p: Promotion): string {
  if (p.kind === 'multiplier') return `×${p.value / MULTIPLIER_SCALE}`;
  const n = fromHundredths(p.value);
  return `+${n} ${n === 1 ? unitWord(card).slice(0, -1) : unitWord(card)} per award`;
}

function effectLong(card: Card, p: Promotion): string {
  if (p.kind === 'bonus') return effectText(card, p);
  const factor = p.value / MULTIPLIER_SCALE;
  const named: Record<number, string> = { 2: 'double', 3: 'triple' };
  return `×${factor}${named[factor] ? ` (${named[factor]} ${unitWord(card)})` : ` ${unitWord(card)}`}`;
}

/** "Tuesdays and Thursdays, 14:00–17:00" / "Every day, all day". */
export function whenText(p: Promotion): string {
  const days = p.weekdays === null || p.weekdays.length === 7 ? 'Every day' : p.weekdays.map((d) => WEEKDAYS[d - 1]).join(', ');
  const hours = p.hours ? `${p.hours.from}–${p.hours.to}` : 'all day';
  return `${days}, ${hours}`;
}

const hoursText = (p: Promotion) => (p.hours ? `${p.hours.from}–${p.hours.to}` : 'all day');

function stateBadge(o: PromotionsOverview, p: Promotion): Markup {
  if (o.running.some((r) => r.id === p.id)) return html`<span class="badge ok">Running now</span>`;
  if (hasEnded(p, o.now.date)) return html`<span class="badge">Ended</span>`;
  if (p.startsOn > o.now.date) return html`<span class="badge warn">Starts ${formatDay(p.startsOn)}</span>`;
  return html`<span class="badge warn">Scheduled</span>`;
}

function nowPanel(o: PromotionsOverview): Markup {
  return html`<section class="panel promo-now" aria-labelledby="now-heading">
  <h2 id="now-heading">Now <span class="muted small">${formatDay(o.now.date)}, ${o.now.time}</span></h2>
  ${
    o.running.length
      ? html`<ul class="promo-list">${o.running.map((p) => html`<li><strong>${p.name}</strong> <span class="promo-effect">${effectLong(o.card, p)}</span> <span class="muted small">${p.hours ? `until ${p.hours.to}` : 'all day'}</span></li>`)}</ul>
  <p class="muted small">Every award made now at the counter or through your till gets this${o.running.length > 1 ? ' (multipliers multiply, extras add)' : ''}.</p>`
      : html`<p class="muted">No promotion is running now.</p>`
  }
</section>`;
}

function calendar(o: PromotionsOverview): Markup {
  return html`<section class="panel" aria-labelledby="days-heading">
  <h2 id="days-heading">The next ${DAYS_AHEAD} days</h2>
  <ol class="promo-days">
    ${o.days.map(
      (day, i) => html`<li${day.promotions.length ? '' : html` class="quiet"`}>
      <span class="promo-day">${formatDay(day.date)}${i === 0 ? html` <span class="badge">Today</span>` : ''}</span>
      ${
        day.promotions.length
          ? html`<ul class="promo-list">${day.promotions.map((p) => html`<li>${p.name} <span class="promo-effect">${effectText(o.card, p)}</span> <span class="muted small">${hoursText(p)}</span></li>`)}</ul>`
          : html`<span class="muted small">No promotion</span>`
      }
    </li>`,
    )}
  </ol>
</section>`;
}

function table(c: ConsoleContext, o: PromotionsOverview): Markup {
  if (o.promotions.length === 0) return html`<p class="empty panel">No promotions yet.${c.livemode ? ' Add the first one below.' : ''}</p>`;
  return html`<div class="table-wrap"><table class="stack-narrow promo-table">
  <thead><tr><th scope="col">Promotion</th><th scope="col">Gives</th><th scope="col">Dates</th><th scope="col">When</th><th scope="col">State</th>${c.livemode ? html`<th scope="col"><span class="visually-hidden">Actions</span></th>` : ''}</tr></thead>
  <tbody>${o.promotions.map(
    (p) => html`<tr>
    <td data-label="Name"><strong>${p.name}</strong></td>
    <td data-label="Gives">${effectText(o.card, p)}</td>
    <td data-label="Dates" class="nowrap">${p.startsOn === p.endsOn ? dateText(p.startsOn) : `${dateText(p.startsOn)} – ${dateText(p.endsOn)}`}</td>
    <td data-label="When">${whenText(p)}</td>
    <td data-label="State">${stateBadge(o, p)}</td>
    ${c.livemode ? html`<td data-label=""><a href="${promotionsPath(o.card.id)}/${p.id}" aria-label="Edit ${p.name}">Edit</a> · <a href="${promotionsPath(o.card.id)}/${p.id}/delete" aria-label="Delete ${p.name}" class="danger-link">Delete</a></td>` : ''}
  </tr>`,
  )}</tbody>
</table></div>`;
}

export interface FormView {
  form: PromotionForm;
  errors: FormErrors;
  /** The promotion being changed; none: a new one. */
  editing?: Promotion;
}

/** The add/change form: every control with its visible label; the script shows the number of the kind chosen. */
export function promotionForm(c: ConsoleContext, card: Card, view: FormView): Markup {
  const { form, errors } = view;
  const err = (name: string) => errors.fields[name];
  const action = view.editing ? `${promotionsPath(card.id)}/${view.editing.id}` : promotionsPath(card.id);
  const units = unitWord(card);
  return html`<form method="post" action="${action}" class="promo-form" novalidate data-promotion-form>
  ${csrfField(c)}
  ${formError(errors.form ?? (Object.keys(errors.fields).length ? 'Nothing was saved: please correct the fields marked below.' : undefined))}
  ${inputField({ name: 'name', label: 'Name', value: form.name, error: err('name'), required: true, maxlength: 100, hint: 'Staff see it at the counter, e.g. "Double stamps on Tuesday afternoons".' })}
  ${choiceGroup({
    name: 'kind',
    legend: 'What it gives',
    type: 'radio',
    choices: [
      { value: 'multiplier', label: `Multiplies the ${units} of each award`, hint: 'e.g. double' },
      { value: 'bonus', label: `Adds extra ${units} to each award`, hint: 'e.g. two more per visit' },
    ],
    checked: [form.kind],
    ...(err('kind') ? { error: err('kind') } : {}),
  })}
  <div data-kind="multiplier">${inputField({ name: 'multiplier', label: 'Multiply by', value: form.multiplier, error: err('multiplier'), required: true, inputmode: 'decimal', autocomplete: 'off', hint: '1.1 to 10: 2 is double, 1.5 half as much again. The extra is rounded down to whole ' + units + '.' })}</div>
  <div data-kind="bonus">${inputField({ name: 'bonus', label: `Extra ${units} per award`, value: form.bonus, error: err('bonus'), required: true, inputmode: 'numeric', autocomplete: 'off', hint: 'A whole number, e.g. 2.' })}</div>
  <div class="row-fields">
    ${inputField({ name: 'startsAt', label: 'First day', type: 'date', value: form.startsAt, error: err('startsAt'), required: true })}
    ${inputField({ name: 'endsAt', label: 'Last day', type: 'date', value: form.endsAt, error: err('endsAt'), required: true })}
  </div>
  <fieldset class="choices weekdays" id="f-weekdays"${err('weekdays') ? html` aria-invalid="true" aria-describedby="f-weekdays-hint f-weekdays-error"` : html` aria-describedby="f-weekdays-hint"`}>
    <legend>Days of the week</legend>
    <p class="hint muted small" id="f-weekdays-hint">None ticked: every day.</p>
    <div class="weekday-boxes">${WEEKDAYS.map((day, i) => checkboxField({ name: 'weekdays', id: `f-weekdays-${i + 1}`, value: String(i + 1), label: day, checked: form.weekdays.includes(String(i + 1)) }))}</div>
    ${err('weekdays') ? html`<p class="error" id="f-weekdays-error">${err('weekdays')}</p>` : ''}
  </fieldset>
  <div class="row-fields">
    ${inputField({ name: 'hoursFrom', label: 'From', value: form.hoursFrom, error: err('hoursFrom'), inputmode: 'numeric', autocomplete: 'off', placeholder: '14:00' })}
    ${inputField({ name: 'hoursTo', label: 'Until', value: form.hoursTo, error: err('hoursTo'), inputmode: 'numeric', autocomplete: 'off', placeholder: '17:00' })}
  </div>
  <p class="hint muted small">Times of day as 14:00, both empty for all day; until 24:00 is midnight. A window cannot run past midnight: make 22:00–02:00 two promotions.</p>
  <div class="actions">
    <button type="submit">${view.editing ? 'Save changes' : 'Add promotion'}</button>
    ${view.editing ? html`<a href="${promotionsPath(card.id)}">Cancel</a>` : ''}
  </div>
</form>`;
}

const NOTICES: Record<string, string> = {
  created: 'Promotion added. Awards get it on its days and hours.',
  saved: 'Promotion saved.',
  deleted: 'Promotion deleted. Awards made from now on no longer get it; earlier ones keep what they got.',
};

function head(card: Card, title: string): Markup {
  return html`<p class="crumbs small"><a href="/console/cards">Cards</a> › <a href="/console/cards/${card.id}">${card.name}</a></p>
<div class="page-head"><h1>${title}</h1></div>`;
}

/** The card's promotions page; `form` is the add form (live data only, while fewer than 10 have not ended). */
export function promotionsBody(c: ConsoleContext, o: PromotionsOverview, view: { form?: FormView; notice?: string }): Markup {
  const card = o.card;
  if (card.passType === 'prepaid_card') {
    return html`${head(card, `Promotions · ${card.name}`)}
<p class="empty panel">A ${PASS_TYPE_NAMES[card.passType]} has no promotions: store credit is money, which no promotion multiplies.</p>`;
  }
  const full = o.open >= MAX_OPEN_PROMOTIONS;
  return html`${head(card, `Promotions · ${card.name}`)}
${doneNotice(view.notice ? NOTICES[view.notice] : undefined)}
<p class="muted small">Extra ${unitWord(card)} on the days and hours you choose, for every award at the counter and through your till (not for corrections, redemptions or imports). Days and times are your shop's: ${o.timeZone.replace(/_/g, ' ')} (Settings). Promotions belong to the card: they run for live and test customers alike.</p>
${c.livemode ? '' : html`<div class="notice warn" role="note"><p>You are looking at test data, but promotions run for your real customers too. Switch to live data to add, change or delete one.</p></div>`}
<div class="grid promo-grid">
${nowPanel(o)}
${calendar(o)}
</div>
<section class="promo-all" aria-labelledby="all-heading">
  <h2 id="all-heading">All promotions <span class="muted small">${o.open} of ${MAX_OPEN_PROMOTIONS} not ended</span></h2>
  ${table(c, o)}
</section>
${
  c.livemode && view.form
    ? html`<section class="panel" id="add" aria-labelledby="add-heading">
  <h2 id="add-heading">Add a promotion</h2>
  ${full && !view.form.errors.form ? html`<p>This card has ${MAX_OPEN_PROMOTIONS} promotions that have not ended, the most it can have: delete one, or wait until one has ended, to add another.</p>` : promotionForm(c, card, view.form)}
</section>`
    : ''
}`;
}

export function editBody(c: ConsoleContext, card: Card, view: FormView & { editing: Promotion }): Markup {
  return html`${head(card, `Change ${view.editing.name}`)}
<section class="panel">${promotionForm(c, card, view)}</section>
<p><a href="${promotionsPath(card.id)}/${view.editing.id}/delete" class="danger-link">Delete this promotion</a></p>`;
}

export function deleteBody(c: ConsoleContext, card: Card, p: Promotion): Markup {
  return html`${head(card, `Delete ${p.name}?`)}
<section class="panel confirm">
  <p><strong>Delete the promotion ${p.name} (${effectText(card, p)}, ${whenText(p)})?</strong> Awards made from now on no longer get it; earlier awards keep what they got.</p>
  <form method="post" action="${promotionsPath(card.id)}/${p.id}/delete" class="actions">
    ${csrfField(c)}
    <button type="submit" class="danger">Delete promotion</button>
    <a class="button secondary" href="${promotionsPath(card.id)}">Cancel</a>
  </form>
</section>`;
}
