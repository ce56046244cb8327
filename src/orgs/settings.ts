import * as v from 'valibot';
import type { Db } from '../db/open';
import { orgsRepo } from './repo';

// Org-wide settings, one JSON document per org (orgs.settings). Each part has its defaults here, so
// a stored document written by an older release (missing a part) still reads whole. Features that
// need a setting add it to this schema; the console's settings page edits them.

/** The IANA time zones this Node knows; an org's days (dashboard, daily caps) are counted in one of them. */
export const TIME_ZONES: readonly string[] = Intl.supportedValuesOf('timeZone');
const SERVER_TIME_ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone;
export const isTimeZone = (zone: string) => zone === 'UTC' || TIME_ZONES.includes(zone);

export const OrgSettingsSchema = v.object({
  /** Where the shop is: "today" on the dashboard and the counter's daily caps follow its calendar. */
  timeZone: v.optional(v.pipe(v.string(), v.check(isTimeZone, 'must be an IANA time zone such as Europe/Berlin')), isTimeZone(SERVER_TIME_ZONE) ? SERVER_TIME_ZONE : 'UTC'),
  /** The colour of the console's, the counter's and the sign-up form's frame (#rrggbb); null: the first card's colour. */
  brandColor: v.optional(v.nullable(v.pipe(v.string(), v.regex(/^#[0-9a-f]{6}$/i))), null),
});

export type OrgSettings = v.InferOutput<typeof OrgSettingsSchema>;

export function readOrgSettings(db: Db, orgId: string): OrgSettings {
  const json = orgsRepo(db).settingsJson(orgId) ?? '{}';
  const parsed = v.safeParse(OrgSettingsSchema, JSON.parse(json));
  // Written only through writeOrgSettings, so a document that no longer parses is a bug: fall back to defaults rather than lock the org out.
  return parsed.success ? parsed.output : v.parse(OrgSettingsSchema, {});
}

/** Merges `patch` into the stored settings; call inside the caller's transaction. */
export function writeOrgSettings(db: Db, orgId: string, patch: Partial<OrgSettings>): OrgSettings {
  const next = v.parse(OrgSettingsSchema, { ...readOrgSettings(db, orgId), ...patch });
  orgsRepo(db).setSettingsJson(orgId, JSON.stringify(next));
  return next;
}
