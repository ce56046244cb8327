import type { Consent } from '../../privacy/consent';
import { html, type Markup } from '../../web/html';
import type { ConsoleLang } from '../../i18n/langs';
import { consoleText, messageWith } from '../message-markup';
import { timeText } from './lang-format';

// What the customer agreed to when they joined through the sign-up form, and when: the wording
// they ticked (the owner may have reworded it since) and its version.

export function consentPanel(lang: ConsoleLang, consent: Consent | null, timeZone: string): Markup {
  const m = consoleText(lang);
  return html`<section class="panel" aria-labelledby="consent-heading">
  <h2 id="consent-heading">${m('console.consent.heading')}</h2>
  ${
    consent
      ? html`<p>${messageWith(lang, 'console.consent.agreed', 'time', html`<strong>${timeText(lang, consent.givenAt, timeZone)}</strong>`)}</p>
  <blockquote class="consent-text">${consent.text}</blockquote>
  <p class="muted small">${messageWith(lang, 'console.consent.version', 'version', html`<code>${consent.version}</code>`)}</p>`
      : html`<p class="muted">${m('console.consent.none')}</p>`
  }
</section>`;
}
