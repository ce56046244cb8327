import * as v from 'valibot';

/** An ISO 8601 time with its zone: `2027-02-01T09:00:00Z`, `2027-02-01T10:00+01:00`, seconds and milliseconds optional. */
export const ISO_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,3})?)?(?:Z|[+-](\d{2}):(\d{2}))$/;

/** The time is one the calendar has: no 30 February, no hour 24. */
function isRealTime(text: string): boolean {
  const m = ISO_TIME.exec(text);
  if (!m) return false;
  const [year, month, day, hour, minute, second, zoneHours, zoneMinutes] = m.slice(1).map((part) => (part === undefined ? 0 : Number(part))) as number[];
  const daysInMonth = new Date(Date.UTC(year!, month!, 0)).getUTCDate();
  return month! >= 1 && month! <= 12 && day! >= 1 && day! <= daysInMonth && hour! < 24 && minute! < 60 && second! < 60 && zoneHours! < 24 && zoneMinutes! < 60;
}

export const TestClockResource = v.object({
  now: v.pipe(v.string(), v.description('The sandbox’s time (ISO 8601 UTC): real time plus how far it was advanced; it keeps ticking')),
});

export const AdvanceTestClockBody = v.strictObject({
  to: v.pipe(
    v.string(),
    v.regex(ISO_TIME, 'must be an ISO 8601 time with its zone, such as 2027-02-01T09:00:00Z'),
    v.check(isRealTime, 'must be a real date and time'),
    v.description(
      'The sandbox’s new time: an ISO 8601 time with its zone (`Z` or `±hh:mm`). Not before the test clock’s time (it never goes back) and at most 10 years after it; otherwise 400 VALIDATION_FAILED',
    ),
  ),
});
