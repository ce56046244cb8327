import type { Config } from '../config';
import type { Db } from '../db/open';
import type { Clock } from '../lib/clock';
import type { Logger } from '../lib/log';

/** What every route and service receives: the composition root builds it once. */
export interface AppDeps {
  db: Db;
  clock: Clock;
  log: Logger;
  config: Readonly<Config>;
  /** Called after a write commits, so background work (webhooks, wallet pushes) starts at once. */
  afterCommit: AfterCommitHooks;
}

export interface AfterCommitHooks {
  /** New outbox rows exist: wake the delivery worker. */
  eventsWritten(): void;
}

export const noAfterCommit: AfterCommitHooks = { eventsWritten() {} };
