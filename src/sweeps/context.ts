import type { Card } from '../cards/model';
import { cardsRepo } from '../cards/repo';
import type { Config } from '../config';
import { checkpoint } from '../db/checkpoints';
import type { Db } from '../db/connection';
import { inTransaction } from '../db/transaction';
import type { WriteDeps } from '../deps';
import type { Logger } from '../lib/log';
import { readOrgSettings } from '../orgs/settings';

/** What a sweep needs: a write's deps, the mail settings (reminders, greetings) and the log. */
export type SweepDeps = WriteDeps & { config: Readonly<Pick<Config, 'mail'>>; log: Pick<Logger, 'warn' | 'error'> };

export interface SweepOptions {
  /** Customers per transaction; between two, other work runs. */
  chunkSize?: number;
}

/** Customers read per query, and at most handled per transaction. */
export const SWEEP_CHUNK = 500;
/**
 * A transaction also ends once it has run this long: each customer costs a ledger row, its events
 * and deliveries and a pass update, and a slow machine (a Raspberry Pi) does far fewer of them in
 * the 50 ms the event loop may be held than a fast one (bench/sweeps.ts).
 */
export const CHUNK_BUDGET_MS = 15;

/**
 * WAL pages a sweep lets build up before it checkpoints them itself, between chunks and, in the
 * server, off the event loop (db/checkpoints.ts). SQLite's autocheckpoint (1000 pages) would
 * otherwise run inside the commit of some chunk, copying 4 MB into the database file and syncing
 * it on top of that chunk's work: the longest hold of a sweep. So a chunk is also cut to the items
 * that fit the pages left before that (what one costs is learned from the last checkpoint), and
 * the sweep checkpoints once this many are written. Fewer pages a checkpoint would mean more syncs
 * for the same pages.
 */
export const CHECKPOINT_PAGES = 400;
/** What the pages since the last checkpoint and a chunk's may reach: under the autocheckpoint's 1000. */
const PAGES_BEFORE_AUTOCHECKPOINT = 800;

/** Lets requests and timers run between two chunks. */
export const pause = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Per connection: items the sweeps settled since their last checkpoint, and the WAL pages one costs (learned from the last checkpoint). */
const pagesOf = new WeakMap<Db, { items: number; pagesPerItem: number }>();

function pageState(db: Db) {
  let state = pagesOf.get(db);
  // Until a checkpoint has told, an item is taken to cost CHECKPOINT_PAGES: the first chunks are small.
  if (!state) pagesOf.set(db, (state = { items: 0, pagesPerItem: CHECKPOINT_PAGES }));
  return state;
}

/** Items the next chunk may take: those whose pages fit before the autocheckpoint, at least one. */
function itemsThatFit(db: Db, chunk: number): number {
  const state = pageState(db);
  return Math.max(1, Math.min(chunk, Math.floor(PAGES_BEFORE_AUTOCHECKPOINT / state.pagesPerItem) - state.items));
}

/**
 * After a chunk of `items`, outside any transaction: a passive checkpoint once the items since the
 * last one have written about CHECKPOINT_PAGES. What it found in the WAL, over those items, is
 * what one costs (a checkpoint a reader held back counts high, so the next comes sooner). Passive:
 * it never waits for a reader, nor for Litestream's hold, and stops where they are.
 */
async function checkpointAfterChunk(db: Db, items: number): Promise<void> {
  const state = pageState(db);
  state.items += items;
  if (state.items * state.pagesPerItem < CHECKPOINT_PAGES || !db.open) return;
  const pages = await checkpoint(db);
  // At least a page an item: a run of items that wrote nothing (not due yet) must not teach a rate
  // so low that the next run, which writes, never checkpoints.
  state.pagesPerItem = Math.max(1, (pages ?? 0) / state.items);
  state.items = 0;
  await pause();
}

/**
 * Runs `each` over `items` in transactions of at most `chunk` items, of about CHUNK_BUDGET_MS and
 * of the pages that fit before SQLite's autocheckpoint, yielding between them, and checkpoints the
 * WAL between them (checkpointAfterChunk). Each item is done whole inside one transaction: a
 * failure rolls back its transaction alone and stops the run; what committed before stays.
 */
export async function inChunks<T>(deps: Pick<SweepDeps, 'db'>, items: readonly T[], chunk: number, each: (item: T, ctx: SweepContext) => void): Promise<void> {
  for (let next = 0; next < items.length; ) {
    const from = next;
    const fit = itemsThatFit(deps.db, chunk);
    next = inTransaction(deps.db, () => {
      const started = performance.now();
      const ctx = sweepContext(deps);
      const end = Math.min(items.length, next + fit);
      let i = next;
      while (i < end) {
        each(items[i]!, ctx);
        i++;
        if (performance.now() - started >= CHUNK_BUDGET_MS) break;
      }
      return i;
    });
    await pause();
    await checkpointAfterChunk(deps.db, next - from);
  }
}

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
