import type { SeedResult } from '../src/seed/service';

/** One org the scenarios work against: a card of each common type and a live and a test key. */
export const BENCH_SEED = {
  orgs: [
    {
      name: 'Bench Coffee',
      cards: [
        { ref: 'stamps', name: 'Coffee stamps', passType: 'stamp_card', reward: { name: 'Free coffee', cost: 10 }, accrual: { items: { latte: 1 } } },
        { ref: 'points', name: 'Coffee points', passType: 'point_card', reward: { name: 'Voucher', cost: 100 }, accrual: { spend: { currency: 'EUR', rate: 1 } } },
      ],
      keys: [
        { deviceName: 'bench live', mode: 'live' },
        { deviceName: 'bench test', mode: 'test' },
      ],
    },
  ],
};

export type BenchOrg = SeedResult['orgs'][number];

export type ServerMessage = { type: 'ready'; url: string; org: BenchOrg } | { type: 'rss'; rss: number };
export type BenchMessage = { type: 'rss' } | { type: 'stop' };
