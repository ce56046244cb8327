import { randomInt } from 'node:crypto';
import type { Db, MigrationStep } from './step';

/**
 * A card's single `reward` becomes the first (and only) entry of its `rewards` list, with an id of
 * its own, and the old column goes: the list is the one stored copy, and `reward` is read as its
 * first entry. Level and prepaid cards that carried a reward keep it the same way, so what every
 * card shows is unchanged. The watch-list threshold (NULL: the default) and the value of a unit
 * (ten-thousandths of the currency, NULL: not set) start unset.
 */
function rewardLists(db: Db): void {
  db.exec(`
-- The card's rewards, the first one the default: [{ id, name, cost, description? }], cost in hundredths.
ALTER TABLE cards ADD COLUMN rewards TEXT NOT NULL DEFAULT '[]';
-- More awards than this in one shop day put a customer on the watch list; NULL: the default (6).
ALTER TABLE cards ADD COLUMN flag_awards_per_day INTEGER;
-- The money one unit is worth, in ten-thousandths of the card's currency; NULL: not set.
ALTER TABLE cards ADD COLUMN unit_value_e4 INTEGER;
`);
  const update = db.prepare('UPDATE cards SET rewards = @rewards WHERE id = @id');
  for (const card of db.prepare('SELECT id, reward FROM cards WHERE reward IS NOT NULL').all() as { id: string; reward: string }[]) {
    const { name, cost } = JSON.parse(card.reward) as { name: string; cost: number };
    update.run({ id: card.id, rewards: JSON.stringify([{ id: rewardId(), name, cost }]) });
  }
  db.exec('ALTER TABLE cards DROP COLUMN reward');
}

/** `rw_` and 20 random base62 symbols: the form of the program's reward ids (lib/ids.ts) at this version. */
function rewardId(): string {
  const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
  let out = 'rw_';
  for (let i = 0; i < 20; i++) out += alphabet[randomInt(62)];
  return out;
}

export default {
  version: 23,
  name: 'several rewards per card, the watch-list threshold and the value of a unit',
  run: rewardLists,
} satisfies MigrationStep;
