import * as v from 'valibot';
import type { Card } from '../../cards/model';
import { numberMarksOf, readNumberText } from '../../lib/number-text';
import type { Audience } from '../../messages/model';
import { AudienceMessageBody, CustomerMessageBody } from '../../messages/schemas';
import { field, formErrorsFrom, noErrors, parseForm, type FormErrors, type FormFields } from '../../web/forms';
import type { ApiError } from '../../lib/errors';

// The Messages forms as typed: the same schemas as the API (messages/schemas.ts), their issues put
// on the form's fields in the owner's words. Numbers are read as the shop's country writes them.

export type AudienceChoice = 'all' | 'level' | 'visitedWithinDays' | 'notVisitedForDays' | 'minBalance';
export const AUDIENCE_CHOICES: readonly AudienceChoice[] = ['all', 'level', 'visitedWithinDays', 'notVisitedForDays', 'minBalance'];

/** What the owner typed, kept as text so the form comes back as it was. */
export interface MessageForm {
  header: string;
  body: string;
  audience: AudienceChoice;
  level: string;
  visitedWithinDays: string;
  notVisitedForDays: string;
  minBalance: string;
}

export const emptyMessageForm = (): MessageForm => ({ header: '', body: '', audience: 'all', level: '', visitedWithinDays: '30', notVisitedForDays: '30', minBalance: '' });

export function readMessageForm(fields: FormFields): MessageForm {
  const choice = field(fields, 'audience') as AudienceChoice;
  return {
    header: field(fields, 'header'),
    body: field(fields, 'body'),
    audience: AUDIENCE_CHOICES.includes(choice) ? choice : 'all',
    level: field(fields, 'level'),
    visitedWithinDays: field(fields, 'visitedWithinDays'),
    notVisitedForDays: field(fields, 'notVisitedForDays'),
    minBalance: field(fields, 'minBalance'),
  };
}

/** "at most 40 characters" → "At most 40 characters." */
const sentence = (text: string) => `${text.charAt(0).toUpperCase()}${text.slice(1)}${/[.!?]$/.test(text) ? '' : '.'}`;

/** The message a field shows for an issue, in the owner's words where the API's are terse. */
function fieldMessage(name: string, message: string): string {
  if (message === 'must not be empty' || message === 'required') return name === 'header' ? 'Write a title.' : name === 'body' ? 'Write the message.' : 'Fill this in.';
  return sentence(message);
}

/** API paths (`audience.level`) as the form's field names (`level`). */
function onFields(errors: FormErrors): FormErrors {
  const out = noErrors();
  if (errors.form) out.form = errors.form;
  for (const [path, message] of Object.entries(errors.fields)) {
    const name = path.startsWith('audience.') ? path.slice('audience.'.length) : path;
    out.fields[name] = fieldMessage(name, message);
  }
  return out;
}

/** A service's refusal (VALIDATION_FAILED on audience.level…) on the form's fields. */
export const messageFormErrors = (err: ApiError): FormErrors => onFields(formErrorsFrom(err));

function readCount(text: string, country: string | null, whole: boolean): number | string {
  const reading = readNumberText(text, numberMarksOf(country));
  if (!text.trim()) return 'Enter a number.';
  if (!reading.ok) return whole ? 'Enter a whole number.' : 'Enter a number such as 10 or 12.50.';
  return reading.value;
}

/** The audience the form names, or the error on its field. */
export function audienceOf(form: MessageForm, card: Card, country: string | null): { ok: true; audience: Audience } | { ok: false; errors: FormErrors } {
  const fail = (name: string, message: string) => ({ ok: false as const, errors: { fields: { [name]: message } } });
  switch (form.audience) {
    case 'all':
      return { ok: true, audience: 'all' };
    case 'level':
      return form.level ? { ok: true, audience: { level: form.level } } : fail('level', 'Choose a level.');
    case 'minBalance': {
      const value = readCount(form.minBalance, country, card.passType !== 'prepaid_card');
      return typeof value === 'string' ? fail('minBalance', value) : { ok: true, audience: { minBalance: value } };
    }
    default: {
      const value = readCount(form[form.audience], country, true);
      return typeof value === 'string' ? fail(form.audience, value) : { ok: true, audience: { [form.audience]: value } as Audience };
    }
  }
}

/** The audience message the form holds, checked by the API's own schema; every field's issue at once. */
export function parseAudienceMessage(form: MessageForm, card: Card, country: string | null) {
  const audience = audienceOf(form, card, country);
  const parsed = parseForm(AudienceMessageBody, { header: form.header, body: form.body, audience: audience.ok ? audience.audience : 'all' });
  const errors = onFields(parsed.ok ? noErrors() : parsed.errors);
  if (!audience.ok) Object.assign(errors.fields, audience.errors.fields);
  if (!parsed.ok || !audience.ok) return { ok: false as const, errors };
  return { ok: true as const, value: parsed.value };
}

/** Just the audience, for the count before sending: its own field's error, or the audience. */
export function parseAudience(form: MessageForm, card: Card, country: string | null): { ok: true; audience: Audience } | { ok: false; errors: FormErrors } {
  const audience = audienceOf(form, card, country);
  if (!audience.ok) return audience;
  const parsed = parseForm(v.object({ audience: AudienceMessageBody.entries.audience }), { audience: audience.audience });
  return parsed.ok ? { ok: true, audience: parsed.value.audience } : { ok: false, errors: onFields(parsed.errors) };
}

/** A one-customer message as typed. */
export function parseCustomerMessage(form: Pick<MessageForm, 'header' | 'body'>) {
  const parsed = parseForm(CustomerMessageBody, { header: form.header, body: form.body });
  return parsed.ok ? parsed : { ok: false as const, errors: onFields(parsed.errors) };
}
