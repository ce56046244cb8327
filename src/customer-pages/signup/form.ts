import type { Card, Question, QuestionType, SignupFieldMode } from '../../cards/model';
import { validateCustomFields } from '../../customers/custom-fields';
import type { CustomFieldValue } from '../../customers/model';
import { isEmail, normalizeTypedPhone, phoneAsk, typedPhoneToStore } from '../../lib/contact';
import { ApiError } from '../../lib/errors';
import { field, hasErrors, humanMessage, noErrors, type FormErrors, type FormFields } from '../../web/forms';

// The sign-up form's fields, read into what enroll takes. The rules are the API's own — the email
// and phone rules of lib/contact, the answers through validateCustomFields — plus what decisions §7
// leaves to this form: required questions, and the contact fields the card asks for. A value is
// checked once, here and by enroll, by the same functions: the form can only be stricter in
// asking, never in what it accepts. Phone numbers are the one reading of the form's own: a number
// without `+` is a national number of the shop's country (org setting `country`), handed to
// enroll as E.164.

export const CONSENT_FIELD = 'consent';
/** Hidden from people and assistive technology; only a program filling in every field fills it. */
export const HONEYPOT_FIELD = 'website';
/** A random value per shown form: a double-tapped Send answers twice with the same result. */
export const SUBMISSION_FIELD = 'submission';

export const questionField = (q: Pick<Question, 'key'>) => `q.${q.key}`;

export const CONTACT_LIMITS = { name: 200, email: 254, phone: 50 } as const;

/** What the customer typed, kept to show the form again. */
export interface SignupTyped {
  name: string;
  email: string;
  phone: string;
  /** Per question key: the text typed, the option chosen, or 'true' for a ticked box. */
  answers: Record<string, string>;
  consent: boolean;
}

/** A sign-up that passed every check: what enroll receives. */
export interface SignupRequest {
  name: string | null;
  email: string | null;
  phone: string | null;
  customFields: Record<string, CustomFieldValue>;
}

/** The message for a phone number the form cannot read. */
const phoneMisfit = (country: string | null) => `Enter a phone number ${phoneAsk(country)}.`;

/** Per question type: the message for an answer that does not fit, in the customer's words. */
const MISFIT: Record<Exclude<QuestionType, 'phone'>, string> = {
  text: 'Enter some text.',
  number: 'Enter a number, such as 42.',
  email: 'Enter an email address such as name@example.com.',
  select: 'Choose one of the options.',
  date: 'Enter a real date, such as 1990-04-25.',
  checkbox: 'Tick the box or leave it empty.',
};

const MISSING: Record<QuestionType, string> = {
  text: 'Answer this question.',
  number: 'Enter a number.',
  email: 'Enter an email address.',
  phone: 'Enter a phone number.',
  select: 'Choose an option.',
  date: 'Enter a date.',
  checkbox: 'Tick this box to continue.',
};

/** A contact field as the card asks it: off fields are never read (whatever was posted), empty ones are none. */
function contact(mode: SignupFieldMode, typed: string, errors: FormErrors, name: keyof typeof CONTACT_LIMITS, missing: string, check: (text: string) => string | undefined): string | null {
  if (mode === 'off') return null;
  if (typed === '') {
    if (mode === 'required') errors.fields[name] = missing;
    return null;
  }
  const problem = typed.length > CONTACT_LIMITS[name] ? `At most ${CONTACT_LIMITS[name]} characters.` : check(typed);
  if (problem) errors.fields[name] = problem;
  return typed;
}

/** `country`: the shop's (ISO 3166 alpha-2), in which a phone number without `+` is read; null: none. */
export function readSignup(card: Card, fields: FormFields, country: string | null): { typed: SignupTyped; request: SignupRequest | null; errors: FormErrors } {
  const errors = noErrors();
  const typed: SignupTyped = {
    name: field(fields, 'name').trim(),
    email: field(fields, 'email').trim(),
    phone: field(fields, 'phone').trim(),
    answers: {},
    consent: field(fields, CONSENT_FIELD) !== '',
  };
  const modes = card.signupFields;
  const name = contact(modes.name, typed.name, errors, 'name', 'Enter your name.', () => undefined);
  const email = contact(modes.email, typed.email, errors, 'email', 'Enter your email address.', (t) => (isEmail(t) ? undefined : 'Enter an email address such as name@example.com.'));
  // The API stores any phone and only matches an international one; here, where the customer can
  // still correct it, only a number that the counter's search and a second sign-up can find is taken.
  const phoneTyped = contact(modes.phone, typed.phone, errors, 'phone', 'Enter your phone number.', (t) => (typedPhoneToStore(t, country) ? undefined : phoneMisfit(country)));
  const phone = phoneTyped && typedPhoneToStore(phoneTyped, country);

  const answers: Record<string, string | boolean> = {};
  for (const q of card.questions) {
    const raw = field(fields, questionField(q));
    if (q.type === 'checkbox') {
      typed.answers[q.key] = raw;
      // A ticked box sends "true"; anything else sent goes to the API's rule and is refused there.
      answers[q.key] = raw === '' ? false : raw === 'true' ? true : raw;
      if (q.required && raw === '') errors.fields[questionField(q)] = MISSING.checkbox;
      continue;
    }
    const text = raw.trim();
    typed.answers[q.key] = text;
    // A phone answer read as the contact phone is; one that is no number goes on as typed, refused below.
    if (text !== '') answers[q.key] = q.type === 'phone' ? (normalizeTypedPhone(text, country) ?? text) : text;
    else if (q.required) errors.fields[questionField(q)] = MISSING[q.type];
  }

  let customFields: Record<string, CustomFieldValue> = {};
  try {
    customFields = validateCustomFields(card, answers);
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    const keys = err.code === 'CUSTOM_FIELD_VALUE_TYPE_MISMATCH' ? ((err.extra.keys as string[] | undefined) ?? []) : [];
    for (const key of keys) {
      const q = card.questions.find((question) => question.key === key);
      if (q) errors.fields[questionField(q)] ??= q.type === 'phone' ? phoneMisfit(country) : MISFIT[q.type];
    }
    // Keys come from the card itself, so no other refusal can arise; if one did, it is still shown.
    if (keys.length === 0) errors.form = humanMessage(err);
  }

  if (!typed.consent) errors.fields[CONSENT_FIELD] = 'Tick the box to agree: we can only keep your card with your agreement.';
  return { typed, request: hasErrors(errors) ? null : { name, email, phone, customFields }, errors };
}
