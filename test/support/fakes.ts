// Stand-ins the tests use for the real clock, logger and after-commit wake-ups. They live here,
// not in src/, so nothing the server runs can pick up a fake by mistake.
import type { AfterCommitHooks } from '../../src/deps';
import type { Clock } from '../../src/lib/clock';
import { createLogger, type Logger } from '../../src/lib/log';

/** A clock the test moves by hand (`advance`, `set`) instead of sleeping. */
export interface FakeClock extends Clock {
  advance(ms: number): void;
  set(ms: number): void;
}

export function createFakeClock(start = Date.UTC(2026, 0, 1)): FakeClock {
  let current = start;
  return {
    now: () => current,
    advance(ms) {
      current += ms;
    },
    set(ms) {
      current = ms;
    },
  };
}

/** Writes nothing: for tests that do not look at the log. */
export const silentLogger: Logger = createLogger('silent');

/** Wakes nothing: the test drives the workers itself, or runs none. */
export const noAfterCommit: AfterCommitHooks = { eventsWritten() {}, passUpdatesQueued() {}, mailQueued() {}, messagesQueued() {} };
