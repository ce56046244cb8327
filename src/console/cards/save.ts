import type { Card, CardLogo } from '../../cards/model';
import type { CardConfigInput } from '../../cards/schemas';
import { createCard, setCardLogo, updateCard } from '../../cards/service';
import { inTransaction } from '../../db/transaction';
import type { AppDeps } from '../../deps';
import { noteStarted } from '../../orgs/service';

/**
 * What the card editor's Save writes, in one transaction: the card (created, or updated), a logo
 * chosen with a new card, and the start checklist's "Design your card" step.
 */
export function saveCardFromEditor(deps: AppDeps, orgId: string, existing: Card | undefined, config: CardConfigInput, logo: CardLogo | undefined): Card {
  return inTransaction(deps.db, () => {
    const saved = existing ? updateCard(deps, orgId, existing.id, config) : createCard(deps, orgId, config);
    if (!existing && logo) setCardLogo(deps, orgId, saved.id, logo);
    noteStarted(deps, orgId, 'cardSavedAt');
    return saved;
  });
}

/** A logo uploaded on its own, and the checklist step it completes, in one transaction. */
export function saveCardLogo(deps: AppDeps, orgId: string, cardId: string, logo: CardLogo): void {
  inTransaction(deps.db, () => {
    setCardLogo(deps, orgId, cardId, logo);
    noteStarted(deps, orgId, 'cardSavedAt');
  });
}
