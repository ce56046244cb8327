// A card's promotions page: what runs now, a day-by-day list of what runs next, every promotion
// with its state, and the form that adds or changes one. Templates only. Dates and hours are the
// shop's (its time zone), as the promotions service reads them.
import type { Card } from '../../cards/model';
import { formatNumber } from '../../i18n/format';
import { localeOf, type ConsoleLang } from '../../i18n/langs';
import { fromHundredths } from '../../lib/money';
import { hasEnded } from '../../promotions/active';
import { MAX_OPEN_PROMOTIONS, MULTIPLIER_SCALE, type Promotion } from '../../promotions/model';
import type { PromotionsOverview } from '../../promotions/service';
import { checkboxField, formError, inputField } from '../../web/fields';
import type { FormErrors } from '../../web/forms';
import { html, type Markup } from '../../web/html';
import type { ConsoleContext } from '../context';
import { csrfField } from '../layout';
import { consoleText } from '../message-markup';
import { choiceGroup, doneNotice } from '../widgets';
import type { PromotionForm } from './form';

/** The shop days the page lists ahead, today included. */
export const DAYS_AHEAD = 14;

export const promotionsPath = (cardId: string) => `/console/cards/${encodeURIComponent(cardId)}/promotions`;

/** What the card counts, for "+2 stamps": the `kind` of the catalogue's messages. */
export const unitWord = (card: Pick<Card, 'passType'>) => (card.passType === 'stamp_card' ? 'stamp' : 'point');

// Dates as the admin's language writes them ("14 May 2026", "14. Mai 2026"); calendar dates are
// the shop's days already, so they are formatted in UTC.
const dateFormats = new Map<string, Intl.DateTimeFormat>();
function dateFormat(lang: ConsoleLang, style: 'date' | 'day' | 'weekday'): Intl.DateTimeFormat {
  const key = `${lang} ${style}`;
  let f = dateFormats.get(key);
  if (!f) {
    const options: Intl.DateTimeFormatOptions =
      style === 'date' ? { day: 'numeric', month: 'short', year: 'numeric' } : style === 'day' ? { weekday: 'short', day: 'numeric', month: 'short' } : { weekday: 'long' };
    dateFormats.set(key, (f = new Intl.DateTimeFormat(localeOf(lang), { timeZone: 'UTC', ...options })));
  }
  return f;
}
const utcOf = (date: string) => {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return Date.UTC(y, m - 1, d);
};

/** A calendar date `YYYY-MM-DD` as "14 May 2026". */
const dateText = (lang: ConsoleLang, date: string) => dateFormat(lang, 'date').format(utcOf(date));
/** A calendar date as "Thu 14 May". */
const dayText = (lang: ConsoleLang, date: string) => dateFormat(lang, 'day').format(utcOf(date));
/** ISO weekday 1 (Monday) … 7 in words; 1 January 2024 was a Monday. */
const weekdayName = (lang: ConsoleLang, day: number) => dateFormat(lang, 'weekday').format(Date.UTC(2024, 0, day));

/** "×2", "×1.5", "+2 stamps per award": what the promotion does to an award. */
export function effectText(lang: ConsoleLang, card: Card, p: Promotion): string {
  if (p.kind === 'multiplier') return `×${formatNumber(lang, p.value / MULTIPLIER_SCALE)}`;
  return consoleText(lang)('console.promotions.effect', { count: fromHundredths(p.value), kind: unitWord(card) });
}

function effectLong(lang: ConsoleLang, card: Card, p: Promotion): string {
  if (p.kind === 'bonus') return effectText(lang, card, p);
  const factor = p.value / MULTIPLIER_SCALE;
  const named = factor === 2 ? 'double' : factor === 3 ? 'triple' : 'other';
  return consoleText(lang)('console.promotions.effectLong', { factor: formatNumber(lang, factor), named, kind: unitWord(card) });
}

const hoursText = (lang: ConsoleLang, p: Promotion) => (p.hours ? `${p.hours.from}–${p.hours.to}` : consoleText(lang)('console.promotions.allDay'));

/** "Tuesday, Thursday, 14:00–17:00" / "Every day, all day". */
export function whenText(lang: ConsoleLang, p: Promotion): string {
  const m = consoleText(lang);
  const days = p.weekdays === null || p.weekdays.length === 7 ? m('console.promotions.everyDay') : p.weekdays.map((d) => weekdayName(lang, d)).join(', ');
  return m('console.promotions.when', { days, hours: hoursText(lang, p) });
}

function stateBadge(lang: ConsoleLang, o: PromotionsOverview, p: Promotion): Markup {
  const m = consoleText(lang);
  if (o.running.some((r) => r.id === p.id)) return html`<span class="badge ok">${m('console.promotions.state.running')}</span>`;
  if (hasEnded(p, o.now.date)) return html`<span class="badge">${m('console.promotions.state.ended')}</span>`;
  if (p.startsOn > o.now.date) return html`<span class="badge warn">${m('console.promotions.state.starts', { day: dayText(lang, p.startsOn) })}</span>`;
  return html`<span class="badge warn">${m('console.promotions.state.scheduled')}</span>`;
}

function nowPanel(lang: ConsoleLang, o: PromotionsOverview): Markup {
  const m = consoleText(lang);
  return html`<section class="panel promo-now" aria-labelledby="now-heading">
  <h2 id="now-heading">${m('console.promotions.now')} <span class="muted small">${dayText(lang, o.now.date)}, ${o.now.time}</span></h2>
  ${
    o.running.length
      ? html`<ul class="promo-list">${o.running.map((p) => html`<li><strong>${p.name}</strong> <span class="promo-effect">${effectLong(lang, o.card, p)}</span> <span class="muted small">${p.hours ? m('console.promotions.until', { time: p.hours.to }) : m('console.promotions.allDay')}</span></li>`)}</ul>
  <p class="muted small">${m('console.promotions.nowNote', { several: o.running.length > 1 ? 'yes' : 'no' })}</p>`
      : html`<p class="muted">${m('console.promotions.noneRunning')}</p>`
  }
</section>`;
}

function calendar(lang: ConsoleLang, o: PromotionsOverview): Markup {
  const m = consoleText(lang);
  return html`<section class="panel" aria-labelledby="days-heading">
  <h2 id="days-heading">${m('console.promotions.nextDays', { days: DAYS_AHEAD })}</h2>
  <ol class="promo-days">
    ${o.days.map(
      (day, i) => html`<li${day.promotions.length ? '' : html` class="quiet"`}>
      <span class="promo-day">${dayText(lang, day.date)}${i === 0 ? html` <span class="badge">${m('console.promotions.today')}</span>` : ''}</span>
      ${
        day.promotions.length
          ? html`<ul class="promo-list">${day.promotions.map((p) => html`<li>${p.name} <span class="promo-effect">${effectText(lang, o.card, p)}</span> <span class="muted small">${hoursText(lang, p)}</span></li>`)}</ul>`
          : html`<span class="muted small">${m('console.promotions.noPromotion')}</span>`
      }
    </li>`,
    )}
  </ol>
</section>`;
}

function table(c: ConsoleContext, o: PromotionsOverview): Markup {
  const m = consoleText(c.lang);
  if (o.promotions.length === 0) return html`<p class="empty panel">${m('console.promotions.none', { live: c.livemode ? 'yes' : 'no' })}</p>`;
  return html`<div class="table-wrap"><table class="stack-narrow promo-table">
  <thead><tr><th scope="col">${m('console.promotions.col.promotion')}</th><th scope="col">${m('console.promotions.col.gives')}</th><th scope="col">${m('console.promotions.col.dates')}</th><th scope="col">${m('console.promotions.col.when')}</th><th scope="col">${m('console.promotions.col.state')}</th>${c.livemode ? html`<th scope="col"><span class="visually-hidden">${m('console.promotions.col.actions')}</span></th>` : ''}</tr></thead>
  <tbody>${o.promotions.map(
    (p) => html`<tr>
    <td data-label="${m('console.promotions.col.name')}"><strong>${p.name}</strong></td>
    <td data-label="${m('console.promotions.col.gives')}">${effectText(c.lang, o.card, p)}</td>
    <td data-label="${m('console.promotions.col.dates')}" class="nowrap">${p.startsOn === p.endsOn ? dateText(c.lang, p.startsOn) : `${dateText(c.lang, p.startsOn)} – ${dateText(c.lang, p.endsOn)}`}</td>
    <td data-label="${m('console.promotions.col.when')}">${whenText(c.lang, p)}</td>
    <td data-label="${m('console.promotions.col.state')}">${stateBadge(c.lang, o, p)}</td>
    ${c.livemode ? html`<td data-label=""><a href="${promotionsPath(o.card.id)}/${p.id}" aria-label="${m('console.promotions.editNamed', { name: p.name })}">${m('console.promotions.edit')}</a> · <a href="${promotionsPath(o.card.id)}/${p.id}/delete" aria-label="${m('console.promotions.deleteNamed', { name: p.name })}" class="danger-link">${m('console.promotions.delete')}</a></td>` : ''}
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
  const kind = unitWord(card);
  const m = consoleText(c.lang);
  return html`<form method="post" action="${action}" class="promo-form" novalidate data-promotion-form>
  ${csrfField(c)}
  ${formError(errors.form ?? (Object.keys(errors.fields).length ? m('console.promotions.nothingSaved') : undefined))}
  ${inputField({ name: 'name', label: m('console.promotions.name'), value: form.name, error: err('name'), required: true, maxlength: 100, hint: m('console.promotions.nameHint') })}
  ${choiceGroup({
    name: 'kind',
    legend: m('console.promotions.kind'),
    type: 'radio',
    choices: [
      { value: 'multiplier', label: m('console.promotions.kindMultiplier', { kind }), hint: m('console.promotions.kindMultiplierHint') },
      { value: 'bonus', label: m('console.promotions.kindBonus', { kind }), hint: m('console.promotions.kindBonusHint') },
    ],
    checked: [form.kind],
    ...(err('kind') ? { error: err('kind') } : {}),
  })}
  <div data-kind="multiplier">${inputField({ name: 'multiplier', label: m('console.promotions.multiplier'), value: form.multiplier, error: err('multiplier'), required: true, inputmode: 'decimal', autocomplete: 'off', hint: m('console.promotions.multiplierHint', { kind }) })}</div>
  <div data-kind="bonus">${inputField({ name: 'bonus', label: m('console.promotions.bonus', { kind }), value: form.bonus, error: err('bonus'), required: true, inputmode: 'numeric', autocomplete: 'off', hint: m('console.promotions.bonusHint') })}</div>
  <div class="row-fields">
    ${inputField({ name: 'startsAt', label: m('console.promotions.firstDay'), type: 'date', value: form.startsAt, error: err('startsAt'), required: true })}
    ${inputField({ name: 'endsAt', label: m('console.promotions.lastDay'), type: 'date', value: form.endsAt, error: err('endsAt'), required: true })}
  </div>
  <fieldset class="choices weekdays" id="f-weekdays"${err('weekdays') ? html` aria-invalid="true" aria-describedby="f-weekdays-hint f-weekdays-error"` : html` aria-describedby="f-weekdays-hint"`}>
    <legend>${m('console.promotions.weekdays')}</legend>
    <p class="hint muted small" id="f-weekdays-hint">${m('console.promotions.weekdaysHint')}</p>
    <div class="weekday-boxes">${[1, 2, 3, 4, 5, 6, 7].map((day) => checkboxField({ name: 'weekdays', id: `f-weekdays-${day}`, value: String(day), label: weekdayName(c.lang, day), checked: form.weekdays.includes(String(day)) }))}</div>
    ${err('weekdays') ? html`<p class="error" id="f-weekdays-error">${err('weekdays')}</p>` : ''}
  </fieldset>
  <div class="row-fields">
    ${inputField({ name: 'hoursFrom', label: m('console.promotions.from'), value: form.hoursFrom, error: err('hoursFrom'), inputmode: 'numeric', autocomplete: 'off', placeholder: '14:00' })}
    ${inputField({ name: 'hoursTo', label: m('console.promotions.until.label'), value: form.hoursTo, error: err('hoursTo'), inputmode: 'numeric', autocomplete: 'off', placeholder: '17:00' })}
  </div>
  <p class="hint muted small">${m('console.promotions.hoursHint')}</p>
  <div class="actions">
    <button type="submit">${view.editing ? m('console.promotions.saveChanges') : m('console.promotions.add')}</button>
    ${view.editing ? html`<a href="${promotionsPath(card.id)}">${m('console.promotions.cancel')}</a>` : ''}
  </div>
</form>`;
}

const NOTICES = {
  created: 'console.promotions.notice.created',
  saved: 'console.promotions.notice.saved',
  deleted: 'console.promotions.notice.deleted',
} as const;

function head(lang: ConsoleLang, card: Card, title: string): Markup {
  return html`<p class="crumbs small"><a href="/console/cards">${consoleText(lang)('console.promotions.crumbCards')}</a> › <a href="/console/cards/${card.id}">${card.name}</a></p>
<div class="page-head"><h1>${title}</h1></div>`;
}

/** The card's promotions page; `form` is the add form (live data only, while fewer than 10 have not ended). */
export function promotionsBody(c: ConsoleContext, o: PromotionsOverview, view: { form?: FormView; notice?: string }): Markup {
  const card = o.card;
  const m = consoleText(c.lang);
  const title = m('console.promotions.title', { card: card.name });
  if (card.passType === 'prepaid_card') {
    return html`${head(c.lang, card, title)}
<p class="empty panel">${m('console.promotions.prepaid')}</p>`;
  }
  const full = o.open >= MAX_OPEN_PROMOTIONS;
  const notice = view.notice && view.notice in NOTICES ? m(NOTICES[view.notice as keyof typeof NOTICES]) : undefined;
  return html`${head(c.lang, card, title)}
${doneNotice(notice)}
<p class="muted small">${m('console.promotions.intro', { kind: unitWord(card), zone: o.timeZone.replace(/_/g, ' ') })}</p>
${c.livemode ? '' : html`<div class="notice warn" role="note"><p>${m('console.promotions.testData')}</p></div>`}
<div class="grid promo-grid">
${nowPanel(c.lang, o)}
${calendar(c.lang, o)}
</div>
<section class="promo-all" aria-labelledby="all-heading">
  <h2 id="all-heading">${m('console.promotions.all')} <span class="muted small">${m('console.promotions.openCount', { open: o.open, max: MAX_OPEN_PROMOTIONS })}</span></h2>
  ${table(c, o)}
</section>
${
  c.livemode && view.form
    ? html`<section class="panel" id="add" aria-labelledby="add-heading">
  <h2 id="add-heading">${m('console.promotions.addHeading')}</h2>
  ${full && !view.form.errors.form ? html`<p>${m('console.promotions.full', { max: MAX_OPEN_PROMOTIONS })}</p>` : promotionForm(c, card, view.form)}
</section>`
    : ''
}`;
}

export function editBody(c: ConsoleContext, card: Card, view: FormView & { editing: Promotion }): Markup {
  const m = consoleText(c.lang);
  return html`${head(c.lang, card, m('console.promotions.changeTitle', { name: view.editing.name }))}
<section class="panel">${promotionForm(c, card, view)}</section>
<p><a href="${promotionsPath(card.id)}/${view.editing.id}/delete" class="danger-link">${m('console.promotions.deleteThis')}</a></p>`;
}

export function deleteBody(c: ConsoleContext, card: Card, p: Promotion): Markup {
  const m = consoleText(c.lang);
  return html`${head(c.lang, card, m('console.promotions.deleteTitle', { name: p.name }))}
<section class="panel confirm">
  <p><strong>${m('console.promotions.deleteQuestion', { name: p.name, effect: effectText(c.lang, card, p), when: whenText(c.lang, p) })}</strong> ${m('console.promotions.deleteText')}</p>
  <form method="post" action="${promotionsPath(card.id)}/${p.id}/delete" class="actions">
    ${csrfField(c)}
    <button type="submit" class="danger">${m('console.promotions.deleteButton')}</button>
    <a class="button secondary" href="${promotionsPath(card.id)}">${m('console.promotions.cancel')}</a>
  </form>
</section>`;
}
