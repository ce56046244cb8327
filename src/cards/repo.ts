import type { Db } from '../db/connection';
import { perConnection } from '../db/per-connection';
import { DEFAULT_SIGNUP_FIELDS, type Card, type CardCustomerCounts, type CardLogo, type CardLogoMeta, type Reward } from './model';
import { withRewards } from './rewards';

interface RawCard {
  id: string;
  org_id: string;
  name: string;
  pass_type: Card['passType'];
  data_collection_enabled: number;
  signup_fields: string | null;
  questions: string;
  rewards: string;
  flag_awards_per_day: number | null;
  unit_value_e4: number | null;
  levels: string | null;
  accrual: string | null;
  earning_limits: string | null;
  design: string | null;
  archived_at: number | null;
  expiry: string | null;
  birthday: string | null;
  lots_since: number | null;
  created_at: number;
  updated_at: number;
}

const json = <T>(text: string | null): T | null => (text === null ? null : (JSON.parse(text) as T));
const text = (value: unknown): string | null => (value === null || value === undefined ? null : JSON.stringify(value));

const map = (r: RawCard): Card => ({
  id: r.id,
  orgId: r.org_id,
  name: r.name,
  passType: r.pass_type,
  dataCollectionEnabled: r.data_collection_enabled === 1,
  signupFields: { ...DEFAULT_SIGNUP_FIELDS, ...json<Partial<Card['signupFields']>>(r.signup_fields) },
  questions: JSON.parse(r.questions) as Card['questions'],
  ...withRewards(JSON.parse(r.rewards) as Reward[]),
  flagAwardsPerDay: r.flag_awards_per_day,
  unitValueE4: r.unit_value_e4,
  levels: json(r.levels),
  accrual: json(r.accrual),
  earningLimits: json(r.earning_limits),
  design: json(r.design),
  archivedAt: r.archived_at,
  expiry: json(r.expiry),
  birthday: json(r.birthday),
  lotsSince: r.lots_since,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

function createCardsRepo(db: Db) {
  const insert = db.prepare(
    `INSERT INTO cards (id, org_id, name, pass_type, data_collection_enabled, signup_fields, questions, rewards, flag_awards_per_day,
                        unit_value_e4, levels, accrual, earning_limits, design, expiry, birthday, lots_since, created_at, updated_at)
     VALUES (@id, @orgId, @name, @passType, @dataCollectionEnabled, @signupFields, @questions, @rewards, @flagAwardsPerDay,
             @unitValueE4, @levels, @accrual, @earningLimits, @design, @expiry, @birthday, @lotsSince, @createdAt, @updatedAt)`,
  );
  const byId = db.prepare<[string], RawCard>('SELECT * FROM cards WHERE id = ?');
  const ofOrg = db.prepare<[string], RawCard>('SELECT * FROM cards WHERE org_id = ? ORDER BY created_at, rowid');
  const setQuestions = db.prepare('UPDATE cards SET questions = @questions, updated_at = @updatedAt WHERE id = @id');
  const update = db.prepare(
    `UPDATE cards SET name = @name, pass_type = @passType, data_collection_enabled = @dataCollectionEnabled, signup_fields = @signupFields,
       questions = @questions, rewards = @rewards, flag_awards_per_day = @flagAwardsPerDay, unit_value_e4 = @unitValueE4, levels = @levels,
       accrual = @accrual, earning_limits = @earningLimits, design = @design, expiry = @expiry, birthday = @birthday, lots_since = @lotsSince,
       updated_at = @updatedAt
     WHERE id = @id`,
  );
  const touch = db.prepare('UPDATE cards SET updated_at = @updatedAt WHERE id = @id');
  const setProgram = db.prepare(
    'UPDATE cards SET rewards = @rewards, flag_awards_per_day = @flagAwardsPerDay, unit_value_e4 = @unitValueE4, updated_at = @updatedAt WHERE id = @id',
  );
  // Every customer row (index-only, customers_card), live and test apart: erased customers' rows
  // stay for the ledger.
  const customerRows = db.prepare<[string], { card_id: string; livemode: number; n: number }>(
    'SELECT card_id, livemode, count(*) AS n FROM customers WHERE card_id IN (SELECT id FROM cards WHERE org_id = ?) GROUP BY card_id, livemode',
  );
  // The people among them: the counts the triggers keep leave erased customers out.
  const peopleCounts = db.prepare<[string], { card_id: string; livemode: number; n: number }>('SELECT card_id, livemode, customers AS n FROM customer_counts WHERE org_id = ?');
  const hasCustomers = db.prepare<[string], { n: number }>('SELECT count(*) AS n FROM customers WHERE card_id = ?');
  const logoMeta = db.prepare<[string], { width: number; height: number; sha256: string; uploaded_at: number }>(
    'SELECT width, height, sha256, uploaded_at FROM card_logos WHERE card_id = ?',
  );
  const logoPng = db.prepare<[string], { png: Buffer; width: number; height: number; sha256: string }>('SELECT png, width, height, sha256 FROM card_logos WHERE card_id = ?');
  const upsertLogo = db.prepare(
    `INSERT INTO card_logos (card_id, png, width, height, sha256, uploaded_at) VALUES (@cardId, @png, @width, @height, @sha256, @now)
     ON CONFLICT (card_id) DO UPDATE SET png = excluded.png, width = excluded.width, height = excluded.height, sha256 = excluded.sha256, uploaded_at = excluded.uploaded_at`,
  );
  const deleteLogo = db.prepare('DELETE FROM card_logos WHERE card_id = ?');
  const setArchived = db.prepare('UPDATE cards SET archived_at = @archivedAt, updated_at = @updatedAt WHERE id = @id');
  const deleteCard = db.prepare('DELETE FROM cards WHERE id = ?');
  const testCustomerIds = db.prepare<[string], string>('SELECT id FROM customers WHERE card_id = ? AND livemode = 0').pluck();
  const liveCustomers = db.prepare<[string], { n: number }>('SELECT count(*) AS n FROM customers WHERE card_id = ? AND livemode = 1');

  // `reward` is rewards[0], derived on read: the list is the one stored copy.
  const columns = ({ archivedAt: _archived, reward: _reward, ...card }: Card) => ({
    ...card,
    dataCollectionEnabled: card.dataCollectionEnabled ? 1 : 0,
    signupFields: JSON.stringify(card.signupFields),
    questions: JSON.stringify(card.questions),
    rewards: JSON.stringify(card.rewards),
    levels: text(card.levels),
    accrual: text(card.accrual),
    earningLimits: text(card.earningLimits),
    design: text(card.design),
    expiry: text(card.expiry),
    birthday: text(card.birthday),
  });

  return {
    insert(card: Card) {
      insert.run(columns(card));
    },
    /** Writes every configurable column of the card (id, org and creation time stay). */
    update(card: Card) {
      const { orgId: _org, createdAt: _created, ...rest } = columns(card);
      update.run(rest);
    },
    touch(id: string, updatedAt: number) {
      touch.run({ id, updatedAt });
    },
    /** The reward list, watch-list threshold and unit value (PATCH /v1/cards). */
    updateProgram(card: Pick<Card, 'id' | 'rewards' | 'flagAwardsPerDay' | 'unitValueE4' | 'updatedAt'>) {
      setProgram.run({ id: card.id, rewards: JSON.stringify(card.rewards), flagAwardsPerDay: card.flagAwardsPerDay, unitValueE4: card.unitValueE4, updatedAt: card.updatedAt });
    },
    /** Customers per card of the org, live and test apart (cards without customers are absent). */
    customerCounts(orgId: string): Map<string, CardCustomerCounts> {
      const people = new Map(peopleCounts.all(orgId).map((r) => [`${r.card_id} ${r.livemode}`, r.n]));
      const counts = new Map<string, CardCustomerCounts>();
      for (const row of customerRows.all(orgId)) {
        const entry = counts.get(row.card_id) ?? { live: 0, test: 0, erased: { live: 0, test: 0 } };
        const mode = row.livemode === 1 ? 'live' : 'test';
        entry[mode] = people.get(`${row.card_id} ${row.livemode}`) ?? 0;
        entry.erased[mode] = row.n - entry[mode];
        counts.set(row.card_id, entry);
      }
      return counts;
    },
    customerCount: (cardId: string) => hasCustomers.get(cardId)!.n,
    logoMeta(cardId: string): CardLogoMeta | undefined {
      const row = logoMeta.get(cardId);
      return row && { width: row.width, height: row.height, sha256: row.sha256, uploadedAt: row.uploaded_at };
    },
    logoOf(cardId: string): CardLogo | undefined {
      const row = logoPng.get(cardId);
      return row && { png: row.png, width: row.width, height: row.height, sha256: row.sha256 };
    },
    setLogo(cardId: string, logo: CardLogo, now: number) {
      upsertLogo.run({ cardId, ...logo, now });
    },
    /** True when there was a logo to remove. */
    removeLogo: (cardId: string) => deleteLogo.run(cardId).changes > 0,
    findById(id: string): Card | undefined {
      const row = byId.get(id);
      return row && map(row);
    },
    listForOrg(orgId: string): Card[] {
      return ofOrg.all(orgId).map(map);
    },
    /** Archives (a time) or restores (null) the card. */
    setArchived(id: string, archivedAt: number | null, updatedAt: number) {
      setArchived.run({ id, archivedAt, updatedAt });
    },
    liveCustomerCount: (cardId: string) => liveCustomers.get(cardId)!.n,
    testCustomerIds: (cardId: string): string[] => testCustomerIds.all(cardId),
    /** Deletes the card; its logo, queues and remaining customers go with it (ON DELETE CASCADE). */
    remove(id: string) {
      deleteCard.run(id);
    },
    updateQuestions(id: string, questions: Card['questions'], updatedAt: number) {
      setQuestions.run({ id, questions: JSON.stringify(questions), updatedAt });
    },
  };
}

export const cardsRepo = perConnection(createCardsRepo);
