// Sends a card change to Google's class of the card (live and test): programme name, colour and
// logo live on the class, so one PATCH reaches every saved pass of it. After commit, outside any
// transaction, like the pass updates; the worker retries a failure with the same backoff.
import { cardsRepo } from '../../cards/repo';
import type { Db } from '../../db/connection';
import type { Config } from '../../config';
import { cardClassPatch, cardLoyaltyClass } from '../google/customer-objects';
import type { GoogleTokenSource } from '../google/oauth';
import { patchLoyaltyClass } from '../google/objects';
import type { WalletServices } from '../services';

export interface ClassUpdateDeps {
  db: Db;
  config: Readonly<Config>;
  wallet: WalletServices;
  tokens: GoogleTokenSource | undefined;
  /** The Objects API base without /walletobjects/v1. */
  googleApiBase: string;
  timeoutMs?: number;
}

/** PATCHes the card's classes; returns the failures worth retrying (none: done). */
export async function sendClassUpdate(deps: ClassUpdateDeps, cardId: string): Promise<string[]> {
  const google = deps.wallet.google;
  const card = cardsRepo(deps.db).findById(cardId);
  if (!google || !deps.tokens || !card) return [];
  const errors: string[] = [];
  for (const livemode of [true, false]) {
    try {
      const loyaltyClass = cardLoyaltyClass(deps, google.issuerId, card, livemode);
      const result = await patchLoyaltyClass({
        classId: loyaltyClass.id,
        patch: cardClassPatch(loyaltyClass),
        accessToken: await deps.tokens.getToken(),
        baseUrl: deps.googleApiBase,
        ...(deps.timeoutMs !== undefined ? { timeoutMs: deps.timeoutMs } : {}),
      });
      // 404: no pass of this class was saved yet; the class is created from the next save link.
      if (result.status === 200 || result.status === 404) continue;
      if (result.status === 401) deps.tokens.invalidate();
      errors.push(`Google class answered ${result.status}`);
    } catch (err) {
      errors.push(`Google class: ${(err as Error).message}`);
    }
  }
  return errors;
}
