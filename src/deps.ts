import type { Config } from './config';
import type { Db } from './db/open';
import type { Clock } from './lib/clock';
import type { Logger } from './lib/log';
import type { WalletServices } from './wallet/services';

/** What every route and service receives: the composition root builds it once. */
export interface AppDeps {
  db: Db;
  clock: Clock;
  log: Logger;
  config: Readonly<Config>;
  /** Called after a write commits, so background work (webhooks, wallet pushes) starts at once. */
  afterCommit: AfterCommitHooks;
  /** Wallet credentials, loaded once by main.ts and shared with the pass-update worker; createApp loads them from config when absent. */
  wallet?: WalletServices;
}

export interface AfterCommitHooks {
  /** New outbox rows exist: wake the delivery worker. */
  eventsWritten(): void;
  /** queuePassUpdate rows were committed: wake the wallet pass-update worker. */
  passUpdatesQueued(): void;
}

export const noAfterCommit: AfterCommitHooks = { eventsWritten() {}, passUpdatesQueued() {} };
