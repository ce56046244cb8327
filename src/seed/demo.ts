import { randomToken } from '../lib/ids';
import type { CardDeps } from '../cards/service';
import { orgsRepo } from '../orgs/repo';
import { applySeed, hashSeedPasswords, parseSeedFile } from './service';

export interface DemoCredentials {
  orgId: string;
  cards: { name: string; cardId: string }[];
  testKey: string;
  admin: { email: string; password: string };
}

/**
 * On an empty database: a demo org with a stamp card and a point card, a test key and an admin
 * login, so `npm start` leads straight to a working curl. Returns null when data already exists.
 */
export async function createDemoOrgIfEmpty(deps: CardDeps): Promise<DemoCredentials | null> {
  if (orgsRepo(deps.db).countOrgs() > 0) return null;
  const password = randomToken(16);
  const file = parseSeedFile({
    orgs: [
      {
        name: 'Demo Coffee',
        admins: [{ email: 'owner@demo.local', password }],
        cards: [
          {
            ref: 'stamps',
            name: 'Coffee stamps',
            passType: 'stamp_card',
            reward: { name: 'Free coffee', cost: 10 },
            accrual: { items: { coffee: 1, latte: 1 } },
            earningLimits: { maxPerAward: 10 },
            questions: [{ key: 'birthday', label: 'Birthday', type: 'date' }],
            dataCollectionEnabled: true,
          },
          {
            ref: 'points',
            name: 'Coffee points',
            passType: 'point_card',
            reward: { name: '5 € voucher', cost: 500 },
            accrual: { spend: { currency: 'EUR', rate: 10 } },
          },
        ],
        keys: [{ deviceName: 'demo sandbox', mode: 'test' }],
      },
    ],
  });
  const hashes = await hashSeedPasswords(file);
  // Checked again after the (slow) hash: a second process may have filled the database meanwhile.
  if (orgsRepo(deps.db).countOrgs() > 0) return null;
  const [org] = applySeed(deps, file, hashes).orgs;
  return {
    orgId: org!.orgId,
    cards: org!.cards.map((c, i) => ({ name: file.orgs[0]!.cards[i]!.name, cardId: c.cardId })),
    testKey: org!.keys[0]!.key,
    admin: { email: 'owner@demo.local', password },
  };
}
