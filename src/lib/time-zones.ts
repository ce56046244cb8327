import { getAllTimezones, getCountry, getTimezone } from 'countries-and-timezones';
import { getCountries, isSupportedCountry } from 'libphonenumber-js/min';

// Time zones by their current names, and the country each belongs to. Node's Intl list keeps the
// names ICU had (Asia/Calcutta, Europe/Kiev) where the tz database has moved on (Asia/Kolkata,
// Europe/Kyiv); countries-and-timezones carries the tz database's zones, which of them are only
// aliases of another, and the countries of each, offline. Node's Intl accepts the current names
// too, so days are still counted by ICU: this module only chooses the names people see and type.
// A name Node does not know (the tz database's "Factory") is left out.

let zones: { choices: readonly ZoneChoice[]; canonical: ReadonlyMap<string, string> } | undefined;

export interface ZoneChoice {
  /** The current name, e.g. Europe/Kyiv. */
  zone: string;
  /** The country it belongs to, e.g. Ukraine ('' for UTC). */
  country: string;
}

const nodeKnows = (zone: string) => {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
};

function load() {
  if (zones) return zones;
  const all = Object.values(getAllTimezones({ deprecated: true }));
  const canonical = new Map<string, string>();
  const choices: ZoneChoice[] = [{ zone: 'UTC', country: '' }];
  for (const tz of all) {
    const current = tz.aliasOf ?? tz.name;
    if (!nodeKnows(current)) continue;
    canonical.set(tz.name.toLowerCase(), current);
    // Zones of a country only: the Etc/GMT+n zones read backwards (GMT+1 is an hour behind) and confuse more than they help.
    if (!tz.aliasOf && tz.countries.length) choices.push({ zone: tz.name, country: getCountry(tz.countries[0]!)?.name ?? '' });
  }
  // UTC by its short name, however the tz database files it (Etc/UTC, with UTC as an alias).
  canonical.set('utc', 'UTC');
  canonical.set('etc/utc', 'UTC');
  // Node's own names, should the library not know one of them yet.
  for (const zone of Intl.supportedValuesOf('timeZone')) if (!canonical.has(zone.toLowerCase())) canonical.set(zone.toLowerCase(), zone);
  choices.sort((a, b) => (a.zone === 'UTC' ? -1 : b.zone === 'UTC' ? 1 : a.zone.localeCompare(b.zone)));
  zones = { choices, canonical };
  return zones;
}

/** The zone's current name ("Asia/Calcutta", "asia/kolkata", "Asia / Kolkata" → "Asia/Kolkata"), or null for no zone. */
export function canonicalZone(text: string): string | null {
  const key = text.trim().replace(/\s*\/\s*/g, '/').replace(/ /g, '_').toLowerCase();
  return key ? (load().canonical.get(key) ?? null) : null;
}

/** The zones to choose from: UTC, then every country's zone by its current name. */
export const zoneChoices = (): readonly ZoneChoice[] => load().choices;

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
