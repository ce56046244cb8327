import * as v from 'valibot';
import type { Db } from '../db/connection';
import { isHttpUrl } from '../lib/validation';
import { canonicalZone, countryOfZone, isPhoneCountry } from '../lib/time-zones';
import { isCurrency } from '../i18n/currencies';
import { LANGS } from '../i18n/langs';
import { orgsRepo } from './repo';

// Org-wide settings, one JSON document per org (orgs.settings). Each part has its defaults here, so
// a stored document written by an older release (missing a part) still reads whole. Features that
// need a setting add it to this schema; the console's settings page edits them.

/** Every zone choice, by its current name (lib/time-zones.ts); an org's days (dashboard, daily caps) are counted in one of them. */
/** A zone Node knows, by its current or an older name (a document stored before keeps its zone). */
export const isTimeZone = (zone: string) => canonicalZone(zone) !== null;
/** A new org's zone: the server's own when this Node knows it. */
const defaultTimeZone = () => canonicalZone(Intl.DateTimeFormat().resolvedOptions().timeZone) ?? 'UTC';

/** Amounts of one award at the counter above which staff confirm it first (hundredths). */
export const DEFAULT_CONFIRM_ABOVE = { stamps: 1000, points: 100_000, credit: 20_000 } as const;
const confirmAmount = (max: number) => v.pipe(v.number(), v.integer(), v.minValue(100), v.maxValue(max));

/** The counter: when it locks, and the owner's caps against staff fraud. */
export const CounterSettingsSchema = v.object({
  /** Minutes without use after which the counter locks and asks for a PIN again. */
  lockAfterMinutes: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(240)), 5),
  /** At most this many awards per staff member per local day at the counter; null: no cap. */
  staffDailyAwardCap: v.optional(v.nullable(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(100_000))), null),
  /** At most this many counter awards per customer per local day; null: no cap. */
  customerDailyAwardCap: v.optional(v.nullable(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(1_000))), null),
  /**
   * One award at the counter above this much (hundredths of stamps, of points, of credit) asks the
   * staff member to confirm it, with the customer's name; the dashboard flags such awards.
   */
  confirmAbove: v.optional(
    v.object({
      stamps: v.optional(confirmAmount(100_000_000), DEFAULT_CONFIRM_ABOVE.stamps),
      points: v.optional(confirmAmount(100_000_000), DEFAULT_CONFIRM_ABOVE.points),
      credit: v.optional(confirmAmount(100_000_000), DEFAULT_CONFIRM_ABOVE.credit),
    }),
    () => ({ ...DEFAULT_CONFIRM_ABOVE }),
  ),
});

/**
 * A customer with this many counter awards in one local day is flagged on the dashboard when the
 * owner set no customer cap ("many awards to one customer"); with a cap, reaching it flags.
 */
export const UNUSUAL_CUSTOMER_AWARDS_PER_DAY = 5;

/** The consent line under the sign-up form when the owner has not written their own. */
export const DEFAULT_CONSENT_TEXT =
  'I agree that this shop keeps the details I enter here to run my loyalty card and to recognise me as a member. I can ask at the counter to have them deleted at any time.';

/** The public sign-up form: the consent the customer ticks, and a link to the shop's privacy policy. */
export const SignupSettingsSchema = v.object({
  consentText: v.optional(v.pipe(v.string(), v.trim(), v.minLength(1, 'Write the sentence customers agree to.'), v.maxLength(1000, 'At most 1000 characters.')), DEFAULT_CONSENT_TEXT),
  /** An absolute http(s) address, or null: no link. */
  privacyUrl: v.optional(v.nullable(v.pipe(v.string(), v.trim(), v.maxLength(2000, 'At most 2000 characters.'), v.check(isHttpUrl, 'Enter a full web address starting with https://'))), null),
});

export const OrgSettingsSchema = v.object({
  /** Where the shop is: "today" on the dashboard and the counter's daily caps follow its calendar. */
  timeZone: v.optional(
    v.pipe(
      v.string(),
      v.check(isTimeZone, 'must be an IANA time zone such as Europe/Berlin'),
      v.transform((zone) => canonicalZone(zone)!),
    ),
    defaultTimeZone,
  ),
  /**
   * Where the shop is (ISO 3166 alpha-2): a phone number typed without `+` on its pages or in its
   * imports is a national number of this country, and imports read numbers (`1.000`) as it writes
   * them. null: the time zone's country.
   */
  country: v.optional(v.nullable(v.pipe(v.string(), v.check(isPhoneCountry, 'must be a country code such as GB'))), null),
  /**
   * The shop's language: customers' pages when their browser asks for none of ours, the passes and
   * emails of customers who chose none, the counter, and the console's default for its admins.
   */
  language: v.optional(v.picklist(LANGS, 'must be one of en, de, fr, es, it, nl'), 'en'),
  /** The shop's currency (ISO 4217): money on pages and passes where a card names none (a card's spend currency wins). null: amounts without a currency sign. */
  currency: v.optional(v.nullable(v.pipe(v.string(), v.check(isCurrency, 'must be an ISO 4217 currency code in capitals, such as EUR'))), null),
  /** The colour of the console's, the counter's and the sign-up form's frame (#rrggbb); null: the first card's colour. */
  brandColor: v.optional(v.nullable(v.pipe(v.string(), v.regex(/^#[0-9a-f]{6}$/i))), null),
  counter: v.optional(CounterSettingsSchema, () => v.parse(CounterSettingsSchema, {})),
  /** Steps of the dashboard's start checklist that leave no other trace: when the owner first did them. */
  started: v.optional(
    v.object({
      /** The business settings (name, time zone) saved in the console. */
      profileSavedAt: v.optional(v.nullable(v.number()), null),
      /**
       * A counter poster marked printed, while its link was an address phones can reach. (Opening
       * the poster page once counted, as posterOpenedAt: no longer read, so it drops out.)
       */
      posterPrintedAt: v.optional(v.nullable(v.number()), null),
      /** A card created or saved in the console's editor (or given a logo). */
      cardSavedAt: v.optional(v.nullable(v.number()), null),
    }),
    () => ({ profileSavedAt: null, posterPrintedAt: null, cardSavedAt: null }),
  ),
  signup: v.optional(SignupSettingsSchema, () => v.parse(SignupSettingsSchema, {})),
});

export type OrgSettings = v.InferOutput<typeof OrgSettingsSchema>;

/** The country national phone numbers and imported numbers are read in: the one the owner chose, else the time zone's. */
export function shopCountry(settings: Pick<OrgSettings, 'country' | 'timeZone'>): string | null {
  return settings.country ?? countryOfZone(settings.timeZone);
}

export function readOrgSettings(db: Db, orgId: string): OrgSettings {
  const json = orgsRepo(db).settingsJson(orgId) ?? '{}';
  const parsed = v.safeParse(OrgSettingsSchema, JSON.parse(json));
  // Written only through writeOrgSettings, so a document that no longer parses is a bug: fall back to defaults rather than lock the org out.
  return parsed.success ? parsed.output : v.parse(OrgSettingsSchema, {});
}

/** Merges `patch` into the stored settings; call inside the caller's transaction. */
export function writeOrgSettings(db: Db, orgId: string, patch: Partial<v.InferInput<typeof OrgSettingsSchema>>): OrgSettings {
  const next = v.parse(OrgSettingsSchema, { ...readOrgSettings(db, orgId), ...patch });
  orgsRepo(db).setSettingsJson(orgId, JSON.stringify(next));
  return next;
}
