// The editor's form → the CardConfig input the seed file would hold, validated by the same valibot
// schema with the same messages; each issue goes back to the input it is about. Blank rows (a
// reward, a level, an item, a question or an option with nothing typed) are left out, and an issue
// on a later row still names that row as the owner sees it. Rewards are saved from the cheapest
// up, so the default (the first) is the cheapest: the editor sorts them before the schema sees them.
import * as v from 'valibot';
import { takesRewards, type PassType } from '../../cards/model';
import { CardConfig, type CardConfigInput } from '../../cards/schemas';
import { MAX_LOGO_RATIO, MAX_LOGO_SIDE, MIN_LOGO_SIDE } from '../../cards/logo';
import type { ConsoleLang } from '../../i18n/langs';
import { tConsole, type ConsoleKey } from '../../i18n/translate';
import type { ApiError } from '../../lib/errors';
import { toIssues } from '../../lib/validation';
import { humanMessage, type FormErrors } from '../../web/forms';
import type { CardForm } from './form';
import { fillKeys } from './question-keys';
import { consoleFormErrors, refusalText } from '../refusals';

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
const RANGES: Record<string, ConsoleKey> = {
  'expiry.months': 'console.cardRule.expiryMonths',
  'expiry.inactiveDays': 'console.cardRule.expiryInactiveDays',
  'expiry.remindDays': 'console.cardRule.remindDays',
  'birthday.units': 'console.cardRule.birthdayUnits',
  flagAwardsPerDay: 'console.cardRule.flagAwards',
  unitValue: 'console.cardRule.unitValue',
};

/** What a card type cannot have, said for the editor (the schema's words name API fields). */
function typeMessage(issue: v.BaseIssue<unknown>, name: string, passType: string): ConsoleKey | undefined {
  if (issue.type !== 'check') return undefined;
  const prepaid = passType === 'prepaid_card';
  if (name === 'expiry') return prepaid ? 'console.cardRule.prepaidExpiry' : 'console.cardRule.stampExpiry';
  if (name === 'birthday' && prepaid) return 'console.cardRule.prepaidBirthday';
  if (name === 'unitValue' && prepaid) return 'console.cardRule.prepaidUnitValue';
  if (name === 'rewards' && !takesRewards(passType as PassType)) return 'console.cardRule.noRewards';
  return undefined;
}

/** The schema's own rules, worded for the page in the admin's language (English keeps the API's words). */
const SCHEMA_RULES: Record<string, ConsoleKey> = {
  required: 'console.cardRule.required',
  'must be a whole number': 'console.cardRule.whole',
  'must be a whole number on this card type': 'console.cardRule.wholeOnType',
  'must be greater than 0': 'console.cardRule.aboveZero',
  'must be an ISO 4217 code such as EUR': 'console.cardRule.currency',
  'item keys hold letters, digits, _ . - (at most 64)': 'console.cardRule.itemKey',
  'must start with a letter and hold only letters, digits and _ (at most 64)': 'console.cardRule.key',
  'a select question needs options; other types take none': 'console.cardRule.selectOptions',
  'an identifier question must be required and of type number, text, email or phone': 'console.cardRule.identifier',
  'at most one question may be the identifier': 'console.cardRule.oneIdentifier',
  'option values must be unique': 'console.cardRule.optionsUnique',
  'question keys must be unique (case-insensitively)': 'console.cardRule.keysUnique',
  'reward names must be unique': 'console.cardRule.rewardsUnique',
  'level names must be unique': 'console.cardRule.levelsUnique',
  'minPoints must ascend': 'console.cardRule.levelsAscend',
  'the first level must start at minPoints 0': 'console.cardRule.firstLevel',
  'period and maxPerPeriod go together': 'console.cardRule.periodPair',
};

/**
 * An issue in a language other than the API's English: the known rule's message, else one said
 * from the issue's kind and its bound (at most 100 characters, at least 1); the API's words last.
 */
function ruleMessage(lang: ConsoleLang, issue: v.BaseIssue<unknown>, apiMessage: string): string {
  const known = SCHEMA_RULES[apiMessage];
  if (known) return tConsole(lang, known);
  const decimals = /^at most (\d) decimals$/.exec(apiMessage);
  if (decimals) return tConsole(lang, 'console.cardRule.decimals', { n: Number(decimals[1]) });
  const rewards = /^at most (\d+) rewards$/.exec(apiMessage);
  if (rewards) return tConsole(lang, 'console.cardRule.maxRewards', { max: Number(rewards[1]) });
  if (apiMessage.startsWith('must be #')) return tConsole(lang, 'console.cardRule.colour');
  if (apiMessage.startsWith('birthday') || /date question/.test(apiMessage)) return tConsole(lang, 'console.cardRule.birthdayQuestion');
  const bound = (issue as { requirement?: unknown }).requirement;
  if (issue.type === 'min_length' && bound === 1) return tConsole(lang, 'console.cardRule.required');
  if (issue.type === 'max_length' && typeof bound === 'number') return tConsole(lang, 'console.cardRule.maxLength', { max: bound });
  if (issue.type === 'min_value' && typeof bound === 'number') return tConsole(lang, 'console.cardRule.atLeast', { min: bound });
  if (issue.type === 'max_value' && typeof bound === 'number') return tConsole(lang, 'console.cardRule.atMost', { max: bound });
  if (issue.type === 'integer') return tConsole(lang, 'console.cardRule.whole');
  if (issue.type === 'picklist') return tConsole(lang, 'console.cardRule.pick');
  return apiMessage;
}

/** Messages as the API words them, capitalised for the page; a number field that got text says so. */
function messageOf(lang: ConsoleLang, issue: v.BaseIssue<unknown>, apiMessage: string, name: string, passType: string): string {
  const typedText = issue.kind === 'schema' && issue.expected === 'number' && typeof issue.input === 'string';
  const required = typedText && (issue.input as string).trim() === '';
  const worded = required ? undefined : (typeMessage(issue, name, passType) ?? RANGES[name]);
  if (worded) return tConsole(lang, worded);
  if (typedText) return tConsole(lang, required ? 'console.cardRule.required' : 'console.cardRule.number');
  const message = lang === 'en' ? apiMessage : ruleMessage(lang, issue, apiMessage);
  return message.charAt(0).toUpperCase() + message.slice(1);
}

/** Every name the editor shows a message at: an input, a row, or a group of inputs. */
const SHOWN_FIELDS =
  /^(name|passType|dataCollectionEnabled|rewards(\[\d+\](\.(name|cost|description|id))?)?|expiry(\.(months|inactiveDays|remindDays))?|birthday(\.(questionKey|units))?|flagAwardsPerDay|unitValue|accrual(\.spend(\.(currency|rate))?)?|earningLimits(\.\w+)?|signupFields(\.\w+)?|design(\.\w+)?|levels(\[\d+\](\.(name|minPoints))?)?|accrual\.items(\[\d+\]\.(key|units))?|questions(\[\d+\](\.(key|label|type|required|isIdentifier)|\.options(\[\d+\](\.(value|label))?)?)?)?)$/;

export type CardFormResult = { ok: true; config: CardConfigInput; rewardRows: number[] } | { ok: false; errors: FormErrors };

/** Validates the form with CardConfig: the configuration to save, or a message per field. */
export function validateCardForm(typed: CardForm, lang: ConsoleLang = 'en'): CardFormResult {
  // Keys and choice values left blank are made from the labels (question-keys.ts).
  const form = { ...typed, questions: fillKeys(typed.questions) };
  const { input, rows, duplicates } = formToInput(form);
  const result = v.safeParse(CardConfig, input, { abortEarly: false });
  const errors: FormErrors = { fields: {} };
  for (const row of duplicates) errors.fields[`accrual.items[${row}].key`] = tConsole(lang, 'console.cardRule.duplicateItem');
  if (!result.success) {
    const api = toIssues(result.issues);
    result.issues.forEach((issue, i) => {
      const name = fieldOf(issue, rows);
      const message = messageOf(lang, issue, api[i]!.message, name, form.passType);
      if (SHOWN_FIELDS.test(name)) errors.fields[name] ??= message;
      else errors.form ??= name ? `${name}: ${message}` : message;
    });
  }
  if (Object.keys(errors.fields).length || !result.success) return { ok: false, errors };
  return { ok: true, config: result.output, rewardRows: rows.rewards };
}

/**
 * The cards service's refusal of a configuration the schema passed, as the editor shows it: at
 * its field, reward rows numbered as the form has them (`rewardRows`, from validateCardForm).
 */
export function editorErrorsFrom(lang: ConsoleLang, err: ApiError, rewardRows: readonly number[]): FormErrors {
  const errors = consoleFormErrors(lang, err);
  if (lang !== 'en' && err.code === 'CARD_TYPE_LOCKED') errors.fields = Object.fromEntries(Object.keys(errors.fields).map((name) => [name, tConsole(lang, 'console.cardRule.typeLocked')]));
  const fields: Record<string, string> = {};
  for (const [name, message] of Object.entries(errors.fields)) {
    const reward = /^rewards\[(\d+)\](.*)$/.exec(name);
    const shown = reward ? `rewards[${rewardRows[Number(reward[1])] ?? reward[1]}]${reward[2]}` : name;
    const text = reward?.[2] === '.id' ? tConsole(lang, 'console.cardRule.staleReward') : message;
    fields[shown] ??= text.charAt(0).toUpperCase() + text.slice(1);
  }
  return { ...errors, fields };
}

const LOGO_MESSAGES: Record<string, ConsoleKey> = {
  LOGO_MISSING: 'console.cardEditor.logo.error.missing',
  LOGO_NOT_AN_IMAGE: 'console.cardEditor.logo.error.notImage',
  LOGO_TOO_SMALL: 'console.cardEditor.logo.error.tooSmall',
  LOGO_TOO_BIG: 'console.cardEditor.logo.error.tooBig',
  LOGO_BAD_SHAPE: 'console.cardEditor.logo.error.shape',
  LOGO_TOO_LARGE: 'console.cardEditor.logo.error.tooLarge',
  UPLOAD_UNREADABLE: 'console.cardEditor.logo.error.unreadable',
};

/** Why a logo was refused, for the editor: the API's own words in English, the catalogue's otherwise. */
export function logoMessage(lang: ConsoleLang, err: ApiError): string {
  const key = LOGO_MESSAGES[err.code];
  if (lang === 'en') return humanMessage(err);
  if (!key) return refusalText(lang, err);
  return tConsole(lang, key, { min: MIN_LOGO_SIDE, max: MAX_LOGO_SIDE, ratio: MAX_LOGO_RATIO });
}
