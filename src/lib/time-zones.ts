import { getAllTimezones, getCountry, getTimezone } from 'countries-and-timezones';
import { getCountries, isSupportedCountry } from 'libphonenumber-js/min';

// Time zones by their current names, and the country each belongs to. Node's Intl list keeps the
// names ICU had (Asia/Calcutta, Europe/Kiev) where the tz database has moved on (Asia/Kolkata,
// Europe/Kyiv); countries-and-timezones carries the tz database's zones, which of them are only
// aliases of another, and the countries of each, offline. Node's Intl accepts the current names
// too, so days are still counted by ICU: this module only chooses the names people see and type.
// A name Node does not know (the tz database's "Factory") is left out.

// Whether Node takes a name is asked of Intl one name at a time, and only when needed: a name Intl
// lists is taken at once; any other (a current name ICU files under an older one) is tried by
// building a formatter, once per name. Each formatter holds ICU's date symbols and number formats
// in native memory that V8 does not count and keeps until a full collection, so the tz database's
// 600 names are never all tried up front.

let tables: { canonical: ReadonlyMap<string, string>; nodeNames: ReadonlyMap<string, string> } | undefined;
let listed: ReadonlySet<string> | undefined;
const tried = new Map<string, boolean>();
let choices: readonly ZoneChoice[] | undefined;

export interface ZoneChoice {
  /** The current name, e.g. Europe/Kyiv. */
  zone: string;
  /** The country it belongs to, e.g. Ukraine ('' for UTC). */
  country: string;
}

function nodeKnows(zone: string): boolean {
  listed ??= new Set(Intl.supportedValuesOf('timeZone'));
  if (listed.has(zone)) return true;
  let known = tried.get(zone);
  if (known === undefined) {
    try {
      new Intl.DateTimeFormat('en', { timeZone: zone });
      known = true;
    } catch {
      known = false;
    }
    tried.set(zone, known);
  }
  return known;
}

/** Every name, lower-cased, with its current name (unchecked), and Node's own names, lower-cased. */
function load() {
  if (tables) return tables;
  const canonical = new Map<string, string>();
  for (const tz of Object.values(getAllTimezones({ deprecated: true }))) canonical.set(tz.name.toLowerCase(), tz.aliasOf ?? tz.name);
  // UTC by its short name, however the tz database files it (Etc/UTC, with UTC as an alias).
  canonical.set('utc', 'UTC');
  canonical.set('etc/utc', 'UTC');
  // Node's own names, should the library not know one of them, or name as current one this Node does not take.
  const nodeNames = new Map(Intl.supportedValuesOf('timeZone').map((zone) => [zone.toLowerCase(), zone]));
  tables = { canonical, nodeNames };
  return tables;
}

/** The zone's current name ("Asia/Calcutta", "asia/kolkata", "Asia / Kolkata" → "Asia/Kolkata"), or null for no zone. */
export function canonicalZone(text: string): string | null {
  const key = text.trim().replace(/\s*\/\s*/g, '/').replace(/ /g, '_').toLowerCase();
  if (!key) return null;
  const { canonical, nodeNames } = load();
  const current = canonical.get(key);
  if (current !== undefined && nodeKnows(current)) return current;
  return nodeNames.get(key) ?? null;
}

/** The zones to choose from: UTC, then every country's zone by its current name. */
export function zoneChoices(): readonly ZoneChoice[] {
  if (choices) return choices;
  const list: ZoneChoice[] = [{ zone: 'UTC', country: '' }];
  // Zones of a country only: the Etc/GMT+n zones read backwards (GMT+1 is an hour behind) and confuse more than they help.
  for (const tz of Object.values(getAllTimezones({ deprecated: true }))) {
    if (!tz.aliasOf && tz.countries.length && nodeKnows(tz.name)) list.push({ zone: tz.name, country: getCountry(tz.countries[0]!)?.name ?? '' });
  }
  list.sort((a, b) => (a.zone === 'UTC' ? -1 : b.zone === 'UTC' ? 1 : a.zone.localeCompare(b.zone)));
  choices = list;
  return choices;
}

/** The country a zone belongs to (ISO 3166 alpha-2), when it belongs to one. */
export function countryOfZone(zone: string): string | null {
  const current = canonicalZone(zone);
  return (current && getTimezone(current)?.countries[0]) || null;
}

let countries: readonly { code: string; name: string }[] | undefined;

/** Countries whose phone numbers libphonenumber knows, by name. */
export function phoneCountries(): readonly { code: string; name: string }[] {
  countries ??= getCountries()
    .map((code) => ({ code: code as string, name: getCountry(code)?.name ?? code }))
    .sort((a, b) => a.name.localeCompare(b.name));
  return countries;
}

export const isPhoneCountry = (code: string): boolean => isSupportedCountry(code);
