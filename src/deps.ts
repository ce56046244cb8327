// What every layer shares, in a module that imports no feature: the deps type, and the two kinds
// of hooks through which one feature reacts to another's change without importing it. main.ts
// wires the hooks (changeHooks there); the tests and the bench take them from the same function.
import type { Config } from './config';
import type { Db } from './db/connection';
import type { Clock } from './lib/clock';
import type { Logger } from './lib/log';

/** What every route and service receives: the composition root builds it once. */
export interface AppDeps {
  db: Db;
  clock: Clock;
  log: Logger;
  config: Readonly<Config>;
  /** Called after a write commits, so background work (webhooks, wallet pushes) starts at once. */
  afterCommit: AfterCommitHooks;
  /** Other features' share of a change, written inside its transaction. */
  onChange: ChangeHooks;
}

/** What a write needs inside its transaction: the connection, the time, and who reacts to it. */
export type WriteDeps = Pick<AppDeps, 'db' | 'clock' | 'afterCommit' | 'onChange'>;

/**
 * Reactions to a change, called by the feature that made it INSIDE its transaction, on the same
 * connection (`deps.db`): whatever they write commits with the change or not at all. They are
 * synchronous and local — no await, no network; sending waits for the after-commit wake-ups.
 */
export interface ChangeHooks {
  /** The outbox wrote an event (webhooks write one delivery row per subscribed endpoint). */
  eventWritten(deps: WriteDeps, event: WrittenEvent): void;
  /** A customer's balance changed (the wallet queues the pass update that shows it). */
  balanceChanged(deps: WriteDeps, customerId: string): void;
  /**
   * What every pass of a card shows changed: its name, design, logo, reward or levels (the wallet
   * queues one card-level row and refreshes the installed passes from it, outside the request).
   */
  cardChanged(deps: WriteDeps, cardId: string): void;
  /**
   * A card no live customer holds is about to be deleted: its test customers go first, with what
   * the cascade from the card does not reach (their events), as the 30-day sweep removes them.
   */
  cardDeleting(deps: WriteDeps, cardId: string): void;
  /**
   * A card's birthday treat was switched on, off or onto another question (`questionKey`, null
   * when off): its customers' birthdays are read again from their answers.
   */
  birthdayQuestionChanged(deps: WriteDeps, cardId: string, questionKey: string | null): void;
}

/** An event as the outbox stored it; the envelope itself is in the row. */
export interface WrittenEvent {
  id: string;
  orgId: string;
  livemode: boolean;
  type: string;
}

/** Wake-ups run once the transaction has committed (db/after-commit.ts): never inside one. */
export interface AfterCommitHooks {
  /** New outbox rows exist: wake the delivery worker. */
  eventsWritten(): void;
  /** queuePassUpdate rows were committed: wake the wallet pass-update worker. */
  passUpdatesQueued(): void;
  /** Mail rows were committed: wake the mail worker. */
  mailQueued(): void;
}
