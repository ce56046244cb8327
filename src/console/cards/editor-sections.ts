// The card editor's sections, one per part of a program. Each control has a visible label; a row
// (a level, an item, a question, an option) is a group named after it ("Level 2"), so its short
// labels ("Name", "Starts at") read — and are found — within it. Rows are added and removed with
// submit buttons that re-render the form as typed: no JavaScript needed.
import { DEFAULT_FLAG_AWARDS_PER_DAY, DEFAULT_REMIND_DAYS, MAX_REWARDS, PASS_TYPE_NAMES, PASS_TYPES, QUESTION_TYPES, SIGNUP_FIELD_MODES } from '../../cards/model';
import { parseColor, readColor } from '../../lib/colors';
import { contrastRatio, MIN_TEXT_CONTRAST, ratioText } from '../../lib/contrast';
import { DEFAULT_PASS_COLORS } from '../../wallet/apple/pass-builder';
import { checkboxField, inputField, selectField } from '../../web/fields';
import type { FormErrors } from '../../web/forms';
import { html, type Markup } from '../../web/html';
import type { CardForm, QuestionRow } from './form';
import { MAX_ROWS } from './form';
import { fillKeys } from './question-keys';

export interface SectionContext {
  form: CardForm;
  errors: FormErrors;
  /** The form's own URL: row buttons post there and come back to their section. */
  action: string;
  /** The type cannot change (the card has customers): why, for the owner. */
  typeLock?: string;
  /** The id of the control to focus after a row was added or removed (the owner's place). */
  focus?: string;
  /** Question keys, and choice values per key, customers may have answered with: shown, not changed. */
  locked?: { keys: ReadonlySet<string>; values: ReadonlyMap<string, ReadonlySet<string>> };
}

/** The id fields.ts gives the input of `name`. */
export const inputId = (name: string) => `f-${name.replace(/[^A-Za-z0-9_-]/g, '-')}`;
const focusOn = (s: SectionContext, name: string) => s.focus === inputId(name);

const err = (s: SectionContext, name: string) => s.errors.fields[name];

/** A section holding a message must be open, or the owner never sees it. */
const anyError = (s: SectionContext, ...prefixes: string[]) => Object.keys(s.errors.fields).some((name) => prefixes.some((p) => name === p || name.startsWith(`${p}.`) || name.startsWith(`${p}[`)));

/** A message about a whole group (a list, a row), announced with the group. */
const groupError = (s: SectionContext, name: string) => {
  const message = err(s, name);
  return message ? html`<p class="error" role="alert" id="f-${name.replace(/[^A-Za-z0-9_-]/g, '-')}-error">${message}</p>` : '';
};

/** The id of the button that adds a row to a list (`add:questions` → add-questions); the focus after a removal. */
export const addButtonId = (action: string) => action.replace(/[^A-Za-z0-9]+/g, '-');

function rowButton(s: SectionContext, action: string, anchor: string, label: Markup | string, extra = 'secondary'): Markup {
  const id = action.startsWith('add') ? addButtonId(action) : undefined;
  return html`<button type="submit" name="_action" value="${action}" formaction="${s.action}#${anchor}" formnovalidate class="${extra}" data-row-action${id ? html` id="${id}"` : ''}${id && s.focus === id ? html` autofocus` : ''}>${label}</button>`;
}

/** "Remove level", "Remove choice", "Remove question": each says what it removes, and which one to a screen reader. */
const removeButton = (s: SectionContext, action: string, anchor: string, noun: string, which: string) =>
  rowButton(s, action, anchor, html`Remove ${noun}<span class="visually-hidden"> ${which}</span>`, 'link danger-link');

const TYPE_HINTS: Record<string, string> = {
  stamp_card: 'A stamp per visit or item; the reward after a number of stamps.',
  point_card: 'Points per purchase or amount spent; the reward for a number of points.',
  level_card: 'Points lift the customer through levels such as Bronze, Silver and Gold.',
  prepaid_card: 'Store credit the customer tops up and spends, in cents.',
};

// Labels name no unit (stamps, points, credit): the type can change while the form is open.
const AMOUNT_HINT = 'Whole stamps or points; store credit (prepaid cards) takes up to 2 decimals.';

export function basicsSection(s: SectionContext): Markup {
  const { form } = s;
  const typeOptions = PASS_TYPES.map((t) => ({ value: t, label: PASS_TYPE_NAMES[t].replace(/^./, (c) => c.toUpperCase()) }));
  return html`<fieldset id="basics"><legend>Card</legend>
  ${inputField({ name: 'name', label: 'Card name', value: form.name, error: err(s, 'name'), required: true, maxlength: 100, hint: 'Shown on every pass, e.g. "Coffee stamps".' })}
  ${
    s.typeLock
      ? html`<input type="hidden" name="passType" value="${form.passType}">
  <div class="field"><label for="f-passType">Card type</label>
    <select id="f-passType" disabled aria-describedby="f-passType-hint${err(s, 'passType') ? ' f-passType-error' : ''}">${typeOptions.map((o) => html`<option value="${o.value}"${o.value === form.passType ? html` selected` : ''}>${o.label}</option>`)}</select>
    <span class="hint" id="f-passType-hint">${s.typeLock}</span>
    ${err(s, 'passType') ? html`<span class="error" id="f-passType-error">${err(s, 'passType')}</span>` : ''}
  </div>`
      : selectField({ name: 'passType', label: 'Card type', value: form.passType, error: err(s, 'passType'), required: true, options: typeOptions, hint: TYPE_HINTS[form.passType] ?? 'What the card counts.' })
  }
</fieldset>`;
}

const takesRewards = (passType: string) => passType === 'stamp_card' || passType === 'point_card';

export function rewardsSection(s: SectionContext): Markup {
  const { form } = s;
  const typed = form.rewards.some((r) => r.name || r.cost || r.description);
  const open = takesRewards(form.passType) || typed || anyError(s, 'rewards');
  return html`<details id="rewards" class="section"${open ? html` open` : ''}><summary>Rewards <span class="muted small">stamp and point cards</span></summary>
  <p class="hint">What customers get for their stamps or points, up to ${MAX_REWARDS}. They are saved from the cheapest up; the cheapest is the default, the one redeemed when nobody picks another.</p>
  ${groupError(s, 'rewards')}
  ${form.rewards.map((reward, i) => {
    const at = `rewards[${i}]`;
    return html`<fieldset class="row-group" aria-labelledby="reward-${i}-legend">
    <legend id="reward-${i}-legend">Reward ${i + 1}</legend>
    ${groupError(s, at)}${groupError(s, `${at}.id`)}
    ${reward.id ? html`<input type="hidden" name="${at}.id" value="${reward.id}">` : ''}
    <div class="row-fields">
      ${inputField({ name: `${at}.name`, label: 'Name', value: reward.name, error: err(s, `${at}.name`), required: true, maxlength: 100, hint: i === 0 ? 'e.g. "Free coffee".' : undefined, autofocus: focusOn(s, `${at}.name`) })}
      ${inputField({ name: `${at}.cost`, label: 'Cost', value: reward.cost, error: err(s, `${at}.cost`), required: true, inputmode: 'numeric', hint: i === 0 ? 'Stamps or points it takes: a whole number.' : undefined })}
    </div>
    ${inputField({ name: `${at}.description`, label: 'Description', value: reward.description, error: err(s, `${at}.description`), maxlength: 300, hint: i === 0 ? 'Shown with the reward, e.g. "Any size, any milk".' : undefined })}
    ${removeButton(s, `remove:rewards:${i}`, 'rewards', 'reward', `${i + 1}`)}
  </fieldset>`;
  })}
  ${form.rewards.length < MAX_REWARDS ? rowButton(s, 'add:rewards', 'rewards', 'Add a reward') : html`<p class="hint">A card lists at most ${MAX_REWARDS} rewards.</p>`}
</details>`;
}

const EXPIRY_RULES = [
  { value: 'months', label: 'A number of months after each award (point and level cards)' },
  { value: 'inactiveDays', label: 'After a number of days without a new award' },
];

/**
 * When stamps and points expire. Both numbers are on the page (the script shows the one of the
 * rule chosen); only the chosen rule's number is read.
 */
export function expirySection(s: SectionContext): Markup {
  const { form } = s;
  const e = form.expiry;
  const open = e.rule !== '' || anyError(s, 'expiry');
  return html`<details id="expiry" class="section"${open ? html` open` : ''}><summary>Expiry <span class="muted small">optional; not for prepaid cards</span></summary>
  <p class="hint">Never retroactive: what customers were given before you switch expiry on never expires, and a change applies to awards given after it. Redemptions use the oldest stamps or points first.</p>
  ${groupError(s, 'expiry')}
  ${selectField({ name: 'expiry.rule', label: 'Stamps and points expire', value: e.rule, required: true, options: [{ value: '', label: 'Never' }, ...EXPIRY_RULES] })}
  <div data-expiry-rule="months">${inputField({ name: 'expiry.months', label: 'Months after each award', value: e.months, error: err(s, 'expiry.months'), required: true, inputmode: 'numeric', hint: 'Each award expires at the end of the day this many months later, e.g. 12.' })}</div>
  <div data-expiry-rule="inactiveDays">${inputField({ name: 'expiry.inactiveDays', label: 'Days without an award', value: e.inactiveDays, error: err(s, 'expiry.inactiveDays'), required: true, inputmode: 'numeric', hint: 'The whole balance expires when a customer was given nothing for this many days, e.g. 365.' })}</div>
  <div data-expiry-rule="months inactiveDays">${inputField({ name: 'expiry.remindDays', label: 'Remind this many days before', value: e.remindDays, error: err(s, 'expiry.remindDays'), inputmode: 'numeric', placeholder: String(DEFAULT_REMIND_DAYS), hint: `The pass shows what expires when, and customers who agreed get an email. 0: no reminder; empty: ${DEFAULT_REMIND_DAYS}.` })}</div>
</details>`;
}

/** The card's date questions as the form stands, keys as saving will make them: the birthday's choices. */
export function dateQuestions(form: CardForm): { key: string; label: string }[] {
  return fillKeys(form.questions).filter((q) => q.type === 'date' && q.key !== '').map((q) => ({ key: q.key, label: q.label.trim() || q.key }));
}

export function birthdaySection(s: SectionContext): Markup {
  const { form } = s;
  const b = form.birthday;
  const choices = dateQuestions(form).map((q) => ({ value: q.key, label: q.label }));
  // A question chosen before and since removed or changed stays chosen, so saving says so instead of switching the treat off.
  if (b.questionKey && !choices.some((c) => c.value.toLowerCase() === b.questionKey.toLowerCase())) choices.push({ value: b.questionKey, label: `${b.questionKey} (not a date question of this card)` });
  const open = b.questionKey !== '' || anyError(s, 'birthday');
  return html`<details id="birthday" class="section"${open ? html` open` : ''}><summary>Birthday treat <span class="muted small">optional; not for prepaid cards</span></summary>
  <p class="hint">Given once a year on the customer's birthday (29 February counts on 28 February). A birthday entered or changed in the 30 days before it earns nothing that year, so a treat cannot be had by changing the date.</p>
  ${groupError(s, 'birthday')}
  ${selectField({ name: 'birthday.questionKey', label: 'Birthday question', value: b.questionKey, error: err(s, 'birthday.questionKey'), placeholder: 'No birthday treat', options: choices, hint: choices.length ? 'The sign-up question whose answer is the birthday.' : 'Add a question with the answer type Date (e.g. "Birthday") under Questions, then choose it here.' })}
  ${inputField({ name: 'birthday.units', label: 'Stamps or points given', value: b.units, error: err(s, 'birthday.units'), required: true, inputmode: 'numeric', hint: 'A whole number, e.g. 2.' })}
</details>`;
}

/** The watch list's threshold and the value of a unit for the monthly report. */
export function watchSection(s: SectionContext): Markup {
  const { form } = s;
  const open = form.flagAwardsPerDay !== '' || form.unitValue !== '' || anyError(s, 'flagAwardsPerDay', 'unitValue');
  return html`<details id="watch" class="section"${open ? html` open` : ''}><summary>Watch list and report <span class="muted small">optional</span></summary>
  ${inputField({ name: 'flagAwardsPerDay', label: 'Watch a customer given more awards in one day than', value: form.flagAwardsPerDay, error: err(s, 'flagAwardsPerDay'), inputmode: 'numeric', placeholder: String(DEFAULT_FLAG_AWARDS_PER_DAY), hint: `Such customers are listed on the Watch list with each award, to check; nothing is blocked. Empty: ${DEFAULT_FLAG_AWARDS_PER_DAY}.` })}
  ${inputField({ name: 'unitValue', label: 'Value of one stamp or point', value: form.unitValue, error: err(s, 'unitValue'), inputmode: 'decimal', hint: 'In your currency, e.g. 0.30 when 10 stamps buy a 3.00 coffee. The monthly report then shows what customers\' balances are worth. Not for prepaid cards.' })}
</details>`;
}

export function levelsSection(s: SectionContext): Markup {
  const { form } = s;
  const open = form.passType === 'level_card' || form.levels.length > 0 || anyError(s, 'levels');
  return html`<details id="levels" class="section"${open ? html` open` : ''}><summary>Levels <span class="muted small">level cards</span></summary>
  <p class="hint">From the lowest: the first starts at 0 points, each next one higher. Without levels a level card has one, "Member".</p>
  ${groupError(s, 'levels')}
  ${form.levels.map((level, i) => {
    const at = `levels[${i}]`;
    return html`<fieldset class="row-group" aria-labelledby="level-${i}-legend">
    <legend id="level-${i}-legend">Level ${i + 1}</legend>
    <div class="row-fields">
      ${inputField({ name: `${at}.name`, label: 'Name', value: level.name, error: err(s, `${at}.name`), required: true, maxlength: 50, autofocus: focusOn(s, `${at}.name`) })}
      ${inputField({ name: `${at}.minPoints`, label: 'Starts at (points)', value: level.minPoints, error: err(s, `${at}.minPoints`), required: true, inputmode: 'numeric' })}
    </div>
    ${removeButton(s, `remove:levels:${i}`, 'levels', 'level', `${i + 1}`)}
  </fieldset>`;
  })}
  ${form.levels.length < MAX_ROWS ? rowButton(s, 'add:levels', 'levels', 'Add a level') : ''}
</details>`;
}

export function earningSection(s: SectionContext): Markup {
  const { form } = s;
  const open = !!(form.spend.currency || form.spend.rate || form.items.length) || anyError(s, 'accrual');
  return html`<details id="earning" class="section"${open ? html` open` : ''}><summary>Earning <span class="muted small">by amount spent or by item</span></summary>
  <p class="hint">${AMOUNT_HINT} Used when your till or app reports a purchase by its amount or its items instead of a number of stamps or points. An item code is the item's name as your till sends it, e.g. latte.</p>
  ${groupError(s, 'accrual')}${groupError(s, 'accrual.spend')}
  <div class="row-fields">
    ${inputField({ name: 'accrual.spend.currency', label: 'Currency', value: form.spend.currency, error: err(s, 'accrual.spend.currency'), maxlength: 3, hint: 'Three letters, e.g. EUR.', autocomplete: 'off' })}
    ${inputField({ name: 'accrual.spend.rate', label: 'Earned per 1 spent', value: form.spend.rate, error: err(s, 'accrual.spend.rate'), inputmode: 'decimal', hint: 'e.g. 0.1 for one per 10 spent.' })}
  </div>
  <h3 class="small-heading">Items</h3>
  ${groupError(s, 'accrual.items')}
  ${form.items.map((item, i) => {
    const at = `accrual.items[${i}]`;
    return html`<fieldset class="row-group" aria-labelledby="item-${i}-legend">
    <legend id="item-${i}-legend">Item ${i + 1}</legend>
    <div class="row-fields">
      ${inputField({ name: `${at}.key`, label: 'Item code', value: item.key, error: err(s, `${at}.key`), required: true, maxlength: 64, autocomplete: 'off', autofocus: focusOn(s, `${at}.key`) })}
      ${inputField({ name: `${at}.units`, label: 'Earns', value: item.units, error: err(s, `${at}.units`), required: true, inputmode: 'decimal' })}
    </div>
    ${removeButton(s, `remove:items:${i}`, 'earning', 'item', `${i + 1}`)}
  </fieldset>`;
  })}
  ${form.items.length < MAX_ROWS ? rowButton(s, 'add:items', 'earning', 'Add an item') : ''}
</details>`;
}

export function limitsSection(s: SectionContext): Markup {
  const { form } = s;
  const l = form.limits;
  const open = !!(l.waitSeconds || l.maxPerAward || l.period || l.maxPerPeriod) || anyError(s, 'earningLimits');
  return html`<details id="limits" class="section"${open ? html` open` : ''}><summary>Earning limits <span class="muted small">optional</span></summary>
  <p class="hint">${AMOUNT_HINT}</p>
  ${groupError(s, 'earningLimits')}
  ${inputField({ name: 'earningLimits.waitSeconds', label: 'Wait between awards (seconds)', value: l.waitSeconds, error: err(s, 'earningLimits.waitSeconds'), inputmode: 'numeric', hint: 'e.g. 3600: one award per customer per hour.' })}
  ${inputField({ name: 'earningLimits.maxPerAward', label: 'Most in one award', value: l.maxPerAward, error: err(s, 'earningLimits.maxPerAward'), inputmode: 'decimal' })}
  <div class="row-fields">
    ${selectField({ name: 'earningLimits.period', label: 'Period', value: l.period, error: err(s, 'earningLimits.period'), placeholder: 'No period limit', options: [{ value: 'day', label: 'Per day' }, { value: 'week', label: 'Per week' }, { value: 'month', label: 'Per month' }] })}
    ${inputField({ name: 'earningLimits.maxPerPeriod', label: 'Most per period', value: l.maxPerPeriod, error: err(s, 'earningLimits.maxPerPeriod'), inputmode: 'decimal' })}
  </div>
</details>`;
}

const MODE_LABELS: Record<string, string> = { required: 'Required', optional: 'Optional', off: 'Not asked' };

export function signupSection(s: SectionContext): Markup {
  const { form } = s;
  const modes = SIGNUP_FIELD_MODES.map((m) => ({ value: m, label: MODE_LABELS[m]! }));
  return html`<details id="signup" class="section"${form.dataCollectionEnabled || anyError(s, 'signupFields', 'dataCollectionEnabled') ? html` open` : ''}><summary>Sign-up form <span class="muted small">data collection</span></summary>
  ${checkboxField({ name: 'dataCollectionEnabled', label: 'Customers can join with the sign-up form and give their details', checked: form.dataCollectionEnabled, error: err(s, 'dataCollectionEnabled') })}
  ${groupError(s, 'signupFields')}
  <div class="row-fields three">
    ${selectField({ name: 'signupFields.name', label: 'Name', value: form.signupFields.name, error: err(s, 'signupFields.name'), required: true, options: modes })}
    ${selectField({ name: 'signupFields.email', label: 'Email', value: form.signupFields.email, error: err(s, 'signupFields.email'), required: true, options: modes })}
    ${selectField({ name: 'signupFields.phone', label: 'Phone', value: form.signupFields.phone, error: err(s, 'signupFields.phone'), required: true, options: modes })}
  </div>
</details>`;
}

const QUESTION_TYPE_LABELS: Record<string, string> = { text: 'Text', number: 'Number', email: 'Email', phone: 'Phone', select: 'Choice from a list', date: 'Date', checkbox: 'Yes / no' };

function questionGroup(s: SectionContext, q: QuestionRow, i: number): Markup {
  const at = `questions[${i}]`;
  const showOptions = q.type === 'select' || q.options.length > 0 || !!err(s, `${at}.options`);
  const keyLocked = q.key !== '' && (s.locked?.keys.has(q.key) ?? false);
  const lockedValues = s.locked?.values.get(q.key);
  const advancedError = !!err(s, `${at}.key`) || q.options.some((_, j) => !!err(s, `${at}.options[${j}].value`));
  return html`<fieldset class="row-group question" id="question-${i}" aria-labelledby="question-${i}-legend">
  <legend id="question-${i}-legend">Question ${i + 1}</legend>
  ${groupError(s, at)}
  ${inputField({ name: `${at}.label`, label: 'Question', value: q.label, error: err(s, `${at}.label`), required: true, maxlength: 200, hint: 'As customers read it, e.g. “Favourite drink”.', autofocus: focusOn(s, `${at}.label`) })}
  ${selectField({ name: `${at}.type`, label: 'Answer type', value: q.type, error: err(s, `${at}.type`), required: true, options: QUESTION_TYPES.map((t) => ({ value: t, label: QUESTION_TYPE_LABELS[t]! })) })}
  <div class="row-fields">
    ${checkboxField({ name: `${at}.required`, label: 'Answer required', checked: q.required, error: err(s, `${at}.required`) })}
    ${checkboxField({ name: `${at}.isIdentifier`, label: 'Identifies the customer', checked: q.isIdentifier, error: err(s, `${at}.isIdentifier`) })}
  </div>
  ${
    showOptions
      ? html`<div class="options" aria-label="Choices of question ${i + 1}" role="group">
    <p class="small-heading">Choices</p>
    ${groupError(s, `${at}.options`)}
    ${q.options.map((o, j) => {
      const ot = `${at}.options[${j}]`;
      return html`<fieldset class="row-group option" aria-labelledby="q${i}-o${j}-legend">
      <legend id="q${i}-o${j}-legend">Choice ${j + 1}</legend>
      ${inputField({ name: `${ot}.label`, label: 'Answer', value: o.label, error: err(s, `${ot}.label`), required: true, maxlength: 200, autofocus: focusOn(s, `${ot}.label`) })}
      ${removeButton(s, `remove-option:${i}:${j}`, `question-${i}`, 'choice', `${j + 1} of question ${i + 1}`)}
    </fieldset>`;
    })}
  </div>`
      : ''
  }
  ${q.options.length < MAX_ROWS ? html`<span data-choices-of="${at}.type">${rowButton(s, `add-option:${i}`, `question-${i}`, html`Add a choice<span class="visually-hidden"> to question ${i + 1}</span>`)}</span>` : ''}
  <details class="advanced"${advancedError ? html` open` : ''}><summary>Advanced: names in the API<span class="visually-hidden"> for question ${i + 1}</span></summary>
    <p class="hint">For integrations. Made from the question and its choices when the card is saved, then kept as they are, since answers are stored under them.</p>
    ${inputField({
      name: `${at}.key`,
      label: 'Key',
      value: q.key,
      error: err(s, `${at}.key`),
      maxlength: 64,
      autocomplete: 'off',
      readonly: keyLocked,
      placeholder: q.key ? undefined : 'made from the question',
      hint: keyLocked ? 'The card has customers, who may have answered under this key: it stays.' : undefined,
    })}
    ${q.options.map((o, j) => {
      const ot = `${at}.options[${j}]`;
      const locked = o.value !== '' && (lockedValues?.has(o.value) ?? false);
      return inputField({ name: `${ot}.value`, label: `Choice ${j + 1} stored as`, value: o.value, error: err(s, `${ot}.value`), maxlength: 200, autocomplete: 'off', readonly: locked, placeholder: o.value ? undefined : 'made from the answer' });
    })}
  </details>
  <div class="row">${removeButton(s, `remove:questions:${i}`, 'questions', 'question', `${i + 1}`)}</div>
</fieldset>`;
}

export function questionsSection(s: SectionContext): Markup {
  const { form } = s;
  return html`<details id="questions" class="section"${form.questions.length || anyError(s, 'questions') ? html` open` : ''}><summary>Questions <span class="muted small">asked at sign-up</span></summary>
  <p class="hint">Extra questions for the sign-up form, e.g. a birthday or a favourite drink: write the question, pick the kind of answer, and for a choice list write its choices. At most one question identifies the customer: it must be required, and text, number, email or phone.</p>
  ${groupError(s, 'questions')}
  ${form.questions.map((q, i) => questionGroup(s, q, i))}
  ${form.questions.length < MAX_ROWS ? rowButton(s, 'add:questions', 'questions', 'Add a question') : ''}
</details>`;
}

/**
 * Text that does not stand out from its background (below 4.5 : 1, WCAG's level for normal text)
 * is hard to read on a phone in a bright shop. Said, not refused: the owner may know better. The
 * console's script keeps it up to date while colours are typed (card-editor.ts).
 */
function contrastWarning(form: CardForm): Markup {
  const colour = (text: string, fallback: string) => readColor(text)?.rgb ?? parseColor(fallback).rgb;
  const ratio = contrastRatio(colour(form.design.backgroundColor, DEFAULT_PASS_COLORS.background), colour(form.design.foregroundColor, DEFAULT_PASS_COLORS.foreground));
  const low = ratio < MIN_TEXT_CONTRAST;
  return html`<p class="notice warn contrast-warning" id="contrast-warning" role="status" data-min-contrast="${MIN_TEXT_CONTRAST}"${low ? '' : html` hidden`}>
  <strong>The text is hard to read on this background</strong> (contrast <span data-contrast-ratio>${ratioText(ratio)}</span>; at least 4.5 : 1 reads well). Pick a darker or a lighter colour for one of them.</p>`;
}

export function designSection(s: SectionContext): Markup {
  const { form } = s;
  // The placeholder is the colour an empty field gives the pass.
  const colour = (name: 'backgroundColor' | 'foregroundColor' | 'labelColor', label: string, hint: string, fallback: string) =>
    inputField({ name: `design.${name}`, label, value: form.design[name], error: err(s, `design.${name}`), hint, placeholder: parseColor(fallback).hex, autocomplete: 'off' });
  return html`<details id="design" class="section" open><summary>Pass design</summary>
  ${groupError(s, 'design')}
  <div class="row-fields three colours">
    ${colour('backgroundColor', 'Background', 'The whole pass.', DEFAULT_PASS_COLORS.background)}
    ${colour('foregroundColor', 'Text', 'Balance and values.', DEFAULT_PASS_COLORS.foreground)}
    ${colour('labelColor', 'Labels', 'Small captions.', DEFAULT_PASS_COLORS.label)}
  </div>
  <p class="hint">Colours as #rrggbb, #rgb or rgb(r, g, b); an empty field keeps the colour shown in grey.</p>
  ${contrastWarning(form)}
  ${inputField({ name: 'design.logoText', label: 'Logo text', value: form.design.logoText, error: err(s, 'design.logoText'), maxlength: 60, hint: 'Beside the logo on the pass; the card name when empty (Apple Wallet).' })}
</details>`;
}
