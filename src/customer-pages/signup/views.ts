import type { Card, Question } from '../../cards/model';
import type { OrgSettings } from '../../orgs/settings';
import { CSRF_FIELD } from '../../web/csrf';
import { checkboxField, formError, inputField, selectField } from '../../web/fields';
import type { FormErrors } from '../../web/forms';
import { html, type Markup } from '../../web/html';
import { rewardLine } from '../../cards/face';
import type { Lang } from '../../i18n/langs';
import { t } from '../../i18n/translate';
import { languageLinks, withLang } from '../lang';
import { CONSENT_FIELD, CONTACT_LIMITS, HONEYPOT_FIELD, LANG_FIELD, phoneHintText, questionField, SUBMISSION_FIELD, type SignupTyped } from './form';

// The customer's side of the sign-up: one column, big controls, the card's colours, no script.
// Someone at a café counter must get through it on a phone in a minute, in their own language.

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
  lang: Lang;
}

const EMPTY: SignupTyped = { name: '', email: '', phone: '', answers: {}, consent: false };


/** What a framed page says in which language, and how its switcher changes it. */
export interface FrameLang {
  lang: Lang;
  /** The language switcher above the heading (customer-pages/lang.ts). */
  switcher: Markup;
}

/**
 * The card's heading in its own colours, with its logo: the same on the form, on the "already a
 * member" page, on the welcome page after signing up and on the unsubscribe page (which leaves the
 * reward out: it is no page to sell the card on).
 */
export function frame(card: Card, orgName: string, lead: string | Markup | null, content: Markup, logoUrl: string | undefined, language: FrameLang, showReward = true): Markup {
  const reward = showReward ? rewardLine(card, language.lang) : null;
  return html`<main class="signup" id="main">
${language.switcher}
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

function questionControl(q: Question, value: string, error: string | undefined, country: string | null, lang: Lang): Markup {
  const name = questionField(q);
  const common = { name, label: q.label, value, error, required: q.required, lang };
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
      return inputField({ ...common, type: 'tel', autocomplete: 'off', hint: phoneHintText(lang, country) });
    case 'date':
      return inputField({ ...common, type: 'date' });
    case 'select':
      return selectField({ ...common, options: q.options ?? [], placeholder: t(lang, 'common.choose') });
    case 'checkbox':
      return checkboxField({ name, label: q.label, value: 'true', checked: value === 'true', error, required: q.required, lang });
  }
}

/** Every message of a refused form, linked to its field: read first, by eye and by screen reader. `labels` lists the fields in form order. */
function errorSummary(errors: FormErrors, labels: Map<string, string>, lang: Lang): Markup {
  // In the order of the form (labels are), not the order the checks ran in.
  const entries = [...labels.keys()].filter((name) => errors.fields[name] !== undefined).map((name) => [name, errors.fields[name]!] as const);
  if (entries.length === 0) return formError(errors.form);
  return html`<div class="notice error" role="alert">
  <p><strong>${t(lang, 'signup.errors.heading', { count: entries.length })}</strong></p>
  <ul class="signup-errors">${entries.map(([name, message]) => html`<li><a href="#${fieldId(name)}">${t(lang, 'common.labelValue', { label: labels.get(name) ?? name, value: message })}</a></li>`)}</ul>
  ${errors.form ? html`<p>${errors.form}</p>` : ''}
</div>`;
}

/** The id fields.ts gives the input of `name`. */
const fieldId = (name: string) => `f-${name.replace(/[^A-Za-z0-9_-]/g, '-')}`;

export function signupFormBody(view: SignupFormView): Markup {
  const { card, lang } = view;
  const typed = view.typed ?? EMPTY;
  const errors = view.errors ?? { fields: {} };
  const modes = card.signupFields;
  const labels = new Map<string, string>([
    ['name', t(lang, 'signup.name')],
    ['email', t(lang, 'signup.email')],
    ['phone', t(lang, 'signup.phone')],
    ...card.questions.map((q) => [questionField(q), q.label] as [string, string]),
    [CONSENT_FIELD, t(lang, 'signup.agreement')],
  ]);
  const consentHint = view.consent.privacyUrl
    ? html`<a href="${view.consent.privacyUrl}" target="_blank" rel="noopener noreferrer">${t(lang, 'signup.privacy')}</a> ${t(lang, 'signup.privacy.newTab')}`
    : undefined;

  return frame(
    card,
    view.orgName,
    t(lang, 'signup.lead'),
    html`${errorSummary(errors, labels, lang)}
<form method="post" action="/get-pass/${card.id}" class="signup-form" novalidate>
  <input type="hidden" name="${CSRF_FIELD}" value="${view.csrfToken}">
  <input type="hidden" name="${SUBMISSION_FIELD}" value="${view.submission}">
  <input type="hidden" name="${LANG_FIELD}" value="${lang}">
  ${modes.name !== 'off' ? inputField({ name: 'name', label: t(lang, 'signup.name'), value: typed.name, error: errors.fields.name, required: modes.name === 'required', autocomplete: 'name', maxlength: CONTACT_LIMITS.name, lang }) : ''}
  ${modes.email !== 'off' ? inputField({ name: 'email', label: t(lang, 'signup.email'), type: 'email', value: typed.email, error: errors.fields.email, required: modes.email === 'required', autocomplete: 'email', maxlength: CONTACT_LIMITS.email, lang }) : ''}
  ${modes.phone !== 'off' ? inputField({ name: 'phone', label: t(lang, 'signup.phone'), type: 'tel', value: typed.phone, error: errors.fields.phone, required: modes.phone === 'required', autocomplete: 'tel', maxlength: CONTACT_LIMITS.phone, hint: phoneHintText(lang, view.country), lang }) : ''}
  ${card.questions.map((q) => questionControl(q, typed.answers[q.key] ?? '', errors.fields[questionField(q)], view.country, lang))}
  <div class="honeypot" aria-hidden="true">
    <label for="${fieldId(HONEYPOT_FIELD)}">${t(lang, 'signup.honeypot')}</label>
    <input id="${fieldId(HONEYPOT_FIELD)}" name="${HONEYPOT_FIELD}" type="text" tabindex="-1" autocomplete="off" value="">
  </div>
  <div class="signup-consent">
    ${checkboxField({ name: CONSENT_FIELD, label: view.consent.consentText, value: 'yes', checked: typed.consent, error: errors.fields[CONSENT_FIELD], required: true, hint: consentHint, lang })}
  </div>
  <button type="submit" class="big">${t(lang, 'signup.submit')}</button>
</form>`,
    view.logoUrl,
    { lang, switcher: languageLinks(lang, `/get-pass/${encodeURIComponent(card.id)}`) },
  );
}

/**
 * Whatever matched (email, phone or the identifier answer), the same words: nothing says which,
 * and nothing of the member (name, code, link) is on the page.
 */
export function alreadyMemberBody(card: Card, orgName: string, logoUrl: string | undefined, lang: Lang): Markup {
  const form = `/get-pass/${encodeURIComponent(card.id)}`;
  return frame(
    card,
    orgName,
    null,
    html`<div role="status">
  <h2>${t(lang, 'signup.already.heading')}</h2>
  <p>${t(lang, 'signup.already.body')}</p>
</div>
<h3>${t(lang, 'signup.already.howHeading')}</h3>
<p>${t(lang, 'signup.already.how')}</p>
<p class="muted small">${t(lang, 'signup.already.notYou')}</p>
<p><a class="button secondary" href="${withLang(form, lang)}">${t(lang, 'signup.already.back')}</a></p>`,
    logoUrl,
    { lang, switcher: languageLinks(lang, form) },
  );
}
