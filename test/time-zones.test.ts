import assert from 'node:assert/strict';
import { test } from 'node:test';
import { getAllTimezones } from 'countries-and-timezones';

// Each Intl.DateTimeFormat holds ICU's date symbols and number formats in native memory that V8
// does not count: building one for every name of the tz database held about 15 MB in the server
// from its first settings read on. Counted here by wrapping the constructor before the module loads.
let built = 0;
const Original = Intl.DateTimeFormat;
Intl.DateTimeFormat = new Proxy(Original, {
  construct(target, args, newTarget) {
    built++;
    return Reflect.construct(target, args, newTarget) as object;
  },
});
const { canonicalZone, countryOfZone, zoneChoices } = await import('../src/lib/time-zones');

test('a zone is looked up without trying every name of the tz database on this Node', () => {
  built = 0;
  assert.equal(canonicalZone('Europe/Berlin'), 'Europe/Berlin');
  assert.equal(canonicalZone('europe / berlin'), 'Europe/Berlin');
  assert.equal(canonicalZone('Mars/Olympus'), null);
  assert.equal(canonicalZone(''), null);
  assert.equal(countryOfZone('Europe/Berlin'), 'DE');
  // A name Intl lists is taken as it is; a current name it files under an older one is tried once.
  assert.equal(canonicalZone('Asia/Calcutta'), 'Asia/Kolkata');
  assert.equal(canonicalZone('asia/kolkata'), 'Asia/Kolkata');
  assert.ok(built <= 1, `${built} formatters built`);
});

test('the zone choices try only the names Intl does not list', () => {
  built = 0;
  const zones = zoneChoices().map((c) => c.zone);
  assert.equal(zones[0], 'UTC');
  assert.ok(zones.includes('Asia/Kolkata') && zones.includes('Europe/Kyiv'));
  assert.ok(!zones.includes('Asia/Calcutta') && !zones.includes('Europe/Kiev') && !zones.includes('Etc/GMT+1'));
  assert.ok(built < 100, `${built} formatters built`);
  assert.equal(zoneChoices(), zoneChoices());
});

test('every name reads as Node itself takes it: the current name when Node takes that, else Node’s own name', () => {
  const nodeTakes = (zone: string) => {
    try {
      new Original('en', { timeZone: zone });
      return true;
    } catch {
      return false;
    }
  };
  const listed = new Map(Intl.supportedValuesOf('timeZone').map((z) => [z.toLowerCase(), z]));
  const all = Object.values(getAllTimezones({ deprecated: true }));
  for (const tz of all) {
    const current = tz.aliasOf ?? tz.name;
    const expected = nodeTakes(current) ? current : (listed.get(tz.name.toLowerCase()) ?? null);
    assert.equal(canonicalZone(tz.name), tz.name.toLowerCase() === 'etc/utc' || tz.name === 'UTC' ? 'UTC' : expected, tz.name);
  }
  for (const zone of listed.values()) assert.ok(canonicalZone(zone) !== null, zone);
  const choices = new Set(zoneChoices().map((c) => c.zone));
  for (const tz of all) if (!tz.aliasOf && tz.countries.length) assert.equal(choices.has(tz.name), nodeTakes(tz.name), tz.name);
});
