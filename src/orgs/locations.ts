import * as v from 'valibot';
import type { Lang } from '../i18n/langs';
import { t } from '../i18n/translate';

// The shop's locations (org setting `locations`): Apple shows a pass on the lock screen near them
// with its relevant text, Google carries them on each pass, the web pass links to a map. Apple
// takes at most ten per pass.

export const MAX_LOCATIONS = 10;
export const LOCATION_NAME_MAX = 60;
export const RELEVANT_TEXT_MAX = 100;

const coordinate = (what: string, limit: number) =>
  v.pipe(v.number(), v.minValue(-limit, `must be from -${limit} to ${limit}`), v.maxValue(limit, `must be from -${limit} to ${limit}`), v.description(what));

export const ShopLocationSchema = v.strictObject({
  name: v.pipe(v.string(), v.trim(), v.minLength(1, 'Give the location a name, such as the street.'), v.maxLength(LOCATION_NAME_MAX, `At most ${LOCATION_NAME_MAX} characters.`)),
  latitude: coordinate('Degrees north (negative: south)', 90),
  longitude: coordinate('Degrees east (negative: west)', 180),
  /** The lock-screen line near this location; absent: defaultRelevantText. */
  relevantText: v.optional(v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(RELEVANT_TEXT_MAX, `At most ${RELEVANT_TEXT_MAX} characters.`))),
});

export type ShopLocation = v.InferOutput<typeof ShopLocationSchema>;

export const ShopLocationsSchema = v.pipe(v.array(ShopLocationSchema), v.maxLength(MAX_LOCATIONS, `at most ${MAX_LOCATIONS} locations`));

/** What the lock screen says near a location whose owner wrote nothing, in the pass's language. */
export const defaultRelevantText = (lang: Lang, name: string) => t(lang, 'pass.locationRelevantText', { name });

/** The text a pass in `lang` carries for the location: the owner's own words as written, else the default. */
export const relevantTextOf = (lang: Lang, location: ShopLocation) => location.relevantText ?? defaultRelevantText(lang, location.name);
