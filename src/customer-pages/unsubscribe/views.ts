import type { Card } from '../../cards/model';
import { CSRF_FIELD } from '../../web/csrf';
import { html, type Markup } from '../../web/html';
import { frame } from '../signup/views';

// The unsubscribe page of the reminder and birthday emails, under the card's own heading: the
// question with its one button, then what was done. The card email a customer asks for is not
// affected, and the page says so, so nobody unsubscribes to stop what they never get unasked.

export interface UnsubscribeView {
  card: Card;
  orgName: string;
  logoUrl?: string;
}

/** What expires on the card, in the customer's words. */
const units = (card: Card) => (card.passType === 'stamp_card' ? 'stamps' : card.passType === 'prepaid_card' ? 'credit' : 'points');

export function confirmUnsubscribeBody(view: UnsubscribeView, csrfToken: string): Markup {
  return frame(
    view.card,
    view.orgName,
    null,
    html`<h2>Stop reminder and birthday emails?</h2>
<p>${view.orgName} emails you shortly before ${units(view.card)} on your card expire, and on your birthday. Unsubscribe, and these emails stop.</p>
<p class="muted small">Your card keeps working as before. When you ask for your card by email, it is still sent to you.</p>
<form method="post" class="unsubscribe-form">
  <input type="hidden" name="${CSRF_FIELD}" value="${csrfToken}">
  <button type="submit" class="button big">Unsubscribe</button>
</form>`,
    view.logoUrl,
    false,
  );
}

export function unsubscribedBody(view: UnsubscribeView): Markup {
  return frame(
    view.card,
    view.orgName,
    null,
    html`<div role="status">
  <h2>You are unsubscribed</h2>
  <p>${view.orgName} no longer sends you reminder or birthday emails.</p>
</div>
<p class="muted small">Your card keeps working as before. When you ask for your card by email, it is still sent to you.</p>`,
    view.logoUrl,
    false,
  );
}
