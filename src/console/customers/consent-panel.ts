import type { Consent } from '../../privacy/consent';
import { html, type Markup } from '../../web/html';
import { formatTime } from '../format';

// What the customer agreed to when they joined through the sign-up form, and when: the wording
// they ticked (the owner may have reworded it since) and its version.

export function consentPanel(consent: Consent | null, timeZone: string): Markup {
  return html`<section class="panel" aria-labelledby="consent-heading">
  <h2 id="consent-heading">Consent</h2>
  ${
    consent
      ? html`<p>Agreed on <strong>${formatTime(consent.givenAt, timeZone)}</strong> on the sign-up form:</p>
  <blockquote class="consent-text">${consent.text}</blockquote>
  <p class="muted small">Version <code>${consent.version}</code> of the agreement.</p>`
      : html`<p class="muted">None recorded: this customer did not join through the sign-up form.</p>`
  }
</section>`;
}
