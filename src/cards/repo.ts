import type { Db } from '../db/open';
import { perConnection } from '../db/per-connection';
import { DEFAULT_SIGNUP_FIELDS, type Card } from './model';

interface RawCard {
  id: string;
  org_id: string;
  name: string;
  pass_type: Card['passType'];
  data_collection_enabled: number;
  signup_fields: string | null;
  questions: string;
  reward: string | null;
  levels: string | null;
  accrual: string | null;
  earning_limits: string | null;
  design: string | null;
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
  reward: json(r.reward),
  levels: json(r.levels),
  accrual: json(r.accrual),
  earningLimits: json(r.earning_limits),
  design: json(r.design),
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

function createCardsRepo(db: Db) {
  const insert = db.prepare(
    `INSERT INTO cards (id, org_id, name, pass_type, data_collection_enabled, signup_fields, questions, reward, levels, accrual,
                        earning_limits, design, created_at, updated_at)
     VALUES (@id, @orgId, @name, @passType, @dataCollectionEnabled, @signupFields, @questions, @reward, @levels, @accrual,
             @earningLimits, @design, @createdAt, @updatedAt)`,
  );
  const byId = db.prepare<[string], RawCard>('SELECT * FROM cards WHERE id = ?');
  const ofOrg = db.prepare<[string], RawCard>('SELECT * FROM cards WHERE org_id = ? ORDER BY created_at, rowid');
  const setQuestions = db.prepare('UPDATE cards SET questions = @questions, updated_at = @updatedAt WHERE id = @id');

  return {
    insert(card: Card) {
      insert.run({
        ...card,
        dataCollectionEnabled: card.dataCollectionEnabled ? 1 : 0,
        signupFields: JSON.stringify(card.signupFields),
        questions: JSON.stringify(card.questions),
        reward: text(card.reward),
        levels: text(card.levels),
        accrual: text(card.accrual),
        earningLimits: text(card.earningLimits),
        design: text(card.design),
      });
    },
    findById(id: string): Card | undefined {
      const row = byId.get(id);
      return row && map(row);
    },
    listForOrg(orgId: string): Card[] {
      return ofOrg.all(orgId).map(map);
    },
    updateQuestions(id: string, questions: Card['questions'], updatedAt: number) {
      setQuestions.run({ id, questions: JSON.stringify(questions), updatedAt });
    },
  };
}

export const cardsRepo = perConnection(createCardsRepo);
