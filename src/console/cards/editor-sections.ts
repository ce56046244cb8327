// The card editor's sections, one per part of a program. Each control has a visible label; a row
// (a level, an item, a question, an option) is a group named after it ("Level 2"), so its short
// labels ("Name", "Starts at") read — and are found — within it. Rows are added and removed with
// submit buttons that re-render the form as typed: no JavaScript needed.
import { DEFAULT_FLAG_AWARDS_PER_DAY, DEFAULT_REMIND_DAYS, MAX_REWARDS, PASS_TYPES, QUESTION_TYPES, SIGNUP_FIELD_MODES } from '../../cards/model';
import { parseColor, readColor } from '../../lib/colors';
import { contrastRatio, MIN_TEXT_CONTRAST, ratioText } from '../../lib/contrast';
import { DEFAULT_PASS_COLORS } from '../../wallet/apple/pass-builder';
import { checkboxField, inputField, selectField } from '../../web/fields';
import type { FormErrors } from '../../web/forms';
import type { ConsoleLang } from '../../i18n/langs';
import type { ConsoleKey, MessageParams } from '../../i18n/translate';
import { tConsole } from '../../i18n/translate';
import { html, type Markup } from '../../web/html';
import type { CardForm, QuestionRow } from './form';
import { MAX_ROWS } from './form';
import { fillKeys } from './question-keys';
import { messageWith } from '../message-markup';

export interface SectionContext {
  /** The admin's console language. */
  lang: ConsoleLang;
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

/** A console message in the section's language. */
const m = (s: SectionContext, key: ConsoleKey, params?: MessageParams) => tConsole(s.lang, key, params);

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
const removeButton = (s: SectionContext, action: string, anchor: string, what: 'reward' | 'level' | 'item' | 'question' | 'choice', n: number, q?: number) =>
  rowButton(s, action, anchor, html`${m(s, 'console.cardEditor.remove', { what })}<span class="visually-hidden"> ${m(s, 'console.cardEditor.removeWhich', { what, n, q: q ?? '' })}</span>`, 'link danger-link');

// Labels name no unit (stamps, points, credit): the type can change while the form is open.
const amountHint = (s: SectionContext) => m(s, 'console.cardEditor.amountHint');

export function basicsSection(s: SectionContext): Markup {
  const { form } = s;
  const typeOptions = PASS_TYPES.map((t) => ({ value: t, label: m(s, 'console.cards.typeName', { type: t }) }));
  return html`<fieldset id="basics"><legend>${m(s, 'console.cardEditor.basics.legend')}</legend>
  ${inputField({ name: 'name', label: m(s, 'console.cardEditor.basics.name'), value: form.name, error: err(s, 'name'), required: true, maxlength: 100, hint: m(s, 'console.cardEditor.basics.nameHint') })}
  ${
    s.typeLock
      ? html`<input type="hidden" name="passType" value="${form.passType}">
  <div class="field"><label for="f-passType">${m(s, 'console.cardEditor.basics.type')}</label>
    <select id="f-passType" disabled aria-describedby="f-passType-hint${err(s, 'passType') ? ' f-passType-error' : ''}">${typeOptions.map((o) => html`<option value="${o.value}"${o.value === form.passType ? html` selected` : ''}>${o.label}</option>`)}</select>
    <span class="hint" id="f-passType-hint">${s.typeLock}</span>
    ${err(s, 'passType') ? html`<span class="error" id="f-passType-error">${err(s, 'passType')}</span>` : ''}
  </div>`
      : selectField({ name: 'passType', label: m(s, 'console.cardEditor.basics.type'), value: form.passType, error: err(s, 'passType'), required: true, options: typeOptions, hint: m(s, 'console.cardEditor.typeHint', { type: form.passType }) })
  }
</fieldset>`;
}

const takesRewards = (passType: string) => passType === 'stamp_card' || passType === 'point_card';

export function rewardsSection(s: SectionContext): Markup {
  const { form } = s;
  const typed = form.rewards.some((r) => r.name || r.cost || r.description);
  const open = takesRewards(form.passType) || typed || anyError(s, 'rewards');
  return html`<details id="rewards" class="section"${open ? html` open` : ''}><summary>${m(s, 'console.cardEditor.rewards.summary')} <span class="muted small">${m(s, 'console.cardEditor.rewards.for')}</span></summary>
  <p class="hint">${m(s, 'console.cardEditor.rewards.hint', { max: MAX_REWARDS })}</p>
  ${groupError(s, 'rewards')}
  ${form.rewards.map((reward, i) => {
    const at = `rewards[${i}]`;
    return html`<fieldset class="row-group" aria-labelledby="reward-${i}-legend">
    <legend id="reward-${i}-legend">${m(s, 'console.cardEditor.rewards.legend', { n: i + 1 })}</legend>
    ${groupError(s, at)}${groupError(s, `${at}.id`)}
    ${reward.id ? html`<input type="hidden" name="${at}.id" value="${reward.id}">` : ''}
    <div class="row-fields">
      ${inputField({ name: `${at}.name`, label: m(s, 'console.cardEditor.rewards.name'), value: reward.name, error: err(s, `${at}.name`), required: true, maxlength: 100, hint: i === 0 ? m(s, 'console.cardEditor.rewards.nameHint') : undefined, autofocus: focusOn(s, `${at}.name`) })}
      ${inputField({ name: `${at}.cost`, label: m(s, 'console.cardEditor.rewards.cost'), value: reward.cost, error: err(s, `${at}.cost`), required: true, inputmode: 'numeric', hint: i === 0 ? m(s, 'console.cardEditor.rewards.costHint') : undefined })}
    </div>
    ${inputField({ name: `${at}.description`, label: m(s, 'console.cardEditor.rewards.description'), value: reward.description, error: err(s, `${at}.description`), maxlength: 300, hint: i === 0 ? m(s, 'console.cardEditor.rewards.descriptionHint') : undefined })}
    ${removeButton(s, `remove:rewards:${i}`, 'rewards', 'reward', i + 1)}
  </fieldset>`;
  })}
  ${form.rewards.length < MAX_REWARDS ? rowButton(s, 'add:rewards', 'rewards', m(s, 'console.cardEditor.rewards.add')) : html`<p class="hint">${m(s, 'console.cardEditor.rewards.max', { max: MAX_REWARDS })}</p>`}
</details>`;
}

const expiryRules = (s: SectionContext) => [
  { value: 'months', label: m(s, 'console.cardEditor.expiry.ruleMonths') },
  { value: 'inactiveDays', label: m(s, 'console.cardEditor.expiry.ruleInactive') },
];

/**
 * When stamps and points expire. Both numbers are on the page (the script shows the one of the
 * rule chosen); only the chosen rule's number is read.
 */
export function expirySection(s: SectionContext): Markup {
  const { form } = s;
  const e = form.expiry;
  const open = e.rule !== '' || anyError(s, 'expiry');
  return html`<details id="expiry" class="section"${open ? html` open` : ''}><summary>${m(s, 'console.cardEditor.expiry.summary')} <span class="muted small">${m(s, 'console.cardEditor.expiry.for')}</span></summary>
  <p class="hint">${m(s, 'console.cardEditor.expiry.hint')}</p>
  ${groupError(s, 'expiry')}
  ${selectField({ name: 'expiry.rule', label: m(s, 'console.cardEditor.expiry.rule'), value: e.rule, required: true, options: [{ value: '', label: m(s, 'console.cardEditor.expiry.never') }, ...expiryRules(s)] })}
  <div data-expiry-rule="months">${inputField({ name: 'expiry.months', label: m(s, 'console.cardEditor.expiry.months'), value: e.months, error: err(s, 'expiry.months'), required: true, inputmode: 'numeric', hint: m(s, 'console.cardEditor.expiry.monthsHint') })}</div>
  <div data-expiry-rule="inactiveDays">${inputField({ name: 'expiry.inactiveDays', label: m(s, 'console.cardEditor.expiry.inactiveDays'), value: e.inactiveDays, error: err(s, 'expiry.inactiveDays'), required: true, inputmode: 'numeric', hint: m(s, 'console.cardEditor.expiry.inactiveDaysHint') })}</div>
  <div data-expiry-rule="months inactiveDays">${inputField({ name: 'expiry.remindDays', label: m(s, 'console.cardEditor.expiry.remindDays'), value: e.remindDays, error: err(s, 'expiry.remindDays'), inputmode: 'numeric', placeholder: String(DEFAULT_REMIND_DAYS), hint: m(s, 'console.cardEditor.expiry.remindDaysHint', { days: DEFAULT_REMIND_DAYS }) })}</div>
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
  if (b.questionKey && !choices.some((c) => c.value.toLowerCase() === b.questionKey.toLowerCase())) choices.push({ value: b.questionKey, label: m(s, 'console.cardEditor.birthday.notDate', { key: b.questionKey }) });
  const open = b.questionKey !== '' || anyError(s, 'birthday');
  return html`<details id="birthday" class="section"${open ? html` open` : ''}><summary>${m(s, 'console.cardEditor.birthday.summary')} <span class="muted small">${m(s, 'console.cardEditor.birthday.for')}</span></summary>
  <p class="hint">${m(s, 'console.cardEditor.birthday.hint')}</p>
  ${groupError(s, 'birthday')}
  ${selectField({ name: 'birthday.questionKey', label: m(s, 'console.cardEditor.birthday.question'), value: b.questionKey, error: err(s, 'birthday.questionKey'), placeholder: m(s, 'console.cardEditor.birthday.none'), options: choices, hint: choices.length ? m(s, 'console.cardEditor.birthday.questionHint') : m(s, 'console.cardEditor.birthday.noQuestionHint') })}
  ${inputField({ name: 'birthday.units', label: m(s, 'console.cardEditor.birthday.units'), value: b.units, error: err(s, 'birthday.units'), required: true, inputmode: 'numeric', hint: m(s, 'console.cardEditor.birthday.unitsHint') })}
</details>`;
}

/** The watch list's threshold and the value of a unit for the monthly report. */
export function watchSection(s: SectionContext): Markup {
  const { form } = s;
  const open = form.flagAwardsPerDay !== '' || form.unitValue !== '' || anyError(s, 'flagAwardsPerDay', 'unitValue');
  return html`<details id="watch" class="section"${open ? html` open` : ''}><summary>${m(s, 'console.cardEditor.watch.summary')} <span class="muted small">${m(s, 'console.cardEditor.watch.for')}</span></summary>
  ${inputField({ name: 'flagAwardsPerDay', label: m(s, 'console.cardEditor.watch.flag'), value: form.flagAwardsPerDay, error: err(s, 'flagAwardsPerDay'), inputmode: 'numeric', placeholder: String(DEFAULT_FLAG_AWARDS_PER_DAY), hint: m(s, 'console.cardEditor.watch.flagHint', { n: DEFAULT_FLAG_AWARDS_PER_DAY }) })}
  ${inputField({ name: 'unitValue', label: m(s, 'console.cardEditor.watch.unitValue'), value: form.unitValue, error: err(s, 'unitValue'), inputmode: 'decimal', hint: m(s, 'console.cardEditor.watch.unitValueHint') })}
</details>`;
}

export function levelsSection(s: SectionContext): Markup {
  const { form } = s;
  const open = form.passType === 'level_card' || form.levels.length > 0 || anyError(s, 'levels');
  return html`<details id="levels" class="section"${open ? html` open` : ''}><summary>${m(s, 'console.cardEditor.levels.summary')} <span class="muted small">${m(s, 'console.cardEditor.levels.for')}</span></summary>
  <p class="hint">${m(s, 'console.cardEditor.levels.hint')}</p>
  ${groupError(s, 'levels')}
  ${form.levels.map((level, i) => {
    const at = `levels[${i}]`;
    return html`<fieldset class="row-group" aria-labelledby="level-${i}-legend">
    <legend id="level-${i}-legend">${m(s, 'console.cardEditor.levels.legend', { n: i + 1 })}</legend>
    <div class="row-fields">
      ${inputField({ name: `${at}.name`, label: m(s, 'console.cardEditor.levels.name'), value: level.name, error: err(s, `${at}.name`), required: true, maxlength: 50, autofocus: focusOn(s, `${at}.name`) })}
      ${inputField({ name: `${at}.minPoints`, label: m(s, 'console.cardEditor.levels.minPoints'), value: level.minPoints, error: err(s, `${at}.minPoints`), required: true, inputmode: 'numeric' })}
    </div>
    ${removeButton(s, `remove:levels:${i}`, 'levels', 'level', i + 1)}
  </fieldset>`;
  })}
  ${form.levels.length < MAX_ROWS ? rowButton(s, 'add:levels', 'levels', m(s, 'console.cardEditor.levels.add')) : ''}
</details>`;
}

export function earningSection(s: SectionContext): Markup {
  const { form } = s;
  const open = !!(form.spend.currency || form.spend.rate || form.items.length) || anyError(s, 'accrual');
  return html`<details id="earning" class="section"${open ? html` open` : ''}><summary>${m(s, 'console.cardEditor.earning.summary')} <span class="muted small">${m(s, 'console.cardEditor.earning.for')}</span></summary>
  <p class="hint">${amountHint(s)} ${m(s, 'console.cardEditor.earning.hint')}</p>
  ${groupError(s, 'accrual')}${groupError(s, 'accrual.spend')}
  <div class="row-fields">
    ${inputField({ name: 'accrual.spend.currency', label: m(s, 'console.cardEditor.earning.currency'), value: form.spend.currency, error: err(s, 'accrual.spend.currency'), maxlength: 3, hint: m(s, 'console.cardEditor.earning.currencyHint'), autocomplete: 'off' })}
    ${inputField({ name: 'accrual.spend.rate', label: m(s, 'console.cardEditor.earning.rate'), value: form.spend.rate, error: err(s, 'accrual.spend.rate'), inputmode: 'decimal', hint: m(s, 'console.cardEditor.earning.rateHint') })}
  </div>
  <h3 class="small-heading">${m(s, 'console.cardEditor.earning.items')}</h3>
  ${groupError(s, 'accrual.items')}
  ${form.items.map((item, i) => {
    const at = `accrual.items[${i}]`;
    return html`<fieldset class="row-group" aria-labelledby="item-${i}-legend">
    <legend id="item-${i}-legend">${m(s, 'console.cardEditor.earning.itemLegend', { n: i + 1 })}</legend>
    <div class="row-fields">
      ${inputField({ name: `${at}.key`, label: m(s, 'console.cardEditor.earning.itemKey'), value: item.key, error: err(s, `${at}.key`), required: true, maxlength: 64, autocomplete: 'off', autofocus: focusOn(s, `${at}.key`) })}
      ${inputField({ name: `${at}.units`, label: m(s, 'console.cardEditor.earning.itemUnits'), value: item.units, error: err(s, `${at}.units`), required: true, inputmode: 'decimal' })}
    </div>
    ${removeButton(s, `remove:items:${i}`, 'earning', 'item', i + 1)}
  </fieldset>`;
  })}
  ${form.items.length < MAX_ROWS ? rowButton(s, 'add:items', 'earning', m(s, 'console.cardEditor.earning.addItem')) : ''}
</details>`;
}

export function limitsSection(s: SectionContext): Markup {
  const { form } = s;
  const l = form.limits;
  const open = !!(l.waitSeconds || l.maxPerAward || l.period || l.maxPerPeriod) || anyError(s, 'earningLimits');
  return html`<details id="limits" class="section"${open ? html` open` : ''}><summary>${m(s, 'console.cardEditor.limits.summary')} <span class="muted small">${m(s, 'console.cardEditor.limits.for')}</span></summary>
  <p class="hint">${amountHint(s)}</p>
  ${groupError(s, 'earningLimits')}
  ${inputField({ name: 'earningLimits.waitSeconds', label: m(s, 'console.cardEditor.limits.wait'), value: l.waitSeconds, error: err(s, 'earningLimits.waitSeconds'), inputmode: 'numeric', hint: m(s, 'console.cardEditor.limits.waitHint') })}
  ${inputField({ name: 'earningLimits.maxPerAward', label: m(s, 'console.cardEditor.limits.maxPerAward'), value: l.maxPerAward, error: err(s, 'earningLimits.maxPerAward'), inputmode: 'decimal' })}
  <div class="row-fields">
    ${selectField({ name: 'earningLimits.period', label: m(s, 'console.cardEditor.limits.period'), value: l.period, error: err(s, 'earningLimits.period'), placeholder: m(s, 'console.cardEditor.limits.noPeriod'), options: [{ value: 'day', label: m(s, 'console.cardEditor.limits.perDay') }, { value: 'week', label: m(s, 'console.cardEditor.limits.perWeek') }, { value: 'month', label: m(s, 'console.cardEditor.limits.perMonth') }] })}
    ${inputField({ name: 'earningLimits.maxPerPeriod', label: m(s, 'console.cardEditor.limits.maxPerPeriod'), value: l.maxPerPeriod, error: err(s, 'earningLimits.maxPerPeriod'), inputmode: 'decimal' })}
  </div>
</details>`;
}

export function signupSection(s: SectionContext): Markup {
  const { form } = s;
  const modes = SIGNUP_FIELD_MODES.map((mode) => ({ value: mode, label: m(s, 'console.cardEditor.signup.mode', { mode }) }));
  return html`<details id="signup" class="section"${form.dataCollectionEnabled || anyError(s, 'signupFields', 'dataCollectionEnabled') ? html` open` : ''}><summary>${m(s, 'console.cardEditor.signup.summary')} <span class="muted small">${m(s, 'console.cardEditor.signup.for')}</span></summary>
  ${checkboxField({ name: 'dataCollectionEnabled', label: m(s, 'console.cardEditor.signup.enabled'), checked: form.dataCollectionEnabled, error: err(s, 'dataCollectionEnabled') })}
  ${groupError(s, 'signupFields')}
  <div class="row-fields three">
    ${selectField({ name: 'signupFields.name', label: m(s, 'console.cardEditor.signup.name'), value: form.signupFields.name, error: err(s, 'signupFields.name'), required: true, options: modes })}
    ${selectField({ name: 'signupFields.email', label: m(s, 'console.cardEditor.signup.email'), value: form.signupFields.email, error: err(s, 'signupFields.email'), required: true, options: modes })}
    ${selectField({ name: 'signupFields.phone', label: m(s, 'console.cardEditor.signup.phone'), value: form.signupFields.phone, error: err(s, 'signupFields.phone'), required: true, options: modes })}
  </div>
</details>`;
}

function questionGroup(s: SectionContext, q: QuestionRow, i: number): Markup {
  const at = `questions[${i}]`;
  const showOptions = q.type === 'select' || q.options.length > 0 || !!err(s, `${at}.options`);
  const keyLocked = q.key !== '' && (s.locked?.keys.has(q.key) ?? false);
  const lockedValues = s.locked?.values.get(q.key);
  const advancedError = !!err(s, `${at}.key`) || q.options.some((_, j) => !!err(s, `${at}.options[${j}].value`));
  return html`<fieldset class="row-group question" id="question-${i}" aria-labelledby="question-${i}-legend">
  <legend id="question-${i}-legend">${m(s, 'console.cardEditor.question.legend', { n: i + 1 })}</legend>
  ${groupError(s, at)}
  ${inputField({ name: `${at}.label`, label: m(s, 'console.cardEditor.question.label'), value: q.label, error: err(s, `${at}.label`), required: true, maxlength: 200, hint: m(s, 'console.cardEditor.question.labelHint'), autofocus: focusOn(s, `${at}.label`) })}
  ${selectField({ name: `${at}.type`, label: m(s, 'console.cardEditor.question.type'), value: q.type, error: err(s, `${at}.type`), required: true, options: QUESTION_TYPES.map((type) => ({ value: type, label: m(s, 'console.cardEditor.question.typeName', { type }) })) })}
  <div class="row-fields">
    ${checkboxField({ name: `${at}.required`, label: m(s, 'console.cardEditor.question.required'), checked: q.required, error: err(s, `${at}.required`) })}
    ${checkboxField({ name: `${at}.isIdentifier`, label: m(s, 'console.cardEditor.question.isIdentifier'), checked: q.isIdentifier, error: err(s, `${at}.isIdentifier`) })}
  </div>
  ${
    showOptions
      ? html`<div class="options" aria-label="${m(s, 'console.cardEditor.question.choicesOf', { n: i + 1 })}" role="group">
    <p class="small-heading">${m(s, 'console.cardEditor.question.choices')}</p>
    ${groupError(s, `${at}.options`)}
    ${q.options.map((o, j) => {
      const ot = `${at}.options[${j}]`;
      return html`<fieldset class="row-group option" aria-labelledby="q${i}-o${j}-legend">
      <legend id="q${i}-o${j}-legend">${m(s, 'console.cardEditor.question.choiceLegend', { n: j + 1 })}</legend>
      ${inputField({ name: `${ot}.label`, label: m(s, 'console.cardEditor.question.answer'), value: o.label, error: err(s, `${ot}.label`), required: true, maxlength: 200, autofocus: focusOn(s, `${ot}.label`) })}
      ${removeButton(s, `remove-option:${i}:${j}`, `question-${i}`, 'choice', j + 1, i + 1)}
    </fieldset>`;
    })}
  </div>`
      : ''
  }
  ${q.options.length < MAX_ROWS ? html`<span data-choices-of="${at}.type">${rowButton(s, `add-option:${i}`, `question-${i}`, html`${m(s, 'console.cardEditor.question.addChoice')}<span class="visually-hidden"> ${m(s, 'console.cardEditor.question.toQuestion', { n: i + 1 })}</span>`)}</span>` : ''}
  <details class="advanced"${advancedError ? html` open` : ''}><summary>${m(s, 'console.cardEditor.question.advanced')}<span class="visually-hidden"> ${m(s, 'console.cardEditor.question.forQuestion', { n: i + 1 })}</span></summary>
    <p class="hint">${m(s, 'console.cardEditor.question.advancedHint')}</p>
    ${inputField({
      name: `${at}.key`,
      label: m(s, 'console.cardEditor.question.key'),
      value: q.key,
      error: err(s, `${at}.key`),
      maxlength: 64,
      autocomplete: 'off',
      readonly: keyLocked,
      placeholder: q.key ? undefined : m(s, 'console.cardEditor.question.keyPlaceholder'),
      hint: keyLocked ? m(s, 'console.cardEditor.question.keyLocked') : undefined,
    })}
    ${q.options.map((o, j) => {
      const ot = `${at}.options[${j}]`;
      const locked = o.value !== '' && (lockedValues?.has(o.value) ?? false);
      return inputField({ name: `${ot}.value`, label: m(s, 'console.cardEditor.question.value', { n: j + 1 }), value: o.value, error: err(s, `${ot}.value`), maxlength: 200, autocomplete: 'off', readonly: locked, placeholder: o.value ? undefined : m(s, 'console.cardEditor.question.valuePlaceholder') });
    })}
  </details>
  <div class="row">${removeButton(s, `remove:questions:${i}`, 'questions', 'question', i + 1)}</div>
</fieldset>`;
}

export function questionsSection(s: SectionContext): Markup {
  const { form } = s;
  return html`<details id="questions" class="section"${form.questions.length || anyError(s, 'questions') ? html` open` : ''}><summary>${m(s, 'console.cardEditor.questions.summary')} <span class="muted small">${m(s, 'console.cardEditor.questions.for')}</span></summary>
  <p class="hint">${m(s, 'console.cardEditor.questions.hint')}</p>
  ${groupError(s, 'questions')}
  ${form.questions.map((q, i) => questionGroup(s, q, i))}
  ${form.questions.length < MAX_ROWS ? rowButton(s, 'add:questions', 'questions', m(s, 'console.cardEditor.questions.add')) : ''}
</details>`;
}

/**
 * Text that does not stand out from its background (below 4.5 : 1, WCAG's level for normal text)
 * is hard to read on a phone in a bright shop. Said, not refused: the owner may know better. The
 * console's script keeps it up to date while colours are typed (card-editor.ts).
 */
function contrastWarning(s: SectionContext, form: CardForm): Markup {
  const colour = (text: string, fallback: string) => readColor(text)?.rgb ?? parseColor(fallback).rgb;
  const ratio = contrastRatio(colour(form.design.backgroundColor, DEFAULT_PASS_COLORS.background), colour(form.design.foregroundColor, DEFAULT_PASS_COLORS.foreground));
  const low = ratio < MIN_TEXT_CONTRAST;
  return html`<p class="notice warn contrast-warning" id="contrast-warning" role="status" data-min-contrast="${MIN_TEXT_CONTRAST}"${low ? '' : html` hidden`}>
  <strong>${m(s, 'console.cardEditor.design.contrastTitle')}</strong> ${messageWith(s.lang, 'console.cardEditor.design.contrast', 'ratio', html`<span data-contrast-ratio>${ratioText(ratio)}</span>`)}</p>`;
}

export function designSection(s: SectionContext): Markup {
  const { form } = s;
  // The placeholder is the colour an empty field gives the pass.
  const colour = (name: 'backgroundColor' | 'foregroundColor' | 'labelColor', label: string, hint: string, fallback: string) =>
    inputField({ name: `design.${name}`, label, value: form.design[name], error: err(s, `design.${name}`), hint, placeholder: parseColor(fallback).hex, autocomplete: 'off' });
  return html`<details id="design" class="section" open><summary>${m(s, 'console.cardEditor.design.summary')}</summary>
  ${groupError(s, 'design')}
  <div class="row-fields three colours">
    ${colour('backgroundColor', m(s, 'console.cardEditor.design.background'), m(s, 'console.cardEditor.design.backgroundHint'), DEFAULT_PASS_COLORS.background)}
    ${colour('foregroundColor', m(s, 'console.cardEditor.design.foreground'), m(s, 'console.cardEditor.design.foregroundHint'), DEFAULT_PASS_COLORS.foreground)}
    ${colour('labelColor', m(s, 'console.cardEditor.design.label'), m(s, 'console.cardEditor.design.labelHint'), DEFAULT_PASS_COLORS.label)}
  </div>
  <p class="hint">${m(s, 'console.cardEditor.design.colourHint')}</p>
  ${contrastWarning(s, form)}
  ${inputField({ name: 'design.logoText', label: m(s, 'console.cardEditor.design.logoText'), value: form.design.logoText, error: err(s, 'design.logoText'), maxlength: 60, hint: m(s, 'console.cardEditor.design.logoTextHint') })}
</details>`;
}
