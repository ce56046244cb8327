// Local days in a shop's time zone, across daylight-saving changes.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { addDays, localDate, localDayRange, startOfLocalDate } from '../src/lib/days';

describe('local days', () => {
  const cases: { zone: string; date: string; startIso: string; hours: number }[] = [
    { zone: 'UTC', date: '2026-03-29', startIso: '2026-03-29T00:00:00.000Z', hours: 24 },
    { zone: 'Europe/Berlin', date: '2026-01-15', startIso: '2026-01-14T23:00:00.000Z', hours: 24 },
    { zone: 'Europe/Berlin', date: '2026-03-29', startIso: '2026-03-28T23:00:00.000Z', hours: 23 }, // spring forward
    { zone: 'Europe/Berlin', date: '2026-10-25', startIso: '2026-10-24T22:00:00.000Z', hours: 25 }, // fall back
    { zone: 'America/New_York', date: '2026-03-08', startIso: '2026-03-08T05:00:00.000Z', hours: 23 },
    { zone: 'Asia/Kolkata', date: '2026-06-01', startIso: '2026-05-31T18:30:00.000Z', hours: 24 },
    { zone: 'Pacific/Chatham', date: '2026-07-01', startIso: '2026-06-30T11:15:00.000Z', hours: 24 },
    // Santiago springs forward at midnight: the day begins at 01:00 local.
    { zone: 'America/Santiago', date: '2026-09-06', startIso: '2026-09-06T04:00:00.000Z', hours: 23 },
  ];
  for (const c of cases) {
    it(`${c.zone} ${c.date} begins at ${c.startIso} and lasts ${c.hours} h`, () => {
      const start = startOfLocalDate(c.date, c.zone);
      assert.equal(new Date(start).toISOString(), c.startIso);
      assert.equal(localDate(start, c.zone), c.date);
      assert.equal(localDate(start - 1, c.zone), addDays(c.date, -1));
      const range = localDayRange(start + 3_600_000, c.zone);
      assert.deepEqual([range.date, range.start, (range.end - range.start) / 3_600_000], [c.date, start, c.hours]);
    });
  }
  it('adds days across month and year ends', () => {
    assert.equal(addDays('2026-12-31', 1), '2027-01-01');
    assert.equal(addDays('2026-03-01', -1), '2026-02-28');
    assert.equal(addDays('2028-03-01', -1), '2028-02-29');
  });
});
