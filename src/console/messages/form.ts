import * as v from 'valibot';
import type { Card } from '../../cards/model';
import type { ConsoleLang } from '../../i18n/langs';
import { tConsole, type ConsoleKey, type MessageParams } from '../../i18n/translate';
import type { ApiError } from '../../lib/errors';
import { hasAtMostDecimals, MAX_UNITS } from '../../lib/money';
import { numberMarksOf, readNumberText } from '../../lib/number-text';
import { BODY_MAX, HEADER_MAX, MAX_DAYS, type Audience } from '../../messages/model';
import { AudienceMessageBody, CustomerMessageBody } from '../../messages/schemas';
import { field, noErrors, parseForm, type FormErrors, type FormFields } from '../../web/forms';
import { consoleFormErrors } from '../refusals';

// The Messages forms as typed. Each field is judged here first, in the admin's language, by the
// same limits as the API's (messages/model.ts); the API's own schema then checks the result, so
// the console can never send what the API would refuse. Numbers are read as the shop's country
// writes them.

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

type Say = (key: ConsoleKey, params?: MessageParams) => string;
const sayer = (lang: ConsoleLang): Say => (key, params) => tConsole(lang, key, params);

/** The title's and the message's problems, as the API's limits judge them (after the trim). */
function textErrors(say: Say, form: Pick<MessageForm, 'header' | 'body'>): FormErrors {
  const errors = noErrors();
  const header = form.header.trim();
  const body = form.body.trim();
  if (/[\r\n]/.test(form.header)) errors.fields.header = say('console.messages.error.headerOneLine');
  else if (!header) errors.fields.header = say('console.messages.error.headerEmpty');
  else if (header.length > HEADER_MAX) errors.fields.header = say('console.messages.error.tooLong', { max: HEADER_MAX });
  if (!body) errors.fields.body = say('console.messages.error.bodyEmpty');
  else if (body.length > BODY_MAX) errors.fields.body = say('console.messages.error.tooLong', { max: BODY_MAX });
  return errors;
}

/** Any issue the API's schema still finds (paths such as `audience.level`), on the form's field. */
function onFields(say: Say, errors: FormErrors): FormErrors {
  const out = noErrors();
  if (errors.form) out.form = errors.form;
  for (const path of Object.keys(errors.fields)) {
    const name = path.startsWith('audience.') ? path.slice('audience.'.length) : path;
    out.fields[name] = say(name === 'level' ? 'console.messages.error.level' : 'console.messages.error.invalid');
  }
  return out;
}

/** A service's refusal (VALIDATION_FAILED on audience.level, a fraction of a stamp) on the form's fields. */
export function messageFormErrors(lang: ConsoleLang, err: ApiError): FormErrors {
  const say = sayer(lang);
  const errors = consoleFormErrors(lang, err);
  const out = onFields(say, { fields: errors.fields });
  if (out.fields.minBalance) out.fields.minBalance = say('console.messages.error.wholeNumber');
  if (errors.form) out.form = errors.form;
  return out;
}

function readCount(say: Say, text: string, country: string | null, whole: boolean): number | string {
  if (!text.trim()) return say('console.messages.error.number');
  const marks = numberMarksOf(country);
  // An amount as the shop's country writes it: "12.50", "12,50".
  const example = `12${marks?.decimal ?? '.'}50`;
  const reading = readNumberText(text, marks);
  if (!reading.ok) return whole ? say('console.messages.error.wholeNumber') : say('console.messages.error.amount', { example });
  if (whole && !Number.isInteger(reading.value)) return say('console.messages.error.wholeNumber');
  if (!whole && !hasAtMostDecimals(reading.value, 2)) return say('console.messages.error.amount', { example });
  return reading.value;
}

/** The audience the form names, or the error on its field. */
function audienceOf(say: Say, form: MessageForm, card: Card, country: string | null): { ok: true; audience: Audience } | { ok: false; errors: FormErrors } {
  const fail = (name: string, message: string) => ({ ok: false as const, errors: { fields: { [name]: message } } });
  switch (form.audience) {
    case 'all':
      return { ok: true, audience: 'all' };
    case 'level': {
      const levels = card.passType === 'level_card' ? (card.levels ?? []).map((l) => l.name) : [];
      if (!form.level) return fail('level', say('console.messages.error.level'));
      if (!levels.some((name) => name.toLowerCase() === form.level.trim().toLowerCase())) {
        return fail('level', say('console.messages.error.levelUnknown', { level: form.level, levels: levels.join(', ') }));
      }
      return { ok: true, audience: { level: form.level } };
    }
    case 'minBalance': {
      const value = readCount(say, form.minBalance, country, card.passType !== 'prepaid_card');
      if (typeof value === 'string') return fail('minBalance', value);
      if (value < 0) return fail('minBalance', say('console.messages.error.notNegative'));
      if (value > MAX_UNITS) return fail('minBalance', say('console.messages.error.tooLarge', { max: MAX_UNITS }));
      return { ok: true, audience: { minBalance: value } };
    }
    default: {
      const value = readCount(say, form[form.audience], country, true);
      if (typeof value === 'string') return fail(form.audience, value);
      if (value < 1 || value > MAX_DAYS) return fail(form.audience, say('console.messages.error.days', { max: MAX_DAYS }));
      return { ok: true, audience: { [form.audience]: value } as Audience };
    }
  }
}

/** The audience message the form holds; every field's issue at once. */
export function parseAudienceMessage(lang: ConsoleLang, form: MessageForm, card: Card, country: string | null) {
  const say = sayer(lang);
  const audience = audienceOf(say, form, card, country);
  const errors = textErrors(say, form);
  if (!audience.ok) Object.assign(errors.fields, audience.errors.fields);
  if (!audience.ok || Object.keys(errors.fields).length > 0) return { ok: false as const, errors };
  const parsed = parseForm(AudienceMessageBody, { header: form.header, body: form.body, audience: audience.audience });
  return parsed.ok ? { ok: true as const, value: parsed.value } : { ok: false as const, errors: onFields(say, parsed.errors) };
}

/** Just the audience, for the count before sending: its own field's error, or the audience. */
export function parseAudience(lang: ConsoleLang, form: MessageForm, card: Card, country: string | null): { ok: true; audience: Audience } | { ok: false; errors: FormErrors } {
  const say = sayer(lang);
  const audience = audienceOf(say, form, card, country);
  if (!audience.ok) return audience;
  const parsed = parseForm(v.object({ audience: AudienceMessageBody.entries.audience }), { audience: audience.audience });
  return parsed.ok ? { ok: true, audience: parsed.value.audience } : { ok: false, errors: onFields(say, parsed.errors) };
}

/** A one-customer message as typed. */
export function parseCustomerMessage(lang: ConsoleLang, form: Pick<MessageForm, 'header' | 'body'>) {
  const say = sayer(lang);
  const errors = textErrors(say, form);
  if (Object.keys(errors.fields).length > 0) return { ok: false as const, errors };
  const parsed = parseForm(CustomerMessageBody, { header: form.header, body: form.body });
  return parsed.ok ? parsed : { ok: false as const, errors: onFields(say, parsed.errors) };
}
