import type { Db } from '../../db/connection';
import { perConnection } from '../../db/per-connection';
import type { CustomFieldValue } from '../../customers/model';

// The one lookup the sign-up form needs beyond enroll's own (email, phone): is this answer to the
// card's identifier question already someone's? Answers are stored canonical (custom-fields.ts),
// so an equal canonical answer is an equal JSON value: a number matches only a number, a string
// only a string. Question keys are letters, digits and _ (the card schema), so `$.key` is a
// well-formed JSON path for every one.

function createSignupRepo(db: Db) {
  const byAnswer = db.prepare<{ cardId: string; livemode: number; path: string; value: string | number }, { n: number }>(
    `SELECT count(*) AS n FROM customers
     WHERE card_id = @cardId AND livemode = @livemode AND json_extract(custom_fields, @path) = @value`,
  );
  // Email answers are kept as typed; two spellings that differ only in ASCII case are one mailbox.
  const byEmailAnswer = db.prepare<{ cardId: string; livemode: number; path: string; value: string }, { n: number }>(
    `SELECT count(*) AS n FROM customers
     WHERE card_id = @cardId AND livemode = @livemode AND json_extract(custom_fields, @path) = @value COLLATE NOCASE`,
  );

  return {
    /** Customers of the card (in live or test data) whose answer to `key` equals `value` (canonical). */
    countWithAnswer(cardId: string, livemode: boolean, key: string, value: CustomFieldValue, caseless: boolean): number {
      const params = { cardId, livemode: livemode ? 1 : 0, path: `$.${key}` };
      if (typeof value === 'boolean') return 0; // checkboxes are never identifiers (IDENTIFIER_TYPES)
      if (caseless && typeof value === 'string') return byEmailAnswer.get({ ...params, value })!.n;
      return byAnswer.get({ ...params, value })!.n;
    },
  };
}

export const signupRepo = perConnection(createSignupRepo);
