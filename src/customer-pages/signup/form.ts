import type { Card, Question, QuestionType, SignupFieldMode } from '../../cards/model';
import { validateCustomFields } from '../../customers/custom-fields';
import type { CustomFieldValue } from '../../customers/model';
import type { Lang } from '../../i18n/langs';
import { t, type MessageKey } from '../../i18n/translate';
import { isEmail, normalizeTypedPhone, phoneExample, typedPhoneToStore } from '../../lib/contact';
import { ApiError } from '../../lib/errors';
import { field, hasErrors, humanMessage, noErrors, type FormErrors, type FormFields } from '../../web/forms';

// The sign-up form's fields, read into what enroll takes. The rules are the API's own — the email
// and phone rules of lib/contact, the answers through validateCustomFields — plus what only a form
// asks for: answers to required questions, and the contact fields the card asks for. A value is
// checked once, here and by enroll, by the same functions: the form can only be stricter in
// asking, never in what it accepts. Phone numbers are the one reading of the form's own: a number
// without `+` is a national number of the shop's country (org setting `country`), handed to
// enroll as E.164. The messages are in the page's language.

export const CONSENT_FIELD = 'consent';
/** Hidden from people and assistive technology; only a program filling in every field fills it. */
export const HONEYPOT_FIELD = 'website';
/** The language the form was shown in: the refused form comes back in it, and the new customer keeps it. */
export const LANG_FIELD = 'lang';
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

/** When the shop has no country: an international number, as the rest of the product shows one. */
const INTERNATIONAL_EXAMPLE = '+44 20 7946 0958';

/** A phone number is read as one piece: its spaces never break a line (on a phone, "+49 1512" / "3456789" misleads). */
const unbroken = (number: string) => number.replace(/ /g, '\u00a0');

/** The shop's country's example number, national and international, else the international one. */
function phoneExamples(country: string | null): { national: string; international: string } | null {
  const example = phoneExample(country);
  return example && { national: unbroken(example.national), international: unbroken(example.international) };
}

/** The hint under a phone field: the shop's country's own example, national and international. */
export function phoneHintText(lang: Lang, country: string | null): string {
  const example = phoneExamples(country);
  return example ? t(lang, 'signup.phone.hint', example) : t(lang, 'signup.phone.hint.noCountry', { example: unbroken(INTERNATIONAL_EXAMPLE) });
}

/** The message for a phone number the form cannot read. */
function phoneMisfit(lang: Lang, country: string | null): string {
  const example = phoneExamples(country);
  return example ? t(lang, 'signup.phone.misfit', example) : t(lang, 'signup.phone.misfit.noCountry', { example: unbroken(INTERNATIONAL_EXAMPLE) });
}

/** Per question type: the message for an answer that does not fit, in the customer's words. */
const MISFIT: Record<Exclude<QuestionType, 'phone'>, MessageKey> = {
  text: 'signup.misfit.text',
  number: 'signup.misfit.number',
  email: 'signup.misfit.email',
  select: 'signup.misfit.select',
  date: 'signup.misfit.date',
  checkbox: 'signup.misfit.checkbox',
};

const MISSING: Record<QuestionType, MessageKey> = {
  text: 'signup.missing.text',
  number: 'signup.missing.number',
  email: 'signup.missing.emailAnswer',
  phone: 'signup.missing.phoneAnswer',
  select: 'signup.missing.select',
  date: 'signup.missing.date',
  checkbox: 'signup.missing.checkbox',
};

/** A contact field as the card asks it: off fields are never read (whatever was posted), empty ones are none. */
function contact(lang: Lang, mode: SignupFieldMode, typed: string, errors: FormErrors, name: keyof typeof CONTACT_LIMITS, missing: MessageKey, check: (text: string) => string | undefined): string | null {
  if (mode === 'off') return null;
  if (typed === '') {
    if (mode === 'required') errors.fields[name] = t(lang, missing);
    return null;
  }
  const problem = typed.length > CONTACT_LIMITS[name] ? t(lang, 'signup.tooLong', { max: CONTACT_LIMITS[name] }) : check(typed);
  if (problem) errors.fields[name] = problem;
  return typed;
}

/** `country`: the shop's (ISO 3166 alpha-2), in which a phone number without `+` is read; null: none. `lang`: the messages'. */
export function readSignup(card: Card, fields: FormFields, country: string | null, lang: Lang = 'en'): { typed: SignupTyped; request: SignupRequest | null; errors: FormErrors } {
  const errors = noErrors();
  const typed: SignupTyped = {
    name: field(fields, 'name').trim(),
    email: field(fields, 'email').trim(),
    phone: field(fields, 'phone').trim(),
    answers: {},
    consent: field(fields, CONSENT_FIELD) !== '',
  };
  const modes = card.signupFields;
  const name = contact(lang, modes.name, typed.name, errors, 'name', 'signup.missing.name', () => undefined);
  const email = contact(lang, modes.email, typed.email, errors, 'email', 'signup.missing.email', (text) => (isEmail(text) ? undefined : t(lang, 'signup.misfit.email')));
  // The API stores any phone and only matches an international one; here, where the customer can
  // still correct it, only a number that the counter's search and a second sign-up can find is taken.
  const phoneTyped = contact(lang, modes.phone, typed.phone, errors, 'phone', 'signup.missing.phone', (text) => (typedPhoneToStore(text, country) ? undefined : phoneMisfit(lang, country)));
  const phone = phoneTyped && typedPhoneToStore(phoneTyped, country);

  const answers: Record<string, string | boolean> = {};
  for (const q of card.questions) {
    const raw = field(fields, questionField(q));
    if (q.type === 'checkbox') {
      typed.answers[q.key] = raw;
      // A ticked box sends "true"; anything else sent goes to the API's rule and is refused there.
      answers[q.key] = raw === '' ? false : raw === 'true' ? true : raw;
      if (q.required && raw === '') errors.fields[questionField(q)] = t(lang, MISSING.checkbox);
      continue;
    }
    const text = raw.trim();
    typed.answers[q.key] = text;
    // A phone answer read as the contact phone is; one that is no number goes on as typed, refused below.
    if (text !== '') answers[q.key] = q.type === 'phone' ? (normalizeTypedPhone(text, country) ?? text) : text;
    else if (q.required) errors.fields[questionField(q)] = t(lang, MISSING[q.type]);
  }

  let customFields: Record<string, CustomFieldValue> = {};
  try {
    customFields = validateCustomFields(card, answers);
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    const keys = err.code === 'CUSTOM_FIELD_VALUE_TYPE_MISMATCH' ? ((err.extra.keys as string[] | undefined) ?? []) : [];
    for (const key of keys) {
      const q = card.questions.find((question) => question.key === key);
      if (q) errors.fields[questionField(q)] ??= q.type === 'phone' ? phoneMisfit(lang, country) : t(lang, MISFIT[q.type]);
    }
    // Keys come from the card itself, so no other refusal can arise; if one did, it is still shown.
    if (keys.length === 0) errors.form = lang === 'en' ? humanMessage(err) : t(lang, 'errors.refused', { code: err.code });
  }

  if (!typed.consent) errors.fields[CONSENT_FIELD] = t(lang, 'signup.missing.consent');
  return { typed, request: hasErrors(errors) ? null : { name, email, phone, customFields }, errors };
}
