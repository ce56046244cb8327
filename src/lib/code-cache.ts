import type { CacheStatus } from '../launcher.mjs';
import type { Logger } from './log';

// The bundle's launcher (src/launcher.mjs) compiles the program with the V8 code cache kept beside
// the script, and leaves here what it found and how to write a new one. Running the sources
// (tsx), there is none.

declare global {
  // Set only by the bundle's launcher, before the program runs.
  var __WALLET_CODE_CACHE__: { status: CacheStatus; file: string; save(): number } | undefined;
}

/**
 * How long the server runs before it writes a missing or unusable cache: long enough for the
 * first requests, whose functions a start then finds compiled too.
 */
export const CODE_CACHE_DELAY_MS = 5_000;

/**
 * Logs what the start found (debug) and, unless the cache was used, writes a new one after
 * CODE_CACHE_DELAY_MS. Only a server does: a short command (`key list`, `--help`) would write a
 * cache without the server's functions, and a later start would use it. A folder the server may
 * not write to only means slower starts, so a failure is logged, not raised. Returns a cancel.
 */
export function saveCodeCacheLater(log: Logger): () => void {
  const cache = globalThis.__WALLET_CODE_CACHE__;
  if (!cache) return () => {};
  log.debug('code cache', { status: cache.status, file: cache.file });
  if (cache.status === 'used') return () => {};
  const timer = setTimeout(() => {
    try {
      log.debug('code cache written', { file: cache.file, bytes: cache.save() });
    } catch (err) {
      log.info('code cache not written: the server starts, only slower', { file: cache.file, err });
    }
  }, CODE_CACHE_DELAY_MS);
  timer.unref();
  return () => clearTimeout(timer);
}
