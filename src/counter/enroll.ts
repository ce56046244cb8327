import type { Card, Question } from '../cards/model';
import { canonicalAnswer } from '../customers/custom-fields';
import { enrollCustomer, type EnrollResult } from '../loyalty/enroll';
import type { AppDeps } from '../deps';
import { isEmail, normalizeTypedPhone, phoneAsk, typedPhoneToStore } from '../lib/contact';
import { field, noErrors, type FormErrors, type FormFields } from '../web/forms';
import type { CounterActor } from './service';

// Enrolling at the counter: the contact fields the card's sign-up form asks
// (signupFields) and the card's questions, checked here with a message per field, then handed to
// the same enrollCustomer as the API (channel `scan`, the staff member). A person already on the
// card with this email or phone is matched, not duplicated: the counter then shows them. A phone
// number typed without `+` is a national number of the shop's country, handed on as E.164.

export interface EnrollValues {
  name: string;
  email: string;
  phone: string;
  /** Answers by question key, as typed (a checkbox: 'on' or ''). */
  answers: Record<string, string>;
}

export const questionField = (q: Question) => `q.${q.key}`;

export function enrollValues(card: Card, form: FormFields): EnrollValues {
  return {
    name: field(form, 'name').trim(),
    email: field(form, 'email').trim(),
    phone: field(form, 'phone').trim(),
    answers: Object.fromEntries(card.questions.map((q) => [q.key, field(form, questionField(q)).trim()])),
  };
}

const phoneMessage = (country: string | null) => `Enter a phone number ${phoneAsk(country)}.`;

/** Per-field messages for what the card asks, or none. `country`: the shop's, for phone numbers typed without `+`. */
export function checkEnrollValues(card: Card, values: EnrollValues, country: string | null): FormErrors {
  const errors = noErrors();
  const modes = card.signupFields;
  if (modes.name === 'required' && !values.name) errors.fields.name = 'Enter the customer’s name.';
  else if (values.name.length > 200) errors.fields.name = 'At most 200 characters.';
  if (modes.email === 'required' && !values.email) errors.fields.email = 'Enter the customer’s email.';
  else if (values.email && (values.email.length > 254 || !isEmail(values.email))) errors.fields.email = 'Enter an email address such as name@example.com.';
  if (modes.phone === 'required' && !values.phone) errors.fields.phone = 'Enter the customer’s phone number.';
  else if (values.phone && !typedPhoneToStore(values.phone, country)) errors.fields.phone = phoneMessage(country);
  for (const q of card.questions) {
    const typed = values.answers[q.key] ?? '';
    const given = q.type === 'checkbox' ? typed === 'on' : typed !== '';
    if (!given) {
      if (q.required) errors.fields[questionField(q)] = q.type === 'checkbox' ? 'This box must be ticked.' : 'This question must be answered.';
      continue;
    }
    const answer = q.type === 'phone' ? (normalizeTypedPhone(typed, country) ?? typed) : typed;
    if (q.type !== 'checkbox' && canonicalAnswer(q, answer) === undefined) errors.fields[questionField(q)] = answerHint(q, country);
  }
  return errors;
}

function answerHint(q: Question, country: string | null): string {
  switch (q.type) {
    case 'number':
      return 'Enter a number.';
    case 'email':
      return 'Enter an email address such as name@example.com.';
    case 'phone':
      return phoneMessage(country);
    case 'date':
      return 'Enter a date.';
    case 'select':
      return 'Pick one of the choices.';
    default:
      return 'This answer does not fit the question.';
  }
}

/** Enrolls (or matches) through the shared service; runs inside the caller's idempotent transaction. Values checked by checkEnrollValues. */
export function enrollAtCounter(deps: AppDeps, actor: CounterActor, card: Card, values: EnrollValues, idempotencyKey: string, country: string | null): EnrollResult {
  const customFields: Record<string, string | boolean> = {};
  for (const q of card.questions) {
    const typed = values.answers[q.key] ?? '';
    if (q.type === 'checkbox') {
      if (typed === 'on') customFields[q.key] = true;
    } else if (typed !== '') customFields[q.key] = q.type === 'phone' ? (normalizeTypedPhone(typed, country) ?? typed) : typed;
  }
  const ask = (mode: string, value: string) => (mode !== 'off' && value ? value : null);
  const phone = ask(card.signupFields.phone, values.phone);
  return enrollCustomer(
    deps,
    actor.namespace,
    { cardId: card.id, name: ask(card.signupFields.name, values.name), email: ask(card.signupFields.email, values.email), phone: phone && (typedPhoneToStore(phone, country) ?? phone), customFields },
    { channel: 'scan', staff: actor.staff, idempotencyKey },
  );
}
