import type { MigrationStep } from './step';

export default {
  version: 8,
  name: 'cards edited in the console: logo images, and card changes carried to installed passes',
  sql: `
-- The card's logo as the owner uploaded it, checked and re-encoded as PNG (cards/logo.ts). The
-- wallet draws every size it needs from this one image; sha256 versions the public logo URLs.
CREATE TABLE card_logos (
  card_id      TEXT PRIMARY KEY REFERENCES cards(id) ON DELETE CASCADE,
  png          BLOB NOT NULL,
  width        INTEGER NOT NULL,
  height       INTEGER NOT NULL,
  sha256       TEXT NOT NULL,
  uploaded_at  INTEGER NOT NULL
);

-- A card change every installed pass of the card must show: written with the change (one row,
-- however many customers), then expanded by the pass-update worker in batches of customers, one
-- transaction each, into the per-pass queue (wallet_pass_updates). after_customer is how far the
-- expansion got; a newer change of the card starts it again from the beginning ('').
CREATE TABLE wallet_card_fanouts (
  card_id         TEXT PRIMARY KEY REFERENCES cards(id) ON DELETE CASCADE,
  after_customer  TEXT NOT NULL DEFAULT '',
  queued_at       INTEGER NOT NULL,
  updated_at      INTEGER NOT NULL
);

-- Google Wallet keeps the programme name, colour and logo on the card's class, not on each pass:
-- a card change queues one class update, sent like a pass update (attempts, backoff, lease).
CREATE TABLE wallet_class_updates (
  card_id          TEXT PRIMARY KEY REFERENCES cards(id) ON DELETE CASCADE,
  generation       INTEGER NOT NULL DEFAULT 1,
  attempts         INTEGER NOT NULL DEFAULT 0,
  next_attempt_at  INTEGER,
  lease_until      INTEGER,
  last_error       TEXT,
  queued_at        INTEGER NOT NULL,
  updated_at       INTEGER NOT NULL
);
CREATE INDEX wallet_class_updates_due ON wallet_class_updates (next_attempt_at) WHERE next_attempt_at IS NOT NULL;

-- The fan-out walks a card's customers in id order, a batch at a time.
CREATE INDEX customers_card_id ON customers (card_id, id);
`,
} satisfies MigrationStep;
