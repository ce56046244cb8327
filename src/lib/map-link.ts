// Coordinates out of what a shop owner pastes: a map link copied from the browser's address bar
// (Google Maps, OpenStreetMap, a geo: link) or the two numbers themselves. Only what the text
// itself says is read: short links (maps.app.goo.gl, goo.gl/maps, osm.org/go) name no coordinates
// until they are opened, and this never fetches anything.

export interface Coordinates {
  latitude: number;
  longitude: number;
}

/**
 * Why a text gave no coordinates (the page says it in the reader's language): nothing typed, numbers
 * off the globe, a geo: link without numbers, text that is no link, a short link, a link without a place.
 */
export type MapLinkProblem = 'empty' | 'range' | 'geo' | 'notLink' | 'short' | 'none';

export type MapLinkResult = { ok: true; coordinates: Coordinates } | { ok: false; problem: MapLinkProblem };

const NUMBER = String.raw`[-+]?\d{1,3}(?:\.\d+)?`;
const PAIR = new RegExp(String.raw`^\s*(${NUMBER})\s*[,;\s]\s*(${NUMBER})\s*$`);

/** Six decimals are about 10 cm: finer digits only look precise. */
const round6 = (n: number) => Math.round(n * 1e6) / 1e6;

function inRange(latitude: number, longitude: number): Coordinates | null {
  if (!Number.isFinite(latitude) || !Number.isFinite(longitude)) return null;
  if (latitude < -90 || latitude > 90 || longitude < -180 || longitude > 180) return null;
  return { latitude: round6(latitude), longitude: round6(longitude) };
}

function pair(text: string | null | undefined): Coordinates | null {
  const match = text ? PAIR.exec(text) : null;
  return match ? inRange(Number(match[1]), Number(match[2])) : null;
}

function decoded(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

/**
 * The place a link marks, most precise first: a marker or pin (OpenStreetMap's mlat/mlon, Google's
 * !3d…!4d… of a place, a q=/query=/ll= search for coordinates), then the centre of the map shown
 * (Google's /@lat,lng,zoom, OpenStreetMap's #map=zoom/lat/lng).
 */
function fromUrl(url: URL): Coordinates | null {
  const params = url.searchParams;
  const marker = params.has('mlat') && params.has('mlon') ? inRange(Number(params.get('mlat')), Number(params.get('mlon'))) : null;
  if (marker) return marker;
  const path = decoded(url.pathname);
  const pin = /!3d(-?\d+(?:\.\d+)?)!4d(-?\d+(?:\.\d+)?)/.exec(path + url.hash);
  if (pin) {
    const found = inRange(Number(pin[1]), Number(pin[2]));
    if (found) return found;
  }
  for (const name of ['q', 'query', 'll', 'daddr', 'destination']) {
    const found = pair(params.get(name));
    if (found) return found;
  }
  const view = /@(-?\d+(?:\.\d+)?),(-?\d+(?:\.\d+)?)/.exec(path);
  if (view) {
    const found = inRange(Number(view[1]), Number(view[2]));
    if (found) return found;
  }
  const osm = /(?:^|[#&])map=\d+(?:\.\d+)?\/(-?\d+(?:\.\d+)?)\/(-?\d+(?:\.\d+)?)/.exec(url.hash);
  if (osm) return inRange(Number(osm[1]), Number(osm[2]));
  return null;
}

const SHORT_LINK = /^(?:maps\.app\.goo\.gl|goo\.gl|g\.co|osm\.org)$/i;

/** Reads coordinates from a pasted map link or "latitude, longitude"; or why not. */
export function readMapLink(text: string): MapLinkResult {
  const input = text.trim();
  if (!input) return { ok: false, problem: 'empty' };
  const plain = pair(input);
  if (plain) return { ok: true, coordinates: plain };
  if (PAIR.test(input)) return { ok: false, problem: 'range' };
  const geo = /^geo:([^?;]+)/i.exec(input);
  if (geo) {
    const found = pair(geo[1]);
    return found ? { ok: true, coordinates: found } : { ok: false, problem: 'geo' };
  }
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(input) ? input : `https://${input}`);
  } catch {
    return { ok: false, problem: 'notLink' };
  }
  if (SHORT_LINK.test(url.hostname)) return { ok: false, problem: 'short' };
  const found = fromUrl(url);
  if (found) return { ok: true, coordinates: found };
  return { ok: false, problem: 'none' };
}

/** An OpenStreetMap page with a marker on the place: what the web pass links to. */
export function openStreetMapUrl(c: Coordinates): string {
  return `https://www.openstreetmap.org/?mlat=${c.latitude}&mlon=${c.longitude}#map=18/${c.latitude}/${c.longitude}`;
}
