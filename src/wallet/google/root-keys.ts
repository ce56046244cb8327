// Google's callback root keys, fetched from the configured URL and kept for an hour: Google
// rotates them with weeks of overlap, and fetching per callback would make every callback depend
// on one more network round trip. A failed refresh keeps using the keys already held.
import type { Clock } from '../../lib/clock';
import { fetchGoogleRootKeys, type GoogleRootKey } from './callback';

export const ROOT_KEYS_TTL_MS = 60 * 60_000;

export interface RootKeysCache {
  get(): Promise<{ keys: GoogleRootKey[] }>;
}

export function createRootKeysCache(url: string, clock: Clock, ttlMs = ROOT_KEYS_TTL_MS): RootKeysCache {
  let cached: { doc: { keys: GoogleRootKey[] }; fetchedAt: number } | undefined;
  let inFlight: Promise<{ keys: GoogleRootKey[] }> | undefined;

  const refresh = () =>
    fetchGoogleRootKeys(url).then(
      (doc) => {
        cached = { doc, fetchedAt: clock.now() };
        return doc;
      },
      (err: unknown) => {
        if (cached) return cached.doc;
        throw err;
      },
    );

  return {
    get() {
      if (cached && clock.now() - cached.fetchedAt < ttlMs) return Promise.resolve(cached.doc);
      // Concurrent callbacks share one fetch.
      inFlight ??= refresh().finally(() => {
        inFlight = undefined;
      });
      return inFlight;
    },
  };
}
