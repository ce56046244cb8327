// The card editor's form as typed: every value kept as text, so a refused form comes back exactly
// as it was sent. Field names are the CardConfig paths (`rewards[0].cost`, `levels[1].minPoints`,
// `questions[0].options[2].label`, `expiry.months`), so the seed file's schema validates what the
// form says and its issues land on the inputs they are about.
import type { Card, QuestionType } from '../../cards/model';
import { DEFAULT_SIGNUP_FIELDS, MAX_REWARDS, QUESTION_TYPES, takesRewards } from '../../cards/model';
import { fromHundredths } from '../../lib/money';
import { field, fieldAll, type FormFields } from '../../web/forms';

/** A reward as typed; `id` (hidden) is the stored reward's, so its rewardId stays across edits; '' for a new one. */
export interface RewardRow { id: string; name: string; cost: string; description: string }
export interface LevelRow { name: string; minPoints: string }
export interface ItemRow { key: string; units: string }
export interface OptionRow { value: string; label: string }
export interface QuestionRow { key: string; label: string; type: string; required: boolean; isIdentifier: boolean; options: OptionRow[] }

export interface CardForm {
  name: string;
  passType: string;
  rewards: RewardRow[];
  levels: LevelRow[];
  spend: { currency: string; rate: string };
  items: ItemRow[];
  limits: { waitSeconds: string; maxPerAward: string; period: string; maxPerPeriod: string };
  dataCollectionEnabled: boolean;
  signupFields: { name: string; email: string; phone: string };
  questions: QuestionRow[];
  design: { backgroundColor: string; foregroundColor: string; labelColor: string; logoText: string };
  /** `rule`: '' (never), 'months' or 'inactiveDays'; the number of the rule chosen is read, the other ignored. */
  expiry: { rule: string; months: string; inactiveDays: string; remindDays: string };
  /** `questionKey` '' : no birthday treat. */
  birthday: { questionKey: string; units: string };
  flagAwardsPerDay: string;
  unitValue: string;
}

const blankReward = (): RewardRow => ({ id: '', name: '', cost: '', description: '' });

export function emptyCardForm(): CardForm {
  return {
    name: '',
    passType: 'stamp_card',
    rewards: [blankReward()],
    levels: [],
    spend: { currency: '', rate: '' },
    items: [],
    limits: { waitSeconds: '', maxPerAward: '', period: '', maxPerPeriod: '' },
    dataCollectionEnabled: false,
    signupFields: { ...DEFAULT_SIGNUP_FIELDS },
    questions: [],
    design: { backgroundColor: '', foregroundColor: '', labelColor: '', logoText: '' },
    expiry: { rule: '', months: '', inactiveDays: '', remindDays: '' },
    birthday: { questionKey: '', units: '' },
    flagAwardsPerDay: '',
    unitValue: '',
  };
}

const units = (hundredths: number | undefined) => (hundredths === undefined ? '' : String(fromHundredths(hundredths)));
const text = (value: number | string | undefined | null) => (value === undefined || value === null ? '' : String(value));

/** The stored card as the form shows it (amounts back in units). */
export function cardToForm(card: Card): CardForm {
  const limits = card.earningLimits ?? {};
  return {
    name: card.name,
    passType: card.passType,
    // A stamp or point card without rewards shows one empty row to fill in.
    rewards: card.rewards.length
      ? card.rewards.map((r) => ({ id: r.id, name: r.name, cost: units(r.cost), description: r.description ?? '' }))
      : takesRewards(card.passType) ? [blankReward()] : [],
    levels: (card.levels ?? []).map((l) => ({ name: l.name, minPoints: units(l.minPoints) })),
    spend: { currency: card.accrual?.spend?.currency ?? '', rate: text(card.accrual?.spend?.rate) },
    items: Object.entries(card.accrual?.items ?? {}).map(([key, n]) => ({ key, units: units(n) })),
    limits: { waitSeconds: text(limits.waitSeconds), maxPerAward: units(limits.maxPerAward), period: limits.period ?? '', maxPerPeriod: units(limits.maxPerPeriod) },
    dataCollectionEnabled: card.dataCollectionEnabled,
    signupFields: { ...card.signupFields },
    questions: card.questions.map((q) => ({
      key: q.key,
      label: q.label,
      type: q.type,
      required: q.required,
      isIdentifier: q.isIdentifier,
      options: (q.options ?? []).map((o) => ({ ...o })),
    })),
    design: {
      backgroundColor: card.design?.backgroundColor ?? '',
      foregroundColor: card.design?.foregroundColor ?? '',
      labelColor: card.design?.labelColor ?? '',
      logoText: card.design?.logoText ?? '',
    },
    expiry: card.expiry
      ? 'months' in card.expiry
        ? { rule: 'months', months: String(card.expiry.months), inactiveDays: '', remindDays: String(card.expiry.remindDays) }
        : { rule: 'inactiveDays', months: '', inactiveDays: String(card.expiry.inactiveDays), remindDays: String(card.expiry.remindDays) }
      : { rule: '', months: '', inactiveDays: '', remindDays: '' },
    birthday: card.birthday ? { questionKey: card.birthday.questionKey, units: units(card.birthday.units) } : { questionKey: '', units: '' },
    flagAwardsPerDay: text(card.flagAwardsPerDay),
    unitValue: card.unitValueE4 === null ? '' : String(card.unitValueE4 / 10_000),
  };
}

/** Most rows a list takes: far beyond what a card needs, and it bounds what one form can ask for. */
export const MAX_ROWS = 50;

/** How many rows `prefix[i]…` the posted fields hold (the highest index + 1, at most MAX_ROWS). */
function rowCount(fields: FormFields, prefix: string): number {
  let count = 0;
  const pattern = new RegExp(`^${prefix.replace(/[.[\]]/g, '\\$&')}\\[(\\d{1,2})\\]`);
  for (const name of Object.keys(fields)) {
    const match = pattern.exec(name);
    if (match) count = Math.max(count, Number(match[1]) + 1);
  }
  return Math.min(count, MAX_ROWS);
}

const rows = <T>(fields: FormFields, prefix: string, read: (at: string, i: number) => T): T[] =>
  Array.from({ length: rowCount(fields, prefix) }, (_, i) => read(`${prefix}[${i}]`, i));

const checked = (fields: FormFields, name: string) => fieldAll(fields, name).length > 0;

/** The form as posted (or as the preview's query string carries it). */
export function readCardForm(fields: FormFields): CardForm {
  const f = (name: string) => field(fields, name);
  return {
    name: f('name'),
    passType: f('passType'),
    rewards: rows(fields, 'rewards', (at) => ({ id: f(`${at}.id`), name: f(`${at}.name`), cost: f(`${at}.cost`), description: f(`${at}.description`) })),
    levels: rows(fields, 'levels', (at) => ({ name: f(`${at}.name`), minPoints: f(`${at}.minPoints`) })),
    spend: { currency: f('accrual.spend.currency'), rate: f('accrual.spend.rate') },
    items: rows(fields, 'accrual.items', (at) => ({ key: f(`${at}.key`), units: f(`${at}.units`) })),
    limits: { waitSeconds: f('earningLimits.waitSeconds'), maxPerAward: f('earningLimits.maxPerAward'), period: f('earningLimits.period'), maxPerPeriod: f('earningLimits.maxPerPeriod') },
    dataCollectionEnabled: checked(fields, 'dataCollectionEnabled'),
    signupFields: { name: f('signupFields.name'), email: f('signupFields.email'), phone: f('signupFields.phone') },
    questions: rows(fields, 'questions', (at) => ({
      key: f(`${at}.key`),
      label: f(`${at}.label`),
      type: f(`${at}.type`),
      required: checked(fields, `${at}.required`),
      isIdentifier: checked(fields, `${at}.isIdentifier`),
      options: rows(fields, `${at}.options`, (o) => ({ value: f(`${o}.value`), label: f(`${o}.label`) })),
    })),
    design: { backgroundColor: f('design.backgroundColor'), foregroundColor: f('design.foregroundColor'), labelColor: f('design.labelColor'), logoText: f('design.logoText') },
    expiry: { rule: f('expiry.rule'), months: f('expiry.months'), inactiveDays: f('expiry.inactiveDays'), remindDays: f('expiry.remindDays') },
    birthday: { questionKey: f('birthday.questionKey'), units: f('birthday.units') },
    flagAwardsPerDay: f('flagAwardsPerDay'),
    unitValue: f('unitValue'),
  };
}

/** A query string's parameters as form fields (the preview is a GET of the same names). */
export function fieldsFromQuery(query: Record<string, string | string[] | undefined>): FormFields {
  const fields: FormFields = Object.create(null);
  for (const [name, value] of Object.entries(query)) if (value !== undefined) fields[name] = value;
  return fields;
}

// --- Rows added and removed without JavaScript: a submit button names what it does ---

export type RowList = 'rewards' | 'levels' | 'items' | 'questions';

export type RowAction =
  | { kind: 'add'; list: RowList }
  | { kind: 'remove'; list: RowList; index: number }
  | { kind: 'add-option'; question: number }
  | { kind: 'remove-option'; question: number; index: number };

/** `add:levels`, `remove:questions:2`, `add-option:1`, `remove-option:1:0`; undefined for anything else. */
export function parseRowAction(value: string): RowAction | undefined {
  const [verb, a, b] = value.split(':');
  const list = a === 'rewards' || a === 'levels' || a === 'items' || a === 'questions' ? a : undefined;
  const n = (s: string | undefined) => (s !== undefined && /^\d{1,3}$/.test(s) ? Number(s) : undefined);
  if (verb === 'add' && list) return { kind: 'add', list };
  if (verb === 'remove' && list && n(b) !== undefined) return { kind: 'remove', list, index: n(b)! };
  if (verb === 'add-option' && n(a) !== undefined) return { kind: 'add-option', question: n(a)! };
  if (verb === 'remove-option' && n(a) !== undefined && n(b) !== undefined) return { kind: 'remove-option', question: n(a)!, index: n(b)! };
  return undefined;
}

const blankQuestion = (): QuestionRow => ({ key: '', label: '', type: 'text', required: false, isIdentifier: false, options: [] });

/** The form with one row more or fewer; everything else as typed. Returns where to scroll to. */
export function applyRowAction(form: CardForm, action: RowAction): { form: CardForm; anchor: string } {
  const next: CardForm = structuredClone(form);
  const grow = <T>(list: T[], row: T, max = MAX_ROWS) => (list.length < max ? [...list, row] : list);
  const without = <T>(list: T[], index: number) => list.filter((_, i) => i !== index);
  switch (action.kind) {
    case 'add':
      if (action.list === 'rewards') next.rewards = grow(next.rewards, blankReward(), MAX_REWARDS);
      if (action.list === 'levels') next.levels = grow(next.levels, { name: '', minPoints: next.levels.length === 0 ? '0' : '' });
      if (action.list === 'items') next.items = grow(next.items, { key: '', units: '' });
      if (action.list === 'questions') next.questions = grow(next.questions, blankQuestion());
      return { form: next, anchor: anchorOf(action.list) };
    case 'remove':
      if (action.list === 'rewards') next.rewards = without(next.rewards, action.index);
      if (action.list === 'levels') next.levels = without(next.levels, action.index);
      if (action.list === 'items') next.items = without(next.items, action.index);
      if (action.list === 'questions') next.questions = without(next.questions, action.index);
      return { form: next, anchor: anchorOf(action.list) };
    case 'add-option': {
      const question = next.questions[action.question];
      if (question) {
        question.options = grow(question.options, { value: '', label: '' });
        // Options belong to select questions: adding one says which kind this is.
        question.type = 'select';
      }
      return { form: next, anchor: `question-${action.question}` };
    }
    case 'remove-option': {
      const question = next.questions[action.question];
      if (question) question.options = without(question.options, action.index);
      return { form: next, anchor: `question-${action.question}` };
    }
  }
}

const anchorOf = (list: RowList) => (list === 'items' ? 'earning' : list);

export const isQuestionType = (value: string): value is QuestionType => (QUESTION_TYPES as readonly string[]).includes(value);

/** The id of the control to focus once a row was added (its first field) or removed (the list's add button). */
export function focusAfter(action: RowAction, form: CardForm): string {
  const id = (name: string) => `f-${name.replace(/[^A-Za-z0-9_-]/g, '-')}`;
  switch (action.kind) {
    case 'add': {
      if (action.list === 'rewards') return id(`rewards[${form.rewards.length - 1}].name`);
      if (action.list === 'levels') return id(`levels[${form.levels.length - 1}].name`);
      if (action.list === 'items') return id(`accrual.items[${form.items.length - 1}].key`);
      return id(`questions[${form.questions.length - 1}].label`);
    }
    case 'add-option':
      return id(`questions[${action.question}].options[${(form.questions[action.question]?.options.length ?? 1) - 1}].label`);
    case 'remove':
      return `add-${action.list}`;
    case 'remove-option':
      return `add-option-${action.question}`;
  }
}
