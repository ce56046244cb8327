import type { WriteDeps } from '../deps';
import { badRequest } from '../lib/errors';
import { PASS_TYPE_NAMES, takesRewards, takesUnitValue, type Card } from './model';
import { cardsRepo } from './repo';
import { rewardsFromInput, withRewards, type RewardInput } from './rewards';

// PATCH /v1/cards/{cardId}'s program fields: the reward list, the watch-list threshold and the
// value of a unit. Each field sent is set; the others stay as they are.

export interface ProgramPatch {
  rewards?: RewardInput[] | undefined;
  flagAwardsPerDay?: number | null | undefined;
  unitValue?: number | null | undefined;
}

/**
 * Sets the fields `patch` sends on `card`, inside the caller's transaction, and returns the card
 * as stored. A field the card's type cannot have is 400 UNSUPPORTED_FOR_CARD_TYPE; an entry's id
 * the card does not have is 400 VALIDATION_FAILED. A new reward list reaches every installed pass.
 */
export function applyProgramPatch(deps: WriteDeps, card: Card, patch: ProgramPatch): Card {
  const sent = patch.rewards !== undefined || patch.flagAwardsPerDay !== undefined || patch.unitValue !== undefined;
  if (!sent) return card;
  if (patch.rewards !== undefined && !takesRewards(card.passType)) {
    throw badRequest('UNSUPPORTED_FOR_CARD_TYPE', `a ${PASS_TYPE_NAMES[card.passType]} has no rewards; stamp and point cards do`);
  }
  if (patch.unitValue !== undefined && !takesUnitValue(card.passType)) {
    throw badRequest('UNSUPPORTED_FOR_CARD_TYPE', 'store credit is money already: a prepaid card has no unitValue');
  }
  const updated: Card = {
    ...card,
    ...(patch.rewards !== undefined ? withRewards(rewardsFromInput(card.rewards, patch.rewards)) : {}),
    flagAwardsPerDay: patch.flagAwardsPerDay === undefined ? card.flagAwardsPerDay : patch.flagAwardsPerDay,
    unitValueE4: patch.unitValue === undefined ? card.unitValueE4 : patch.unitValue === null ? null : Math.round(patch.unitValue * 10_000),
    updatedAt: deps.clock.now(),
  };
  cardsRepo(deps.db).updateProgram(updated);
  if (JSON.stringify(updated.rewards) !== JSON.stringify(card.rewards)) deps.onChange.cardChanged(deps, card.id);
  return updated;
}
