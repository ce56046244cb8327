import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { activeAt, hasEnded, promotionExtra, shopMoment } from '../src/promotions/active';
import type { Promotion } from '../src/promotions/model';

// The one answer to "which promotions run at T for this card, and what do they add": dates,
// weekdays and hours on the shop's calendar and wall clock, across daylight-saving changes.

const promotion = (p: Partial<Promotion> & Pick<Promotion, 'id'>): Promotion => ({
  cardId: 'card_x',
  name: p.id,
  kind: 'bonus',
  value: 100,
  startsOn: '2026-01-01',
  endsOn: '2026-12-31',
  weekdays: null,
  hours: null,
  createdAt: 0,
  updatedAt: 0,
  ...p,
});

const at = (iso: string) => Date.parse(iso);

describe('shopMoment: an instant on the shop’s calendar and clock', () => {
  const cases: { zone: string; instant: string; date: string; weekday: number; time: string }[] = [
    { zone: 'Europe/Berlin', instant: '2026-03-03T13:00:00Z', date: '2026-03-03', weekday: 2, time: '14:00' },
    { zone: 'Europe/Berlin', instant: '2026-03-29T00:59:59Z', date: '2026-03-29', weekday: 7, time: '01:59' },
    { zone: 'Europe/Berlin', instant: '2026-03-29T01:00:00Z', date: '2026-03-29', weekday: 7, time: '03:00' },
    { zone: 'Europe/Berlin', instant: '2026-10-25T00:30:00Z', date: '2026-10-25', weekday: 7, time: '02:30' },
    { zone: 'Europe/Berlin', instant: '2026-10-25T01:30:00Z', date: '2026-10-25', weekday: 7, time: '02:30' },
    { zone: 'America/Los_Angeles', instant: '2026-01-07T07:30:00Z', date: '2026-01-06', weekday: 2, time: '23:30' },
    { zone: 'Pacific/Auckland', instant: '2026-01-09T11:00:00Z', date: '2026-01-10', weekday: 6, time: '00:00' },
    { zone: 'UTC', instant: '2026-01-04T12:00:00Z', date: '2026-01-04', weekday: 7, time: '12:00' },
    { zone: 'UTC', instant: '2026-01-05T00:00:00Z', date: '2026-01-05', weekday: 1, time: '00:00' },
  ];
  for (const c of cases) {
    it(`${c.instant} in ${c.zone} is ${c.date} (weekday ${c.weekday}) ${c.time}`, () => {
      assert.deepEqual(shopMoment(at(c.instant), c.zone), { date: c.date, weekday: c.weekday, time: c.time });
    });
  }
});

describe('activeAt: which promotions run', () => {
  // Tuesdays 14:00–17:00 in March, in Berlin: the same local window on both sides of the change to summer time.
  const tuesdayAfternoons = promotion({ id: 'pr_tue', kind: 'multiplier', value: 20, startsOn: '2026-03-01', endsOn: '2026-03-31', weekdays: [2], hours: { from: '14:00', to: '17:00' } });
  const nightOfChange = promotion({ id: 'pr_night', hours: { from: '02:00', to: '03:00' } });
  const oneDay = promotion({ id: 'pr_day', startsOn: '2026-01-10', endsOn: '2026-01-10' });
  const evenings = promotion({ id: 'pr_eve', hours: { from: '18:00', to: '24:00' } });
  const weekends = promotion({ id: 'pr_weekend', weekdays: [6, 7] });

  const cases: { name: string; promotions: Promotion[]; zone: string; instant: string; active: string[] }[] = [
    { name: 'from is included', promotions: [tuesdayAfternoons], zone: 'Europe/Berlin', instant: '2026-03-03T13:00:00Z', active: ['pr_tue'] },
    { name: 'a minute before from', promotions: [tuesdayAfternoons], zone: 'Europe/Berlin', instant: '2026-03-03T12:59:59Z', active: [] },
    { name: 'the last second before to', promotions: [tuesdayAfternoons], zone: 'Europe/Berlin', instant: '2026-03-03T15:59:59Z', active: ['pr_tue'] },
    { name: 'to is excluded', promotions: [tuesdayAfternoons], zone: 'Europe/Berlin', instant: '2026-03-03T16:00:00Z', active: [] },
    { name: 'another weekday', promotions: [tuesdayAfternoons], zone: 'Europe/Berlin', instant: '2026-03-04T13:30:00Z', active: [] },
    { name: 'summer time: 14:00 local is 12:00 UTC', promotions: [tuesdayAfternoons], zone: 'Europe/Berlin', instant: '2026-03-31T12:00:00Z', active: ['pr_tue'] },
    { name: 'summer time: 13:00 UTC is 15:00 local, still inside', promotions: [tuesdayAfternoons], zone: 'Europe/Berlin', instant: '2026-03-31T14:59:00Z', active: ['pr_tue'] },
    { name: 'summer time: 15:00 UTC is 17:00 local, outside', promotions: [tuesdayAfternoons], zone: 'Europe/Berlin', instant: '2026-03-31T15:00:00Z', active: [] },
    { name: 'the first day is included', promotions: [tuesdayAfternoons], zone: 'Europe/Berlin', instant: '2026-03-03T13:00:00Z', active: ['pr_tue'] },
    { name: 'the week after the last day', promotions: [tuesdayAfternoons], zone: 'Europe/Berlin', instant: '2026-04-07T12:30:00Z', active: [] },
    { name: 'the window skipped by spring forward never runs (01:59)', promotions: [nightOfChange], zone: 'Europe/Berlin', instant: '2026-03-29T00:59:00Z', active: [] },
    { name: 'the window skipped by spring forward never runs (03:00)', promotions: [nightOfChange], zone: 'Europe/Berlin', instant: '2026-03-29T01:00:00Z', active: [] },
    { name: 'the hour fall back repeats runs the first time', promotions: [nightOfChange], zone: 'Europe/Berlin', instant: '2026-10-25T00:30:00Z', active: ['pr_night'] },
    { name: 'the hour fall back repeats runs the second time', promotions: [nightOfChange], zone: 'Europe/Berlin', instant: '2026-10-25T01:30:00Z', active: ['pr_night'] },
    { name: 'and ends at 03:00 local after it', promotions: [nightOfChange], zone: 'Europe/Berlin', instant: '2026-10-25T02:00:00Z', active: [] },
    { name: 'a one-day promotion at its local midnight', promotions: [oneDay], zone: 'Pacific/Auckland', instant: '2026-01-09T11:00:00Z', active: ['pr_day'] },
    { name: 'the minute before its local midnight', promotions: [oneDay], zone: 'Pacific/Auckland', instant: '2026-01-09T10:59:00Z', active: [] },
    { name: 'its last local minute', promotions: [oneDay], zone: 'Pacific/Auckland', instant: '2026-01-10T10:59:00Z', active: ['pr_day'] },
    { name: 'the next local day, still the 10th in UTC', promotions: [oneDay], zone: 'Pacific/Auckland', instant: '2026-01-10T11:00:00Z', active: [] },
    { name: 'the shop’s Tuesday night is Wednesday in UTC', promotions: [tuesdayAfternoons, promotion({ id: 'pr_tue_all', weekdays: [2] })], zone: 'America/Los_Angeles', instant: '2026-01-07T07:30:00Z', active: ['pr_tue_all'] },
    { name: 'to 24:00 runs to the last minute', promotions: [evenings], zone: 'UTC', instant: '2026-05-05T23:59:59Z', active: ['pr_eve'] },
    { name: 'and stops at midnight', promotions: [evenings], zone: 'UTC', instant: '2026-05-06T00:00:00Z', active: [] },
    { name: 'Sunday is 7', promotions: [weekends], zone: 'UTC', instant: '2026-01-04T12:00:00Z', active: ['pr_weekend'] },
    { name: 'Monday is 1', promotions: [weekends], zone: 'UTC', instant: '2026-01-05T12:00:00Z', active: [] },
    { name: 'several at once, in the order given', promotions: [weekends, evenings, oneDay], zone: 'UTC', instant: '2026-01-10T19:00:00Z', active: ['pr_weekend', 'pr_eve', 'pr_day'] },
  ];
  for (const c of cases) {
    it(`${c.name}: ${c.instant} in ${c.zone}`, () => {
      assert.deepEqual(activeAt(c.promotions, at(c.instant), c.zone).map((p) => p.id), c.active);
    });
  }

  it('has ended only after its last day', () => {
    assert.deepEqual(['2026-03-30', '2026-03-31', '2026-04-01'].map((today) => hasEnded(tuesdayAfternoons, today)), [false, false, true]);
  });
});

describe('promotionExtra: multipliers multiply, bonuses add, rounded down to whole units', () => {
  const times = (factor: number) => promotion({ id: `pr_x${factor}`, kind: 'multiplier', value: Math.round(factor * 10) });
  const plus = (units: number) => promotion({ id: `pr_p${units}`, kind: 'bonus', value: units * 100 });
  const cases: { base: number; promotions: Promotion[]; extra: number }[] = [
    { base: 10, promotions: [], extra: 0 },
    { base: 10, promotions: [times(2)], extra: 10 },
    { base: 3, promotions: [times(1.5)], extra: 1 },
    { base: 1, promotions: [times(1.1)], extra: 0 },
    { base: 9, promotions: [times(1.1)], extra: 0 },
    { base: 10, promotions: [times(1.1)], extra: 1 },
    { base: 3, promotions: [times(1.5), times(1.5)], extra: 3 },
    { base: 3, promotions: [plus(2)], extra: 2 },
    { base: 3, promotions: [times(1.5), plus(2)], extra: 3 },
    { base: 7, promotions: [times(2), plus(1), times(10), plus(5)], extra: 139 },
    { base: 1_000_000_000, promotions: [times(10), times(10)], extra: 99_000_000_000 },
  ];
  for (const c of cases) {
    it(`${c.base} with ${c.promotions.map((p) => p.id).join(' + ') || 'none'} adds ${c.extra}`, () => {
      assert.equal(promotionExtra(c.base * 100, c.promotions), c.extra * 100);
    });
  }
});
