import type { MigrationStep } from './step';

export default {
  version: 7,
  name: 'cards: the contact fields of the sign-up form',
  sql: `
-- What the card's sign-up form asks besides its questions: { name, email, phone }, each required,
-- optional or off. NULL reads as the default (cards/model.ts DEFAULT_SIGNUP_FIELDS).
ALTER TABLE cards ADD COLUMN signup_fields TEXT;
`,
} satisfies MigrationStep;
