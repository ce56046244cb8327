// The promotion form as typed (every value text, so a refused form comes back as it was sent), and
// its reading into the API's own body: the same valibot schema judges it, so the console refuses
// exactly what POST /v1/cards/{cardId}/promotions refuses; each issue lands on its input.
import * as v from 'valibot';
import type { Promotion } from '../../promotions/model';
import { CreatePromotionBody, type CreatePromotionInput } from '../../promotions/schemas';
import type { ApiError } from '../../lib/errors';
import { fromHundredths } from '../../lib/money';
import { toIssues } from '../../lib/validation';
import { field, fieldAll, formErrorsFrom, type FormErrors, type FormFields } from '../../web/forms';
import { MULTIPLIER_SCALE } from '../../promotions/model';

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

/** The rules in an owner's words where the API's name its fields or a number's bounds (the rule is the schema's). */
function worded(name: string, message: string, unit: string): string {
  if (message === 'required') {
    const asked: Record<string, string> = { name: 'Give the promotion a name', startsAt: 'Choose the first day', endsAt: 'Choose the last day', kind: 'Choose whether it multiplies or adds' };
    return asked[name] ?? 'Required';
  }
  if (name === 'multiplier') return 'From 1.1 to 10, with at most one decimal (2 is double)';
  if (name === 'bonus') return `A whole number of ${unit}, at least 1`;
  if (name === 'endsAt' && /before startsAt/.test(message)) return 'The last day cannot be before the first day';
  if (name === 'startsAt' && /after endsAt/.test(message)) return 'The first day cannot be after the last day';
  if (name === 'hoursTo' && /after from/.test(message)) return 'Must be after the start time: a window does not run past midnight';
  return message.charAt(0).toUpperCase() + message.slice(1);
}

function toFormErrors(issues: readonly { path: string; message: string }[], form: PromotionForm, unit: string): FormErrors {
  const errors: FormErrors = { fields: {} };
  for (const issue of issues) {
    const name = fieldOf(issue.path, form.kind);
    const message = worded(name, issue.message, unit);
    if (name === '') errors.form ??= message;
    else errors.fields[name] ??= message;
  }
  return errors;
}

/**
 * The API body the form describes, checked by the API's schema: the promotion to save, or a
 * message per input. `unit` ("stamps", "points") words the bonus's message.
 */
export function validatePromotionForm(form: PromotionForm, unit: string): { ok: true; body: CreatePromotionInput } | { ok: false; errors: FormErrors } {
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
  const errors = result.success ? { fields: {} as Record<string, string> } : toFormErrors(toIssues(result.issues), form, unit);
  if (bothOrNeither) errors.fields[blank(form.hoursFrom) ? 'hoursFrom' : 'hoursTo'] = 'Give both times, or neither for all day';
  if (!result.success || Object.keys(errors.fields).length) return { ok: false, errors };
  return { ok: true, body: result.output };
}

/** The promotions service's refusal (the limit of 10, a start after the end) at its input. */
export function promotionErrorsFrom(err: ApiError, form: PromotionForm, unit: string): FormErrors {
  const issues = err.extra.issues as { path: string; message: string }[] | undefined;
  if (err.code === 'VALIDATION_FAILED' && issues) return toFormErrors(issues, form, unit);
  return formErrorsFrom(err);
}
