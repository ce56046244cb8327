import type { Card } from '../../cards/model';
import { CSRF_FIELD } from '../../web/csrf';
import { html, type Markup } from '../../web/html';
import type { Lang } from '../../i18n/langs';
import { t } from '../../i18n/translate';
import { frame, type FrameLang } from '../signup/views';

// The unsubscribe page of the reminder and birthday emails, under the card's own heading: the
// question with its one button, then what was done. The card email a customer asks for is not
// affected, and the page says so, so nobody unsubscribes to stop what they never get unasked.

export interface UnsubscribeView {
  card: Card;
  orgName: string;
  logoUrl?: string;
  language: FrameLang;
}

/** What expires on the card: the unsubscribe.explain message's choice. */
const units = (card: Card) => (card.passType === 'stamp_card' ? 'stamp' : card.passType === 'prepaid_card' ? 'credit' : 'point');

export function confirmUnsubscribeBody(view: UnsubscribeView, csrfToken: string): Markup {
  const { lang }: { lang: Lang } = view.language;
  return frame(
    view.card,
    view.orgName,
    null,
    html`<h2>${t(lang, 'unsubscribe.question')}</h2>
<p>${t(lang, 'unsubscribe.explain', { kind: units(view.card), shop: view.orgName })}</p>
<p class="muted small">${t(lang, 'unsubscribe.keeps')}</p>
<form method="post" class="unsubscribe-form">
  <input type="hidden" name="${CSRF_FIELD}" value="${csrfToken}">
  <button type="submit" class="button big">${t(lang, 'unsubscribe.button')}</button>
</form>`,
    view.logoUrl,
    view.language,
    false,
  );
}

export function unsubscribedBody(view: UnsubscribeView): Markup {
  const { lang } = view.language;
  return frame(
    view.card,
    view.orgName,
    null,
    html`<div role="status">
  <h2>${t(lang, 'unsubscribe.done.heading')}</h2>
  <p>${t(lang, 'unsubscribe.done.body', { shop: view.orgName })}</p>
</div>
<p class="muted small">${t(lang, 'unsubscribe.keeps')}</p>`,
    view.logoUrl,
    view.language,
    false,
  );
}
