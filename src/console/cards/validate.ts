// The editor's form → the CardConfig input the seed file would hold, validated by the same valibot
// schema with the same messages; each issue goes back to the input it is about. Blank rows (a
// reward, a level, an item, a question or an option with nothing typed) are left out, and an issue
// on a later row still names that row as the owner sees it. Rewards are saved from the cheapest
// up, so the default (the first) is the cheapest: the editor sorts them before the schema sees them.
import * as v from 'valibot';
import { takesRewards, type PassType } from '../../cards/model';
import { CardConfig, type CardConfigInput } from '../../cards/schemas';
import type { ApiError } from '../../lib/errors';
import { toIssues } from '../../lib/validation';
import { formErrorsFrom, type FormErrors } from '../../web/forms';
import type { CardForm } from './form';
import { fillKeys } from './question-keys';

interface RowMaps {
  /** The reward rows in saving order (by cost): each one's row in the form. */
  rewards: number[];
  levels: number[];
  questions: number[];
  options: number[][];
  /** Item key → its row. */
  items: Map<string, number>;
}

const blank = (...values: string[]) => values.every((s) => s.trim() === '');

/** Text → number when it reads as one; blank → left out; anything else stays text for the schema to refuse. */
function num(text: string): number | string | undefined {
  const t = text.trim();
  if (t === '') return undefined;
  return /^[+-]?(\d+(\.\d*)?|\.\d+)$/.test(t) ? Number(t) : t;
}

/** Text, or left out when blank (so the schema says "required" rather than "too short"). */
const str = (text: string) => (text.trim() === '' ? undefined : text);

/** A number the setting needs: blank stays text, which the schema answers with "Required". */
const needed = (text: string) => num(text) ?? text;

/** A number or null (blank: the setting's default, or none). A decimal comma is read as a point. */
const orNull = (text: string) => (text.trim() === '' ? null : num(/^\s*\d+,\d+\s*$/.test(text) ? text.replace(',', '.') : text));

/** A cost that reads as a number sorts by it; anything else (which the schema refuses) goes last. */
const costKey = (cost: string) => {
  const n = num(cost);
  return typeof n === 'number' ? n : Number.POSITIVE_INFINITY;
};

function expiryInput(expiry: CardForm['expiry']): unknown {
  const remindDays = num(expiry.remindDays);
  const remind = remindDays === undefined ? {} : { remindDays };
  if (expiry.rule === '') return null;
  if (expiry.rule === 'months') return { months: needed(expiry.months), ...remind };
  if (expiry.rule === 'inactiveDays') return { inactiveDays: needed(expiry.inactiveDays), ...remind };
  return { rule: expiry.rule };
}

/** Drops keys whose value is undefined; undefined when nothing is left. */
function compact(entries: Record<string, unknown>): Record<string, unknown> | undefined {
  const kept = Object.entries(entries).filter(([, value]) => value !== undefined);
  return kept.length ? Object.fromEntries(kept) : undefined;
}

function indexed<T>(list: T[], isBlank: (row: T) => boolean): { kept: T[]; at: number[] } {
  const at: number[] = [];
  const kept = list.filter((row, i) => (isBlank(row) ? false : (at.push(i), true)));
  return { kept, at };
}

/** The configuration the form describes, before validation, and where each row came from. */
export function formToInput(form: CardForm): { input: Record<string, unknown>; rows: RowMaps; duplicates: number[] } {
  const rewardRows = indexed(form.rewards, (r) => blank(r.name, r.cost, r.description));
  const rewardOrder = rewardRows.kept.map((row, i) => ({ row, at: rewardRows.at[i]! })).sort((a, b) => costKey(a.row.cost) - costKey(b.row.cost));
  const levels = indexed(form.levels, (l) => blank(l.name, l.minPoints));
  const items = indexed(form.items, (i) => blank(i.key, i.units));
  const questions = indexed(form.questions, (q) => blank(q.key, q.label, ...q.options.flatMap((o) => [o.value, o.label])));
  const options = questions.kept.map((q) => indexed(q.options, (o) => blank(o.value, o.label)));

  // The same item key twice would silently collapse into one entry of the record.
  const itemRows = new Map<string, number>();
  const duplicates: number[] = [];
  items.kept.forEach((item, i) => {
    const key = item.key.trim();
    if (itemRows.has(key)) duplicates.push(items.at[i]!);
    else itemRows.set(key, items.at[i]!);
  });

  const input = compact({
    name: str(form.name),
    passType: str(form.passType),
    rewards: rewardOrder.length
      ? rewardOrder.map(({ row }) => compact({ id: str(row.id), name: str(row.name), cost: num(row.cost), description: str(row.description) }) ?? {})
      : undefined,
    levels: levels.kept.length ? levels.kept.map((l) => compact({ name: str(l.name), minPoints: num(l.minPoints) }) ?? {}) : undefined,
    accrual: compact({
      spend: compact({ currency: str(form.spend.currency.trim().toUpperCase()), rate: num(form.spend.rate) }),
      items: items.kept.length ? Object.fromEntries(items.kept.map((i) => [i.key.trim(), num(i.units) ?? i.units])) : undefined,
    }),
    earningLimits: compact({
      waitSeconds: num(form.limits.waitSeconds),
      maxPerAward: num(form.limits.maxPerAward),
      period: str(form.limits.period),
      maxPerPeriod: num(form.limits.maxPerPeriod),
    }),
    dataCollectionEnabled: form.dataCollectionEnabled,
    signupFields: compact({ name: str(form.signupFields.name), email: str(form.signupFields.email), phone: str(form.signupFields.phone) }),
    questions: questions.kept.map((q, i) =>
      compact({
        key: str(q.key.trim()),
        label: str(q.label),
        type: str(q.type),
        required: q.required,
        isIdentifier: q.isIdentifier,
        options: options[i]!.kept.length ? options[i]!.kept.map((o) => compact({ value: str(o.value), label: str(o.label) }) ?? {}) : undefined,
      }),
    ),
    design: compact({
      backgroundColor: str(form.design.backgroundColor.trim()),
      foregroundColor: str(form.design.foregroundColor.trim()),
      labelColor: str(form.design.labelColor.trim()),
      logoText: form.design.logoText === '' ? undefined : form.design.logoText,
    }),
    expiry: expiryInput(form.expiry),
    birthday: form.birthday.questionKey === '' ? null : { questionKey: form.birthday.questionKey, units: needed(form.birthday.units) },
    flagAwardsPerDay: orNull(form.flagAwardsPerDay),
    unitValue: orNull(form.unitValue),
  })!;
  return { input, rows: { rewards: rewardOrder.map((r) => r.at), levels: levels.at, questions: questions.at, options: options.map((o) => o.at), items: itemRows }, duplicates };
}

/** The form field an issue is about: its schema path with every row index the owner's. */
function fieldOf(issue: v.BaseIssue<unknown>, rows: RowMaps): string {
  const path = issue.path ?? [];
  const keys: (string | number)[] = path.map((p) => p.key as string | number);
  if (keys[0] === 'rewards' && typeof keys[1] === 'number') keys[1] = rows.rewards[keys[1]] ?? keys[1];
  if (keys[0] === 'levels' && typeof keys[1] === 'number') keys[1] = rows.levels[keys[1]] ?? keys[1];
  if (keys[0] === 'questions' && typeof keys[1] === 'number') {
    const q = keys[1];
    keys[1] = rows.questions[q] ?? q;
    if (keys[2] === 'options' && typeof keys[3] === 'number') keys[3] = rows.options[q]?.[keys[3]] ?? keys[3];
  }
  if (keys[0] === 'accrual' && keys[1] === 'items' && keys.length >= 3) {
    const row = rows.items.get(String(keys[2]));
    if (row !== undefined) return `accrual.items[${row}].${path[2]!.origin === 'key' ? 'key' : 'units'}`;
  }
  return keys.map((k, i) => (typeof k === 'number' ? `[${k}]` : i ? `.${k}` : k)).join('');
}

/**
 * The program settings' allowed values in an owner's words, instead of the schema's "Expected
 * >=7" (the rule is the same: the schema judged it).
 */
const RANGES: Record<string, string> = {
  'expiry.months': 'A whole number of months from 1 to 60',
  'expiry.inactiveDays': 'A whole number of days from 7 to 3650 (ten years)',
  'expiry.remindDays': 'A whole number of days from 0 (no reminder) to 365',
  'birthday.units': 'A whole number, at least 1',
  flagAwardsPerDay: 'A whole number from 1 to 1000',
  unitValue: 'An amount above 0 with at most 4 decimals, such as 0.25',
};

/** What a card type cannot have, said for the editor (the schema's words name API fields). */
function typeMessage(issue: v.BaseIssue<unknown>, name: string, passType: string): string | undefined {
  if (issue.type !== 'check') return undefined;
  const prepaid = passType === 'prepaid_card';
  if (name === 'expiry') return prepaid ? 'Store credit is money and never expires: choose Never' : 'Stamps expire only after days without an award; months after each award is for point and level cards';
  if (name === 'birthday' && prepaid) return 'Store credit has no birthday treat: choose No birthday treat';
  if (name === 'unitValue' && prepaid) return 'Store credit is money already: leave this empty on a prepaid card';
  if (name === 'rewards' && !takesRewards(passType as PassType)) return 'Only stamp and point cards have rewards: remove these, or choose a stamp or point card';
  return undefined;
}

/** Messages as the API words them, capitalised for the page; a number field that got text says so. */
function messageOf(issue: v.BaseIssue<unknown>, apiMessage: string, name: string, passType: string): string {
  const typedText = issue.kind === 'schema' && issue.expected === 'number' && typeof issue.input === 'string';
  const required = typedText && (issue.input as string).trim() === '';
  const text = typedText ? (required ? 'required' : 'must be a number') : apiMessage;
  const worded = required ? undefined : (typeMessage(issue, name, passType) ?? RANGES[name]);
  const message = worded ?? text;
  return message.charAt(0).toUpperCase() + message.slice(1);
}

/** Every name the editor shows a message at: an input, a row, or a group of inputs. */
const SHOWN_FIELDS =
  /^(name|passType|dataCollectionEnabled|rewards(\[\d+\](\.(name|cost|description|id))?)?|expiry(\.(months|inactiveDays|remindDays))?|birthday(\.(questionKey|units))?|flagAwardsPerDay|unitValue|accrual(\.spend(\.(currency|rate))?)?|earningLimits(\.\w+)?|signupFields(\.\w+)?|design(\.\w+)?|levels(\[\d+\](\.(name|minPoints))?)?|accrual\.items(\[\d+\]\.(key|units))?|questions(\[\d+\](\.(key|label|type|required|isIdentifier)|\.options(\[\d+\](\.(value|label))?)?)?)?)$/;

export type CardFormResult = { ok: true; config: CardConfigInput; rewardRows: number[] } | { ok: false; errors: FormErrors };

/** Validates the form with CardConfig: the configuration to save, or a message per field. */
export function validateCardForm(typed: CardForm): CardFormResult {
  // Keys and choice values left blank are made from the labels (question-keys.ts).
  const form = { ...typed, questions: fillKeys(typed.questions) };
  const { input, rows, duplicates } = formToInput(form);
  const result = v.safeParse(CardConfig, input, { abortEarly: false });
  const errors: FormErrors = { fields: {} };
  for (const row of duplicates) errors.fields[`accrual.items[${row}].key`] = 'This item is listed twice: give each item its own line';
  if (!result.success) {
    const api = toIssues(result.issues);
    result.issues.forEach((issue, i) => {
      const name = fieldOf(issue, rows);
      const message = messageOf(issue, api[i]!.message, name, form.passType);
      if (SHOWN_FIELDS.test(name)) errors.fields[name] ??= message;
      else errors.form ??= name ? `${name}: ${message}` : message;
    });
  }
  if (Object.keys(errors.fields).length || !result.success) return { ok: false, errors };
  return { ok: true, config: result.output, rewardRows: rows.rewards };
}

const STALE_REWARD = 'This reward is no longer on the card: it was changed elsewhere after this page was opened. Reload the page to see the card as it is now';

/**
 * The cards service's refusal of a configuration the schema passed, as the editor shows it: at
 * its field, reward rows numbered as the form has them (`rewardRows`, from validateCardForm).
 */
export function editorErrorsFrom(err: ApiError, rewardRows: readonly number[]): FormErrors {
  const errors = formErrorsFrom(err);
  const fields: Record<string, string> = {};
  for (const [name, message] of Object.entries(errors.fields)) {
    const reward = /^rewards\[(\d+)\](.*)$/.exec(name);
    const shown = reward ? `rewards[${rewardRows[Number(reward[1])] ?? reward[1]}]${reward[2]}` : name;
    const text = reward?.[2] === '.id' ? STALE_REWARD : message;
    fields[shown] ??= text.charAt(0).toUpperCase() + text.slice(1);
  }
  return { ...errors, fields };
}
