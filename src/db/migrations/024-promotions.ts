import type { MigrationStep } from './step';

export default {
  version: 24,
  name: 'promotions: multipliers and bonuses on dates, weekdays and hours',
  sql: `
-- A card's promotions. Dates are the shop's calendar days (inclusive), hours its wall clock,
-- [hours_from, hours_to) on each day that qualifies. value: a multiplier times 10 (11-100, so 1.5
-- is 15) or a bonus in hundredths. An earn reads the card's promotions that have not ended through
-- promotions_card, so a card without any costs it one empty index lookup.
CREATE TABLE promotions (
  id          TEXT PRIMARY KEY,
  card_id     TEXT NOT NULL REFERENCES cards(id) ON DELETE CASCADE,
  name        TEXT NOT NULL,
  kind        TEXT NOT NULL CHECK (kind = 'multiplier' OR kind = 'bonus'),
  value       INTEGER NOT NULL CHECK (value > 0),
  starts_on   TEXT NOT NULL,
  ends_on     TEXT NOT NULL CHECK (ends_on >= starts_on),
  weekdays    TEXT,
  hours_from  TEXT,
  hours_to    TEXT CHECK ((hours_from IS NULL) = (hours_to IS NULL) AND (hours_to IS NULL OR hours_to > hours_from)),
  created_at  INTEGER NOT NULL,
  updated_at  INTEGER NOT NULL
);
CREATE INDEX promotions_card ON promotions (card_id, ends_on);
`,
} satisfies MigrationStep;
