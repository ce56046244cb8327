import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { performance } from 'node:perf_hooks';
import type { Card } from '../cards/model';
import { cardsRepo } from '../cards/repo';
import { getOrgCard } from '../cards/service';
import { enrollCustomer, findEnrollMatch, type EnrollDeps, type MatchedBy } from '../customers/enroll';
import type { Namespace } from '../customers/model';
import { customersRepo } from '../customers/repo';
import { TEST_CUSTOMER_LIMIT } from '../customers/test-mode';
import { inTransaction } from '../db/transaction';
import type { Db } from '../db/connection';
import { normalizeEmail, normalizePhone } from '../lib/contact';
import { ApiError } from '../lib/errors';
import { randomToken } from '../lib/ids';
import { parseCsvText, readCsvFile, type CsvTable } from './csv-file';
import { readStoredMapping, type Mapping } from './mapping';
import { importsRepo, type ImportJob, type ReportRow } from './repo';
import { readRow, type RowRequest } from './rows';
import { sha256Hex } from '../lib/secrets';

// A customer import (decisions §9): every new customer through the one enroll (channel `import`,
// its opening balance one ledger row "Imported balance", customer.enrolled to the webhooks); a row
// that matches a customer by the enroll's rules is reported and left as it is. The dry run asks the
// same questions and writes nothing. The import runs in chunks, each one transaction that also
// records its rows' outcomes and how far the import got: a restart goes on after the last chunk
// written, and between chunks the event loop serves the counter and the API.

/** A chunk ends after this many rows or this many milliseconds, whichever comes first: short, so the counter and the API are answered between chunks. */
const CHUNK_ROWS = 500;
const CHUNK_MS = 50;

export const OPENING_NOTE = 'Imported balance';
const TEST_LIMIT_MESSAGE = `not imported: test data holds at most ${TEST_CUSTOMER_LIMIT} customers (import real customers in live data)`;
const MATCHED_BY: Record<MatchedBy, string> = { externalCustomerId: 'external id', email: 'email', phone: 'phone' };

/** What an import reads: the card, the file's table and the mapping its dry run checked. */
export interface ImportSource {
  card: Card;
  table: CsvTable;
  mapping: Mapping;
  fileSha256: string;
}

/** The summary of decisions §9: counts, and the refused rows (`message` names the column). */
export interface ImportSummary {
  created: number;
  matched: number;
  refused: number;
  rows: { row: number; outcome: 'refused'; message: string }[];
}

/** What a dry run reports: the summary, and each refused row's column and message apart (the console shows them in a table). */
export interface DryRunReport extends ImportSummary {
  refusedRows: ReportRow[];
}


const columnNamer = (header: readonly string[]) => (i: number) => header[i] || `Column ${i + 1}`;
const refused = (row: number, column: string | null, message: string): ReportRow => ({ row, outcome: 'refused', column, message, customerId: null });
const matched = (row: number, customerId: string | null, message: string): ReportRow => ({ row, outcome: 'matched', column: null, message, customerId });

/** A refusal of enroll's as the report says it. */
function refusalOf(err: ApiError): string {
  if (err.code === 'TEST_CUSTOMER_LIMIT') return TEST_LIMIT_MESSAGE;
  if (err.code === 'EXTERNAL_ID_ON_OTHER_CARD') return 'is the external id of a customer of another card';
  return err.message;
}

/** Customers the dry run would have created so far: later rows of the file match them, as in the import. */
interface Rehearsal {
  externalIds: Set<string>;
  emails: Set<string>;
  phones: Set<string>;
  /** Test customers that can still be created. */
  room: number;
}

/** The enroll's match for a row (or the customer this same file created before), or a refusal; null: a new customer. */
function matchRow(db: Db, n: Namespace, source: ImportSource, request: RowRequest, row: number, sameFile: Map<number, string>, rehearsal?: Rehearsal): ReportRow | null {
  const externalColumn = source.mapping.indexOf('externalId');
  let found;
  try {
    found = findEnrollMatch(db, n, source.card, { ...request, cardId: source.card.id });
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    return refused(row, externalColumn === -1 ? null : columnNamer(source.table.header)(externalColumn), refusalOf(err));
  }
  if (found) return matched(row, found.customer.id, `already a customer (same ${MATCHED_BY[found.by]})`);
  if (rehearsal) {
    const email = normalizeEmail(request.email);
    const phone = normalizePhone(request.phone);
    if (request.externalCustomerId && rehearsal.externalIds.has(request.externalCustomerId)) return matched(row, null, 'same customer as an earlier row (same external id)');
    if (email && rehearsal.emails.has(email)) return matched(row, null, 'same customer as an earlier row (same email)');
    if (phone && rehearsal.phones.has(phone)) return matched(row, null, 'same customer as an earlier row (same phone)');
  }
  // A row with nothing but a name can only be recognised as the row this very file created before.
  if (!request.externalCustomerId && !request.email && !request.phone) {
    const earlier = sameFile.get(row);
    if (earlier && customersRepo(db).findById(n, earlier)) return matched(row, earlier, 'imported before from this same file');
  }
  return null;
}

/** One row, written: created through enroll, matched, or refused. Inside the chunk's transaction. */
function importRow(deps: EnrollDeps, n: Namespace, source: ImportSource, i: number, sameFile: Map<number, string>): ReportRow {
  const row = source.table.rowNumbers[i]!;
  const reading = readRow(source.card, source.mapping, source.table.rows[i]!, columnNamer(source.table.header));
  if (!reading.ok) return refused(row, reading.column, reading.message);
  const match = matchRow(deps.db, n, source, reading.request, row, sameFile);
  if (match) return match;
  const { initialPoints, ...request } = reading.request;
  try {
    const result = enrollCustomer(
      deps,
      n,
      { ...request, cardId: source.card.id, ...(initialPoints > 0 ? { initialPoints } : {}) },
      { channel: 'import', idempotencyKey: null, openingNote: OPENING_NOTE },
    );
    return { row, outcome: 'created', column: null, message: null, customerId: result.passUserId };
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    return refused(row, null, refusalOf(err));
  }
}

/** One row, rehearsed: what importRow would do, with nothing written. */
function rehearseRow(db: Db, n: Namespace, source: ImportSource, i: number, sameFile: Map<number, string>, rehearsal: Rehearsal): ReportRow {
  const row = source.table.rowNumbers[i]!;
  const reading = readRow(source.card, source.mapping, source.table.rows[i]!, columnNamer(source.table.header));
  if (!reading.ok) return refused(row, reading.column, reading.message);
  const match = matchRow(db, n, source, reading.request, row, sameFile, rehearsal);
  if (match) return match;
  if (!n.livemode) {
    if (rehearsal.room <= 0) return refused(row, null, TEST_LIMIT_MESSAGE);
    rehearsal.room--;
  }
  const { externalCustomerId, email, phone } = reading.request;
  if (externalCustomerId) rehearsal.externalIds.add(externalCustomerId);
  const emailKey = normalizeEmail(email);
  if (emailKey) rehearsal.emails.add(emailKey);
  const phoneKey = normalizePhone(phone);
  if (phoneKey) rehearsal.phones.add(phoneKey);
  return { row, outcome: 'created', column: null, message: null, customerId: null };
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
  const rehearsal: Rehearsal = { externalIds: new Set(), emails: new Set(), phones: new Set(), room: n.livemode ? Infinity : TEST_CUSTOMER_LIMIT - customersRepo(db).count(n) };
  const report: DryRunReport = { created: 0, matched: 0, refused: 0, rows: [], refusedRows: [] };
  let sliceStart = performance.now();
  for (let i = 0; i < source.table.rows.length; i++) {
    const outcome = rehearseRow(db, n, source, i, sameFile, rehearsal);
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

/** The file, card and mapping of a stored import, read again (after a restart, or to run it). */
export async function loadSource(db: Db, job: ImportJob): Promise<ImportSource | null> {
  const card = cardsRepo(db).findById(job.cardId);
  if (!card || job.csv === null) return null;
  const table = await parseCsvText(job.csv);
  const mapping = readStoredMapping(card, table.header, job.mapping);
  return mapping ? { card, table, mapping, fileSha256: job.fileSha256 } : null;
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
 * passive checkpoint after each chunk copies only that chunk's pages, in its own turn of the event
 * loop. Passive: it never waits for a reader, nor for Litestream's hold, and stops where they are.
 */
export function checkpointAfterChunk(db: Db): void {
  if (db.open) db.pragma('wal_checkpoint(PASSIVE)');
}

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
    checkpointAfterChunk(deps.db);
    await pause();
  }
}

/** Ends a running import that cannot go on, with the reason the console and the CLI show. */
function stopImport(deps: Pick<EnrollDeps, 'db' | 'clock'>, jobId: string, reason: string): void {
  inTransaction(deps.db, () => importsRepo(deps.db).stop(jobId, reason, deps.clock.now()));
}

/** Stores an uploaded file as a draft import of the card: nothing else is written until it is started. */
export async function createDraft(deps: Pick<EnrollDeps, 'db' | 'clock'>, n: Namespace, input: { cardId: string; fileName: string; bytes: Buffer }): Promise<{ job: ImportJob; table: CsvTable }> {
  getOrgCard(deps, n.orgId, input.cardId);
  const { text, table } = await readCsvFile(input.bytes);
  const id = `imp_${randomToken(20)}`;
  const fileName = input.fileName.slice(0, 200) || 'customers.csv';
  inTransaction(deps.db, () =>
    importsRepo(deps.db).insert({ id, orgId: n.orgId, livemode: n.livemode, cardId: input.cardId, fileName, fileSha256: sha256Hex(text), csv: text, totalRows: table.rows.length, createdAt: deps.clock.now() }),
  );
  return { job: importsRepo(deps.db).find(n, id)!, table };
}

/** The source a draft's dry run reads, with the mapping the owner chose. */
export function draftSource(card: Card, job: ImportJob, table: CsvTable, mapping: Mapping): ImportSource {
  return { card, table, mapping, fileSha256: job.fileSha256 };
}

/** Keeps the mapping the dry run checked: the import runs with exactly that one. */
export function saveCheckedMapping(db: Db, jobId: string, mapping: Mapping): boolean {
  return inTransaction(db, () => importsRepo(db).setMapping(jobId, JSON.stringify(mapping)));
}

/** Starts a checked draft; false when it is not a draft with a checked mapping any more. */
export function startImport(deps: Pick<EnrollDeps, 'db' | 'clock'>, jobId: string): boolean {
  return inTransaction(deps.db, () => importsRepo(deps.db).start(jobId, deps.clock.now()));
}

/** The finished import's summary (decisions §9), its refused rows from the report. */
export function importSummary(db: Db, job: ImportJob): ImportSummary {
  return { created: job.created, matched: job.matched, refused: job.refused, rows: importsRepo(db).refusedRows(job.id, job.totalRows).map(summaryLine) };
}

/** Drafts never started hold a customer file: removed after a day. */
export function sweepImportDrafts(deps: Pick<EnrollDeps, 'db' | 'clock'>): number {
  const ids = importsRepo(deps.db).staleDraftIds(deps.clock.now() - 24 * 3_600_000);
  for (const id of ids) inTransaction(deps.db, () => importsRepo(deps.db).remove(id));
  return ids.length;
}
