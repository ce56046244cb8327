import type { Card, Question } from '../cards/model';
import { canonicalAnswer } from '../customers/custom-fields';
import { enrollCustomer, type EnrollResult } from '../loyalty/enroll';
import type { AppDeps } from '../deps';
import { t } from '../i18n/translate';
import type { Lang } from '../i18n/langs';
import { isEmail, normalizeTypedPhone, phoneExample, typedPhoneToStore } from '../lib/contact';
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

/** "Enter a phone number such as 01512 3456789, or with the country code: +49 1512 3456789." in a German shop. */
function phoneMessage(lang: Lang, country: string | null): string {
  const example = phoneExample(country);
  return example ? t(lang, 'counter.enroll.phoneInvalid', example) : t(lang, 'counter.enroll.phoneInvalidIntl', { international: '+44 20 7946 0958' });
}

/** Per-field messages (in `lang`, the shop's) for what the card asks, or none. `country`: the shop's, for phone numbers typed without `+`. */
export function checkEnrollValues(lang: Lang, card: Card, values: EnrollValues, country: string | null): FormErrors {
  const errors = noErrors();
  const modes = card.signupFields;
  if (modes.name === 'required' && !values.name) errors.fields.name = t(lang, 'counter.enroll.nameMissing');
  else if (values.name.length > 200) errors.fields.name = t(lang, 'counter.enroll.tooLong', { max: 200 });
  if (modes.email === 'required' && !values.email) errors.fields.email = t(lang, 'counter.enroll.emailMissing');
  else if (values.email && (values.email.length > 254 || !isEmail(values.email))) errors.fields.email = t(lang, 'counter.enroll.emailInvalid');
  if (modes.phone === 'required' && !values.phone) errors.fields.phone = t(lang, 'counter.enroll.phoneMissing');
  else if (values.phone && !typedPhoneToStore(values.phone, country)) errors.fields.phone = phoneMessage(lang, country);
  for (const q of card.questions) {
    const typed = values.answers[q.key] ?? '';
    const given = q.type === 'checkbox' ? typed === 'on' : typed !== '';
    if (!given) {
      if (q.required) errors.fields[questionField(q)] = t(lang, q.type === 'checkbox' ? 'counter.enroll.tick' : 'counter.enroll.answer');
      continue;
    }
    const answer = q.type === 'phone' ? (normalizeTypedPhone(typed, country) ?? typed) : typed;
    if (q.type !== 'checkbox' && canonicalAnswer(q, answer) === undefined) errors.fields[questionField(q)] = answerHint(lang, q, country);
  }
  return errors;
}

function answerHint(lang: Lang, q: Question, country: string | null): string {
  switch (q.type) {
    case 'number':
      return t(lang, 'counter.enroll.number');
    case 'email':
      return t(lang, 'counter.enroll.emailInvalid');
    case 'phone':
      return phoneMessage(lang, country);
    case 'date':
      return t(lang, 'counter.enroll.date');
    case 'select':
      return t(lang, 'counter.enroll.pick');
    default:
      return t(lang, 'counter.enroll.misfit');
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
