// The promotion form as typed (every value text, so a refused form comes back as it was sent), and
// its reading into the API's own body: the same valibot schema judges it, so the console refuses
// exactly what POST /v1/cards/{cardId}/promotions refuses; each issue lands on its input.
import type { UnitKind } from '../../i18n/format';
import type { ConsoleLang } from '../../i18n/langs';
import { tConsole, type ConsoleKey, type MessageParams } from '../../i18n/translate';
import { MAX_OPEN_PROMOTIONS } from '../../promotions/model';
import * as v from 'valibot';
import type { Promotion } from '../../promotions/model';
import { CreatePromotionBody, type CreatePromotionInput } from '../../promotions/schemas';
import type { ApiError } from '../../lib/errors';
import { fromHundredths } from '../../lib/money';
import { toIssues } from '../../lib/validation';
import { field, fieldAll, type FormErrors, type FormFields } from '../../web/forms';
import { MULTIPLIER_SCALE } from '../../promotions/model';
import { consoleFormErrors } from '../refusals';

export interface PromotionForm {
  name: string;
  /** 'multiplier' or 'bonus'; the number of the kind chosen is read, the other ignored. */
  kind: string;
  multiplier: string;
  bonus: string;
  startsAt: string;
  endsAt: string;
  /** '1' (Monday) … '7' (Sunday); none ticked: every day. */
  weekdays: string[];
  hoursFrom: string;
  hoursTo: string;
}

export const emptyPromotionForm = (today: string): PromotionForm => ({ name: '', kind: 'multiplier', multiplier: '2', bonus: '', startsAt: today, endsAt: '', weekdays: [], hoursFrom: '', hoursTo: '' });

/** The stored promotion as the form shows it (values in units). */
export function promotionToForm(p: Promotion): PromotionForm {
  return {
    name: p.name,
    kind: p.kind,
    multiplier: p.kind === 'multiplier' ? String(p.value / MULTIPLIER_SCALE) : '',
    bonus: p.kind === 'bonus' ? String(fromHundredths(p.value)) : '',
    startsAt: p.startsOn,
    endsAt: p.endsOn,
    weekdays: (p.weekdays ?? []).map(String),
    hoursFrom: p.hours?.from ?? '',
    hoursTo: p.hours?.to ?? '',
  };
}

export function readPromotionForm(fields: FormFields): PromotionForm {
  const f = (name: string) => field(fields, name).slice(0, 200);
  return {
    name: f('name'),
    kind: f('kind'),
    multiplier: f('multiplier'),
    bonus: f('bonus'),
    startsAt: f('startsAt').trim(),
    endsAt: f('endsAt').trim(),
    weekdays: fieldAll(fields, 'weekdays').slice(0, 7),
    hoursFrom: f('hoursFrom'),
    hoursTo: f('hoursTo'),
  };
}

/** "2", "1.5" and "1,5" (a decimal comma) as a number; blank: left out; anything else stays text for the schema to refuse. */
function number(text: string): number | string | undefined {
  const t = text.trim();
  if (t === '') return undefined;
  return /^\d+([.,]\d+)?$/.test(t) ? Number(t.replace(',', '.')) : t;
}

/** "9", "9:30", "14.30" as the schema's HH:MM; anything else as typed. */
function time(text: string): string {
  const t = text.trim();
  const m = /^(\d{1,2})(?:[:.](\d{2}))?$/.exec(t);
  return m ? `${m[1]!.padStart(2, '0')}:${m[2] ?? '00'}` : t;
}

const blank = (text: string) => text.trim() === '';

/** The input that shows an issue of the API's `path`. */
function fieldOf(path: string, kind: string): string {
  if (path === 'value') return kind === 'bonus' ? 'bonus' : 'multiplier';
  if (path.startsWith('weekdays')) return 'weekdays';
  if (path === 'hours.from') return 'hoursFrom';
  if (path === 'hours.to' || path === 'hours') return 'hoursTo';
  return path;
}

const ASKED: Record<string, ConsoleKey> = {
  name: 'console.promotions.rule.name',
  startsAt: 'console.promotions.rule.startsAt',
  endsAt: 'console.promotions.rule.endsAt',
  kind: 'console.promotions.rule.kind',
};

/** The rules in an owner's words where the API's name its fields or a number's bounds (the rule is the schema's). */
function worded(lang: ConsoleLang, name: string, message: string, kind: UnitKind): string {
  const m = (key: ConsoleKey, params?: MessageParams) => tConsole(lang, key, params);
  if (message === 'required') return m(ASKED[name] ?? 'console.promotions.rule.required');
  if (name === 'multiplier') return m('console.promotions.rule.multiplier');
  if (name === 'bonus') return m('console.promotions.rule.bonus', { kind });
  if (name === 'endsAt' && /before startsAt/.test(message)) return m('console.promotions.rule.endBeforeStart');
  if (name === 'startsAt' && /after endsAt/.test(message)) return m('console.promotions.rule.startAfterEnd');
  if (name === 'hoursTo' && /after from/.test(message)) return m('console.promotions.rule.hoursOrder');
  if (lang !== 'en' && /^must be a time HH:MM/.test(message)) return m('console.promotions.rule.time');
  if (lang !== 'en' && /promotions that have not ended/.test(message)) return m('console.promotions.rule.limit', { max: MAX_OPEN_PROMOTIONS });
  return message.charAt(0).toUpperCase() + message.slice(1);
}

function toFormErrors(lang: ConsoleLang, issues: readonly { path: string; message: string }[], form: PromotionForm, kind: UnitKind): FormErrors {
  const errors: FormErrors = { fields: {} };
  for (const issue of issues) {
    const name = fieldOf(issue.path, form.kind);
    const message = worded(lang, name, issue.message, kind);
    if (name === '') errors.form ??= message;
    else errors.fields[name] ??= message;
  }
  return errors;
}

/**
 * The API body the form describes, checked by the API's schema: the promotion to save, or a
 * message per input in the admin's language. `kind` (stamp, point) words the bonus's message.
 */
export function validatePromotionForm(lang: ConsoleLang, form: PromotionForm, kind: UnitKind): { ok: true; body: CreatePromotionInput } | { ok: false; errors: FormErrors } {
  const bothOrNeither = blank(form.hoursFrom) !== blank(form.hoursTo);
  const value = form.kind === 'multiplier' ? number(form.multiplier) : form.kind === 'bonus' ? number(form.bonus) : undefined;
  const input = {
    ...(blank(form.name) ? {} : { name: form.name }),
    ...(blank(form.kind) ? {} : { kind: form.kind }),
    ...(value === undefined ? {} : { value }),
    ...(form.startsAt ? { startsAt: form.startsAt } : {}),
    ...(form.endsAt ? { endsAt: form.endsAt } : {}),
    weekdays: form.weekdays.length ? form.weekdays.map((d) => number(d) ?? d) : null,
    hours: blank(form.hoursFrom) && blank(form.hoursTo) ? null : { from: time(form.hoursFrom), to: time(form.hoursTo) },
  };
  const result = v.safeParse(CreatePromotionBody, input, { abortEarly: false });
  const errors = result.success ? { fields: {} as Record<string, string> } : toFormErrors(lang, toIssues(result.issues), form, kind);
  if (bothOrNeither) errors.fields[blank(form.hoursFrom) ? 'hoursFrom' : 'hoursTo'] = tConsole(lang, 'console.promotions.rule.bothTimes');
  if (!result.success || Object.keys(errors.fields).length) return { ok: false, errors };
  return { ok: true, body: result.output };
}

/** The promotions service's refusal (the limit of 10, a start after the end) at its input. */
export function promotionErrorsFrom(lang: ConsoleLang, err: ApiError, form: PromotionForm, kind: UnitKind): FormErrors {
  const issues = err.extra.issues as { path: string; message: string }[] | undefined;
  if (err.code === 'VALIDATION_FAILED' && issues) return toFormErrors(lang, issues, form, kind);
  return consoleFormErrors(lang, err);
}
