import type { Card, Question } from '../../cards/model';
import { phoneHint } from '../../lib/contact';
import type { OrgSettings } from '../../orgs/settings';
import { CSRF_FIELD } from '../../web/csrf';
import { checkboxField, formError, inputField, selectField } from '../../web/fields';
import type { FormErrors } from '../../web/forms';
import { html, type Markup } from '../../web/html';
import { rewardLine } from '../../cards/face';
import { CONSENT_FIELD, CONTACT_LIMITS, HONEYPOT_FIELD, questionField, SUBMISSION_FIELD, type SignupTyped } from './form';

// The customer's side of the sign-up: one column, big controls, the card's colours, no script.
// Someone at a café counter must get through it on a phone in a minute.

export interface SignupFormView {
  card: Card;
  orgName: string;
  /** The card's uploaded logo, when it has one. */
  logoUrl?: string;
  consent: OrgSettings['signup'];
  /** The shop's country: phone numbers are asked for the way its people write them. */
  country: string | null;
  csrfToken: string;
  submission: string;
  typed?: SignupTyped;
  errors?: FormErrors;
}

const EMPTY: SignupTyped = { name: '', email: '', phone: '', answers: {}, consent: false };


/**
 * The card's heading in its own colours, with its logo: the same on the form, on the "already a
 * member" page, on the welcome page after signing up and on the unsubscribe page (which leaves the
 * reward out: it is no page to sell the card on).
 */
export function frame(card: Card, orgName: string, lead: string | Markup | null, content: Markup, logoUrl?: string, showReward = true): Markup {
  const reward = showReward ? rewardLine(card) : null;
  return html`<main class="signup" id="main">
<header class="signup-head">
  ${logoUrl ? html`<img class="signup-logo" src="${logoUrl}" alt="${orgName}">` : ''}
  <p class="signup-org">${orgName}</p>
  <h1>${card.name}</h1>
  ${lead ? html`<p class="signup-lead">${lead}</p>` : ''}
  ${reward ? html`<p class="signup-reward">${reward}.</p>` : ''}
</header>
<div class="signup-body">
${content}
</div>
</main>`;
}

function questionControl(q: Question, value: string, error: string | undefined, country: string | null): Markup {
  const name = questionField(q);
  const common = { name, label: q.label, value, error, required: q.required };
  switch (q.type) {
    case 'text':
      return inputField({ ...common, type: 'text' });
    case 'number':
      // A text field with the digit keyboard, not type=number: that one silently empties what it
      // cannot read ("12a" arrives as ""), changes on a scroll wheel, and takes "1e5". The server
      // checks the number and says so in words.
      return inputField({ ...common, type: 'text', inputmode: 'decimal', autocomplete: 'off' });
    case 'email':
      return inputField({ ...common, type: 'email', autocomplete: 'off' });
    case 'phone':
      return inputField({ ...common, type: 'tel', autocomplete: 'off', hint: phoneHint(country) });
    case 'date':
      return inputField({ ...common, type: 'date' });
    case 'select':
      return selectField({ ...common, options: q.options ?? [], placeholder: 'Choose…' });
    case 'checkbox':
      return checkboxField({ name, label: q.label, value: 'true', checked: value === 'true', error, required: q.required });
  }
}

/** Every message of a refused form, linked to its field: read first, by eye and by screen reader. `labels` lists the fields in form order. */
function errorSummary(errors: FormErrors, labels: Map<string, string>): Markup {
  // In the order of the form (labels are), not the order the checks ran in.
  const entries = [...labels.keys()].filter((name) => errors.fields[name] !== undefined).map((name) => [name, errors.fields[name]!] as const);
  if (entries.length === 0) return formError(errors.form);
  return html`<div class="notice error" role="alert">
  <p><strong>Please check ${entries.length === 1 ? 'one answer' : `${entries.length} answers`}:</strong></p>
  <ul class="signup-errors">${entries.map(([name, message]) => html`<li><a href="#${fieldId(name)}">${labels.get(name) ?? name}: ${message}</a></li>`)}</ul>
  ${errors.form ? html`<p>${errors.form}</p>` : ''}
</div>`;
}

/** The id fields.ts gives the input of `name`. */
const fieldId = (name: string) => `f-${name.replace(/[^A-Za-z0-9_-]/g, '-')}`;

export function signupFormBody(view: SignupFormView): Markup {
  const { card } = view;
  const typed = view.typed ?? EMPTY;
  const errors = view.errors ?? { fields: {} };
  const modes = card.signupFields;
  const labels = new Map<string, string>([
    ['name', 'Your name'],
    ['email', 'Email'],
    ['phone', 'Phone'],
    ...card.questions.map((q) => [questionField(q), q.label] as [string, string]),
    [CONSENT_FIELD, 'Agreement'],
  ]);
  const consentHint = view.consent.privacyUrl
    ? html`<a href="${view.consent.privacyUrl}" target="_blank" rel="noopener noreferrer">Read the privacy policy</a> (opens in a new tab)`
    : undefined;

  return frame(
    card,
    view.orgName,
    'Join in a minute: fill in this form and your card is ready to add to your phone.',
    html`${errorSummary(errors, labels)}
<form method="post" action="/get-pass/${card.id}" class="signup-form" novalidate>
  <input type="hidden" name="${CSRF_FIELD}" value="${view.csrfToken}">
  <input type="hidden" name="${SUBMISSION_FIELD}" value="${view.submission}">
  ${modes.name !== 'off' ? inputField({ name: 'name', label: 'Your name', value: typed.name, error: errors.fields.name, required: modes.name === 'required', autocomplete: 'name', maxlength: CONTACT_LIMITS.name }) : ''}
  ${modes.email !== 'off' ? inputField({ name: 'email', label: 'Email', type: 'email', value: typed.email, error: errors.fields.email, required: modes.email === 'required', autocomplete: 'email', maxlength: CONTACT_LIMITS.email }) : ''}
  ${modes.phone !== 'off' ? inputField({ name: 'phone', label: 'Phone', type: 'tel', value: typed.phone, error: errors.fields.phone, required: modes.phone === 'required', autocomplete: 'tel', maxlength: CONTACT_LIMITS.phone, hint: phoneHint(view.country) }) : ''}
  ${card.questions.map((q) => questionControl(q, typed.answers[q.key] ?? '', errors.fields[questionField(q)], view.country))}
  <div class="honeypot" aria-hidden="true">
    <label for="${fieldId(HONEYPOT_FIELD)}">Leave this field empty</label>
    <input id="${fieldId(HONEYPOT_FIELD)}" name="${HONEYPOT_FIELD}" type="text" tabindex="-1" autocomplete="off" value="">
  </div>
  <div class="signup-consent">
    ${checkboxField({ name: CONSENT_FIELD, label: view.consent.consentText, value: 'yes', checked: typed.consent, error: errors.fields[CONSENT_FIELD], required: true, hint: consentHint })}
  </div>
  <button type="submit" class="big">Get my card</button>
</form>`,
    view.logoUrl,
  );
}

/**
 * Whatever matched (email, phone or the identifier answer), the same words: nothing says which,
 * and nothing of the member (name, code, link) is on the page.
 */
export function alreadyMemberBody(card: Card, orgName: string, logoUrl?: string): Markup {
  return frame(
    card,
    orgName,
    null,
    html`<div role="status">
  <h2>You are already a member</h2>
  <p>Someone with the details you entered already has this card, so we did not make a second one.</p>
</div>
<h3>How to get your card back</h3>
<p>Ask at the counter. The staff will find your card and show you a QR code: scan it with your phone's camera and your card opens again, ready to add to your wallet.</p>
<p class="muted small">Not you? If someone else signed up with your details, tell the staff at the counter.</p>
<p><a class="button secondary" href="/get-pass/${card.id}">Back to the form</a></p>`,
    logoUrl,
  );
}
