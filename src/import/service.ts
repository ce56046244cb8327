import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { performance } from 'node:perf_hooks';
import { enrollCustomer, findEnrollMatch, type EnrollDeps, type MatchedBy } from '../loyalty/enroll';
import type { Namespace } from '../customers/model';
import { customersRepo } from '../customers/repo';
import { TEST_CUSTOMER_LIMIT } from '../customers/test-mode';
import { inTransaction } from '../db/transaction';
import { checkpoint } from '../db/checkpoints';
import type { Db } from '../db/connection';
import { ApiError } from '../lib/errors';
import { reason, type Reason } from '../lib/reasons';
import { importsRepo, type ImportJob, type ReportRow } from './repo';
import type { RowRefusal, RowRequest } from './rows';
import { columnNamer, loadSource, type ImportSource, type Repeat } from './source';

// A customer import (docs/import.md): every new customer through the one enroll (channel `import`,
// its opening balance one ledger row "Imported balance", customer.enrolled to the webhooks); a row
// that matches a customer by the enroll's rules is reported and left as it is. A row that repeats
// an earlier row's external id, email or phone is refused ("same email as row 4"): enroll would
// match it to the customer the earlier row created, and that person would be lost without a word.
// The dry run asks the same questions and writes nothing. The import runs in chunks, each one
// transaction that also records its rows' outcomes and how far the import got: a restart goes on
// after the last chunk written, and between chunks the event loop serves the counter and the API.

/** A chunk ends after this many rows or this many milliseconds, whichever comes first: short, so the counter and the API are answered between chunks. */
const CHUNK_ROWS = 500;
const CHUNK_MS = 50;

export const OPENING_NOTE = 'Imported balance';
const TEST_LIMIT: RowRefusal = {
  message: `not imported: test data holds at most ${TEST_CUSTOMER_LIMIT} customers (import real customers in live data)`,
  reason: reason('row.testFull', { max: TEST_CUSTOMER_LIMIT }),
};
const MATCHED_BY: Record<MatchedBy, string> = { externalCustomerId: 'external id', email: 'email', phone: 'phone' };
const MATCHED_WHAT: Record<MatchedBy, 'externalId' | 'email' | 'phone'> = { externalCustomerId: 'externalId', email: 'email', phone: 'phone' };

/** The summary `wallet-loyalty import` prints: counts, and the refused rows (`message` names the column). */
export interface ImportSummary {
  created: number;
  matched: number;
  refused: number;
  rows: { row: number; outcome: 'refused'; message: string }[];
}

/** What a dry run reports: the summary, and each refused row's column, message and cells apart (the console shows them in a table and a CSV). */
export interface DryRunReport extends ImportSummary {
  refusedRows: ReportRow[];
}

const refused = (row: number, column: string | null, why: { message: string; reason?: Reason }, cells: readonly string[]): ReportRow => ({
  row,
  outcome: 'refused',
  column,
  message: why.message,
  reason: why.reason ?? null,
  customerId: null,
  cells,
});
const matched = (row: number, customerId: string | null, why: RowRefusal): ReportRow => ({ row, outcome: 'matched', column: null, message: why.message, reason: why.reason, customerId });

/**
 * A refusal of enroll's as the report says it: its own words and values for the two a row can
 * meet, else enroll's message ("CODE: reason") with the values it has, if any.
 */
function refusalOf(err: ApiError): { message: string; reason?: Reason } {
  if (err.code === 'TEST_CUSTOMER_LIMIT') return TEST_LIMIT;
  if (err.code === 'EXTERNAL_ID_ON_OTHER_CARD') return { message: 'is the external id of a customer of another card', reason: reason('row.otherCard') };
  const why = err.reason ?? (err.issues.length === 1 ? err.issues[0]!.reason : undefined);
  return why ? { message: err.message, reason: why } : { message: err.message };
}

const REPEAT_WORDS: Record<Repeat['target'], string> = { externalId: 'external id', email: 'email', phone: 'phone' };

/** The enroll's match for a row (or the customer this same file created before), or a refusal; null: a new customer. */
function matchRow(db: Db, n: Namespace, source: ImportSource, request: RowRequest, i: number, sameFile: Map<number, string>): ReportRow | null {
  const row = source.table.rowNumbers[i]!;
  const cells = source.table.rows[i]!;
  const repeat = source.repeats.get(i);
  if (repeat) {
    const at = source.mapping.indexOf(repeat.target);
    const why = { message: `same ${REPEAT_WORDS[repeat.target]} as row ${repeat.row}`, reason: reason('row.same', { what: repeat.target, row: repeat.row }) };
    return refused(row, at === -1 ? null : columnNamer(source.table.header)(at), why, cells);
  }
  const externalColumn = source.mapping.indexOf('externalId');
  let found;
  try {
    found = findEnrollMatch(db, n, source.card, { ...request, cardId: source.card.id });
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    return refused(row, externalColumn === -1 ? null : columnNamer(source.table.header)(externalColumn), refusalOf(err), cells);
  }
  if (found) return matched(row, found.customer.id, { message: `already a customer (same ${MATCHED_BY[found.by]})`, reason: reason('row.matched', { what: MATCHED_WHAT[found.by] }) });
  // A row with nothing but a name can only be recognised as the row this very file created before.
  if (!request.externalCustomerId && !request.email && !request.phone) {
    const earlier = sameFile.get(row);
    if (earlier && customersRepo(db).findById(n, earlier)) return matched(row, earlier, { message: 'imported before from this same file', reason: reason('row.sameFile') });
  }
  return null;
}

/** One row, written: created through enroll, matched, or refused. Inside the chunk's transaction. */
function importRow(deps: EnrollDeps, n: Namespace, source: ImportSource, i: number, sameFile: Map<number, string>): ReportRow {
  const row = source.table.rowNumbers[i]!;
  const cells = source.table.rows[i]!;
  const reading = source.readings[i]!;
  if (!reading.ok) return refused(row, reading.column, reading, cells);
  const match = matchRow(deps.db, n, source, reading.request, i, sameFile);
  if (match) return match;
  const { initialPoints, ...request } = reading.request;
  try {
    const result = enrollCustomer(
      deps,
      n,
      { ...request, cardId: source.card.id, ...(initialPoints > 0 ? { initialPoints } : {}) },
      { channel: 'import', idempotencyKey: null, openingNote: OPENING_NOTE },
    );
    return { row, outcome: 'created', column: null, message: null, reason: null, customerId: result.passUserId };
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    return refused(row, null, refusalOf(err), cells);
  }
}

/** One row, rehearsed: what importRow would do, with nothing written. `room`: test customers that can still be created. */
function rehearseRow(db: Db, n: Namespace, source: ImportSource, i: number, sameFile: Map<number, string>, room: { left: number }): ReportRow {
  const row = source.table.rowNumbers[i]!;
  const cells = source.table.rows[i]!;
  const reading = source.readings[i]!;
  if (!reading.ok) return refused(row, reading.column, reading, cells);
  const match = matchRow(db, n, source, reading.request, i, sameFile);
  if (match) return match;
  if (!n.livemode) {
    if (room.left <= 0) return refused(row, null, TEST_LIMIT, cells);
    room.left--;
  }
  return { row, outcome: 'created', column: null, message: null, reason: null, customerId: null };
}

export function summaryLine(r: ReportRow): { row: number; outcome: 'refused'; message: string } {
  return { row: r.row, outcome: 'refused', message: r.column ? `${r.column}: ${r.message}` : (r.message ?? '') };
}

/**
 * What the import would do with this file and mapping, writing nothing. Runs in slices of at most
 * CHUNK_MS, yielding between them, so a 50,000-row check never holds the event loop.
 */
export async function dryRun(db: Db, n: Namespace, source: ImportSource): Promise<DryRunReport> {
  const sameFile = importsRepo(db).createdFromSameFile(source.card.id, n.livemode, source.fileSha256);
  const room = { left: n.livemode ? Infinity : TEST_CUSTOMER_LIMIT - customersRepo(db).count(n) };
  const report: DryRunReport = { created: 0, matched: 0, refused: 0, rows: [], refusedRows: [] };
  let sliceStart = performance.now();
  for (let i = 0; i < source.table.rows.length; i++) {
    const outcome = rehearseRow(db, n, source, i, sameFile, room);
    report[outcome.outcome]++;
    if (outcome.outcome === 'refused') {
      report.refusedRows.push(outcome);
      report.rows.push(summaryLine(outcome));
    }
    if (performance.now() - sliceStart > CHUNK_MS) {
      await yieldToEventLoop();
      sliceStart = performance.now();
    }
  }
  return report;
}

/**
 * Writes the next chunk of a running import in one transaction: its rows, their report lines and
 * the import's new position. Returns the next row to write, or null when the import is no longer
 * running (finished, or its card was deleted).
 */
export function importChunk(deps: EnrollDeps, job: Pick<ImportJob, 'id' | 'orgId' | 'livemode'>, source: ImportSource, sameFile: Map<number, string>): number | null {
  const n: Namespace = { orgId: job.orgId, livemode: job.livemode };
  const repo = importsRepo(deps.db);
  return inTransaction(deps.db, () => {
    const current = repo.findSummary(n, job.id);
    if (!current || current.status !== 'running') return null;
    const from = current.nextRow;
    const counts = { created: 0, matched: 0, refused: 0 };
    const started = performance.now();
    let i = from;
    while (i < source.table.rows.length && i - from < CHUNK_ROWS && (i === from || performance.now() - started < CHUNK_MS)) {
      const outcome = importRow(deps, n, source, i, sameFile);
      repo.insertRow(job.id, outcome);
      counts[outcome.outcome]++;
      i++;
    }
    if (!repo.advance(job.id, { fromRow: from, nextRow: i, ...counts }, deps.clock.now())) throw new Error(`import ${job.id} moved while its chunk ran`);
    return i < source.table.rows.length ? i : null;
  });
}

/** A running import with what its chunks read: the file, card and mapping (null when they no longer fit), and the rows this same file created before. */
export interface OpenImport {
  job: ImportJob;
  source: ImportSource | null;
  sameFile: Map<number, string>;
}

/** Reads a running import's file and mapping again (after a restart, or to run it); null when it is not running. */
export async function openImport(db: Db, jobId: string): Promise<OpenImport | null> {
  const job = importsRepo(db).findAny(jobId);
  if (!job || job.status !== 'running') return null;
  const source = await loadSource(db, job);
  const sameFile = source ? importsRepo(db).createdFromSameFile(source.card.id, job.livemode, source.fileSha256) : new Map<number, string>();
  return { job, source, sameFile };
}

/**
 * One step of a running import (in the caller's transaction, or one of its own): its next chunk,
 * or its end with the reason when it cannot go on. True while rows remain. A fault (not a refused
 * row: those are reported) stops the import, so it does not fail again at every wake-up, and is
 * rethrown.
 */
export function continueImport(deps: EnrollDeps, open: OpenImport): boolean {
  if (!open.source) {
    stopImport(deps, open.job.id, 'the card or its questions changed after the dry run, so the file no longer fits it. Upload the file again: rows already imported are recognised and left as they are.');
    return false;
  }
  try {
    return importChunk(deps, open.job, open.source, open.sameFile) !== null;
  } catch (err) {
    failImport(deps, open.job.id);
    throw err;
  }
}

/** Ends a running import after a fault; the rows before it stay imported. */
export function failImport(deps: Pick<EnrollDeps, 'db' | 'clock'>, jobId: string): void {
  stopImport(deps, jobId, 'an unexpected error stopped it; the rows before it are imported. Upload the file again to bring in the rest.');
}

/**
 * Between two chunks, outside any transaction. An import writes pages faster than anything else:
 * left to SQLite's autocheckpoint, every thousandth page would make one chunk's commit copy 4 MB
 * into the database file and sync it, holding the event loop several times a chunk's length. A
 * checkpoint after each chunk copies only that chunk's pages, off the event loop in the server
 * (db/checkpoints.ts), before the next chunk begins.
 */
export const checkpointAfterChunk = (db: Db): Promise<unknown> => checkpoint(db);

/**
 * Runs a started import to its end (or until `stop()` says so), one chunk at a time: the CLI's
 * import (the server's runs through the import runner's queue). `pause` runs between chunks: in
 * another process, a rest that lets the server take the write lock.
 */
export async function runImport(deps: EnrollDeps, jobId: string, stop: () => boolean = () => false, pause: () => Promise<unknown> = yieldToEventLoop): Promise<void> {
  const open = await openImport(deps.db, jobId);
  if (!open) return;
  while (!stop() && deps.db.open && continueImport(deps, open)) {
    await pause();
    await checkpointAfterChunk(deps.db);
  }
}

/** Ends a running import that cannot go on, with the reason the console and the CLI show. */
function stopImport(deps: Pick<EnrollDeps, 'db' | 'clock'>, jobId: string, reason: string): void {
  inTransaction(deps.db, () => importsRepo(deps.db).stop(jobId, reason, deps.clock.now()));
}

/** The finished import's summary, its refused rows from the report. */
export function importSummary(db: Db, job: ImportJob): ImportSummary {
  return { created: job.created, matched: job.matched, refused: job.refused, rows: importsRepo(db).refusedRows(job.id, job.totalRows).map(summaryLine) };
}

/** How long a finished import keeps its refused rows' values, for the owner to download, fix and import again. */
export const REFUSED_VALUES_DAYS = 30;

/**
 * Personal data an import holds beyond its use: drafts never started (a customer file) are removed
 * after a day; the values of refused rows are dropped 30 days after the import finished (the
 * report's row numbers and reasons stay). Returns the number of drafts removed.
 */
export function sweepImportDrafts(deps: Pick<EnrollDeps, 'db' | 'clock'>): number {
  const ids = importsRepo(deps.db).staleDraftIds(deps.clock.now() - 24 * 3_600_000);
  for (const id of ids) inTransaction(deps.db, () => importsRepo(deps.db).remove(id));
  inTransaction(deps.db, () => importsRepo(deps.db).forgetRefusedCells(deps.clock.now() - REFUSED_VALUES_DAYS * 24 * 3_600_000));
  return ids.length;
}

