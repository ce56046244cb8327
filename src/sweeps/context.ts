import type { Card } from '../cards/model';
import { cardsRepo } from '../cards/repo';
import type { Config } from '../config';
import type { WriteDeps } from '../deps';
import type { Logger } from '../lib/log';
import { readOrgSettings } from '../orgs/settings';

/** What a sweep needs: a write's deps, the mail settings (reminders, greetings) and the log. */
export type SweepDeps = WriteDeps & { config: Readonly<Pick<Config, 'mail'>>; log: Pick<Logger, 'warn' | 'error'> };

export interface SweepOptions {
  /** Customers per transaction; between two, other work runs. */
  chunkSize?: number;
}

/**
 * Customers handled per transaction. Each costs a ledger row, its events and deliveries and a pass
 * update; this many keep a chunk well inside the 50 ms the event loop may be held (bench/sweeps.ts).
 */
export const SWEEP_CHUNK = 200;

/** Lets requests and timers run between two chunks. */
export const pause = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Cards and time zones a run reads again and again, read once per run. */
export function sweepContext(deps: Pick<SweepDeps, 'db'>) {
  const cards = new Map<string, Card>();
  const zones = new Map<string, string>();
  return {
    card(id: string): Card {
      let card = cards.get(id);
      if (!card) cards.set(id, (card = cardsRepo(deps.db).findById(id)!));
      return card;
    },
    timeZone(orgId: string): string {
      let zone = zones.get(orgId);
      if (!zone) zones.set(orgId, (zone = readOrgSettings(deps.db, orgId).timeZone));
      return zone;
    },
  };
}
export type SweepContext = ReturnType<typeof sweepContext>;
