import type { Db } from '../db/connection';
import { perConnection } from '../db/per-connection';
import type { Promotion } from './model';

interface RawPromotion {
  id: string;
  card_id: string;
  name: string;
  kind: Promotion['kind'];
  value: number;
  starts_on: string;
  ends_on: string;
  weekdays: string | null;
  hours_from: string | null;
  hours_to: string | null;
  created_at: number;
  updated_at: number;
}

const map = (r: RawPromotion): Promotion => ({
  id: r.id,
  cardId: r.card_id,
  name: r.name,
  kind: r.kind,
  value: r.value,
  startsOn: r.starts_on,
  endsOn: r.ends_on,
  weekdays: r.weekdays === null ? null : (JSON.parse(r.weekdays) as Promotion['weekdays']),
  hours: r.hours_from !== null && r.hours_to !== null ? { from: r.hours_from, to: r.hours_to } : null,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

const columns = (p: Promotion) => ({
  id: p.id,
  cardId: p.cardId,
  name: p.name,
  kind: p.kind,
  value: p.value,
  startsOn: p.startsOn,
  endsOn: p.endsOn,
  weekdays: p.weekdays === null ? null : JSON.stringify(p.weekdays),
  hoursFrom: p.hours?.from ?? null,
  hoursTo: p.hours?.to ?? null,
  createdAt: p.createdAt,
  updatedAt: p.updatedAt,
});

function createPromotionsRepo(db: Db) {
  const insert = db.prepare(
    `INSERT INTO promotions (id, card_id, name, kind, value, starts_on, ends_on, weekdays, hours_from, hours_to, created_at, updated_at)
     VALUES (@id, @cardId, @name, @kind, @value, @startsOn, @endsOn, @weekdays, @hoursFrom, @hoursTo, @createdAt, @updatedAt)`,
  );
  const update = db.prepare(
    `UPDATE promotions SET name = @name, kind = @kind, value = @value, starts_on = @startsOn, ends_on = @endsOn, weekdays = @weekdays,
       hours_from = @hoursFrom, hours_to = @hoursTo, updated_at = @updatedAt
     WHERE id = @id`,
  );
  const remove = db.prepare('DELETE FROM promotions WHERE id = ?');
  const byId = db.prepare<{ cardId: string; id: string }, RawPromotion>('SELECT * FROM promotions WHERE card_id = @cardId AND id = @id');
  // Oldest first; ids sort by creation time, rowid breaks ties within a millisecond.
  const ofCard = db.prepare<[string], RawPromotion>('SELECT * FROM promotions WHERE card_id = ? ORDER BY created_at, rowid');
  // Per earn: through promotions_card (card_id, ends_on), only the rows that may still run; the
  // few found are put in creation order here rather than by a sort in SQL.
  const running = db.prepare<{ cardId: string; earliest: string; latest: string }, RawPromotion & { seq: number }>(
    'SELECT rowid AS seq, * FROM promotions WHERE card_id = @cardId AND ends_on >= @earliest AND starts_on <= @latest',
  );
  const openCount = db.prepare<{ cardId: string; today: string; except: string }, { n: number }>(
    'SELECT count(*) AS n FROM promotions WHERE card_id = @cardId AND ends_on >= @today AND id != @except',
  );

  return {
    insert: (promotion: Promotion) => void insert.run(columns(promotion)),
    update: (promotion: Promotion) => void update.run(columns(promotion)),
    remove: (id: string) => void remove.run(id),
    find(cardId: string, id: string): Promotion | undefined {
      const row = byId.get({ cardId, id });
      return row && map(row);
    },
    listForCard: (cardId: string): Promotion[] => ofCard.all(cardId).map(map),
    /** The card's promotions whose dates overlap [earliest, latest] (`YYYY-MM-DD`). */
    overlapping: (cardId: string, earliest: string, latest: string): Promotion[] =>
      running
        .all({ cardId, earliest, latest })
        .sort((a, b) => a.created_at - b.created_at || a.seq - b.seq)
        .map(map),
    /** Promotions of the card that have not ended by `today`, leaving out `except` (one being changed). */
    openCount: (cardId: string, today: string, except = ''): number => openCount.get({ cardId, today, except })!.n,
  };
}

export const promotionsRepo = perConnection(createPromotionsRepo);
