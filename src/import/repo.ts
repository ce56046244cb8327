import type { Db } from '../db/connection';
import { perConnection } from '../db/per-connection';
import type { Namespace } from '../customers/model';
import { readReason, type Reason } from '../lib/reasons';

// The imports table (migrations 18 and 21): one row per uploaded file, its report in import_rows.

export type ImportStatus = 'draft' | 'running' | 'done' | 'stopped';
export type Outcome = 'created' | 'matched' | 'refused';

export interface ImportJob {
  id: string;
  orgId: string;
  livemode: boolean;
  cardId: string;
  fileName: string;
  fileSha256: string;
  /** The file's text until the import is done. */
  csv: string | null;
  /** JSON of the file's header row; null for imports uploaded before it was kept. */
  header: string | null;
  /** JSON of the first values of each column, for the mapping form; null once started. */
  samples: string | null;
  /** JSON of the draft's last dry run (service.ts StoredCheck); null before one, and once started. */
  checkReport: string | null;
  totalRows: number;
  /** JSON of the mapping its dry run checked; null before the first dry run. */
  mapping: string | null;
  status: ImportStatus;
  /** How many data rows are written (the index of the next one). */
  nextRow: number;
  created: number;
  matched: number;
  refused: number;
  createdAt: number;
  startedAt: number | null;
  finishedAt: number | null;
  /** Why a started import could not go on (status `stopped`). */
  stopReason: string | null;
}

export interface ReportRow {
  /** The row as a spreadsheet numbers it: the header is row 1, the first customer row 2. */
  row: number;
  outcome: Outcome;
  column: string | null;
  /** Why, in English (the CLI's words); null for a created row. */
  message: string | null;
  /** The message as values (lib/reasons.ts), what the console words it from; null for a created row and for rows reported before reasons were kept. */
  reason?: Reason | null;
  customerId: string | null;
  /** A refused row's cells as the file had them (kept 30 days, so the owner can fix and import them again); null otherwise. */
  cells?: readonly string[] | null;
}

interface JobRow {
  id: string;
  org_id: string;
  livemode: number;
  card_id: string;
  file_name: string;
  file_sha256: string;
  csv: string | null;
  header: string | null;
  samples: string | null;
  check_report: string | null;
  total_rows: number;
  mapping: string | null;
  status: ImportStatus;
  next_row: number;
  created: number;
  matched: number;
  refused: number;
  created_at: number;
  started_at: number | null;
  finished_at: number | null;
  stop_reason: string | null;
}

const map = (r: JobRow): ImportJob => ({
  id: r.id,
  orgId: r.org_id,
  livemode: r.livemode === 1,
  cardId: r.card_id,
  fileName: r.file_name,
  fileSha256: r.file_sha256,
  csv: r.csv,
  header: r.header,
  samples: r.samples,
  checkReport: r.check_report,
  totalRows: r.total_rows,
  mapping: r.mapping,
  status: r.status,
  nextRow: r.next_row,
  created: r.created,
  matched: r.matched,
  refused: r.refused,
  createdAt: r.created_at,
  startedAt: r.started_at,
  finishedAt: r.finished_at,
  stopReason: r.stop_reason,
});

// Without the file's text, samples and dry run: lists and progress polls read only these.
const SUMMARY = `id, org_id, livemode, card_id, file_name, file_sha256, NULL AS csv, header, NULL AS samples, NULL AS check_report, total_rows, mapping, status, next_row, created, matched, refused, created_at, started_at, finished_at, stop_reason`;
// A draft's page: everything but the file's text.
const DRAFT = `id, org_id, livemode, card_id, file_name, file_sha256, NULL AS csv, header, samples, check_report, total_rows, mapping, status, next_row, created, matched, refused, created_at, started_at, finished_at, stop_reason`;

interface ReportRowRecord {
  row: number;
  outcome: Outcome;
  column: string | null;
  message: string | null;
  reason: string | null;
  customerId: string | null;
  cells: string | null;
}
const reportRow = (r: ReportRowRecord): ReportRow => ({
  row: r.row,
  outcome: r.outcome,
  column: r.column,
  message: r.message,
  reason: readReason(r.reason) ?? null,
  customerId: r.customerId,
  cells: r.cells === null ? null : (JSON.parse(r.cells) as string[]),
});

function createImportsRepo(db: Db) {
  const insert = db.prepare(
    `INSERT INTO imports (id, org_id, livemode, card_id, file_name, file_sha256, csv, header, samples, total_rows, status, created_at)
     VALUES (@id, @orgId, @livemode, @cardId, @fileName, @fileSha256, @csv, @header, @samples, @totalRows, 'draft', @createdAt)`,
  );
  const draftById = db.prepare<{ id: string; orgId: string; livemode: number }, JobRow>(`SELECT ${DRAFT} FROM imports WHERE id = @id AND org_id = @orgId AND livemode = @livemode`);
  const byId = db.prepare<{ id: string; orgId: string; livemode: number }, JobRow>('SELECT * FROM imports WHERE id = @id AND org_id = @orgId AND livemode = @livemode');
  const summaryById = db.prepare<{ id: string; orgId: string; livemode: number }, JobRow>(`SELECT ${SUMMARY} FROM imports WHERE id = @id AND org_id = @orgId AND livemode = @livemode`);
  const anyById = db.prepare<[string], JobRow>('SELECT * FROM imports WHERE id = ?');
  const recent = db.prepare<{ orgId: string; livemode: number }, JobRow>(
    `SELECT ${SUMMARY} FROM imports WHERE org_id = @orgId AND livemode = @livemode AND status <> 'draft' ORDER BY created_at DESC LIMIT 10`,
  );
  const running = db.prepare<[], { id: string }>("SELECT id FROM imports WHERE status = 'running' ORDER BY created_at");
  const setMapping = db.prepare("UPDATE imports SET mapping = @mapping, check_report = @checkReport, check_csv = @checkCsv WHERE id = @id AND status = 'draft'");
  const checkCsv = db.prepare<{ id: string; orgId: string; livemode: number }, { mapping: string | null; check_report: string | null; check_csv: string | null }>(
    "SELECT mapping, check_report, check_csv FROM imports WHERE id = @id AND org_id = @orgId AND livemode = @livemode AND status = 'draft'",
  );
  const start = db.prepare(
    "UPDATE imports SET status = 'running', started_at = @now, samples = NULL, check_report = NULL, check_csv = NULL WHERE id = @id AND status = 'draft' AND mapping IS NOT NULL",
  );
  const advance = db.prepare(
    `UPDATE imports SET next_row = @nextRow, created = created + @created, matched = matched + @matched, refused = refused + @refused,
       status = CASE WHEN @nextRow >= total_rows THEN 'done' ELSE status END,
       csv = CASE WHEN @nextRow >= total_rows THEN NULL ELSE csv END,
       finished_at = CASE WHEN @nextRow >= total_rows THEN @now ELSE finished_at END
     WHERE id = @id AND status = 'running' AND next_row = @fromRow`,
  );
  const insertRow = db.prepare(
    'INSERT INTO import_rows (import_id, row, outcome, column_name, message, reason, customer_id, cells) VALUES (@importId, @row, @outcome, @column, @message, @reason, @customerId, @cells)',
  );
  const reportRows = db.prepare<{ importId: string; after: number; limit: number }, ReportRowRecord>(
    'SELECT row, outcome, column_name AS "column", message, reason, customer_id AS customerId, NULL AS cells FROM import_rows WHERE import_id = @importId AND row > @after ORDER BY row LIMIT @limit',
  );
  const refusedRows = db.prepare<{ importId: string; limit: number }, ReportRowRecord>(
    `SELECT row, outcome, column_name AS "column", message, reason, customer_id AS customerId, NULL AS cells FROM import_rows WHERE import_id = @importId AND outcome = 'refused' ORDER BY row LIMIT @limit`,
  );
  const refusedWithCells = db.prepare<{ importId: string; after: number; limit: number }, ReportRowRecord>(
    `SELECT row, outcome, column_name AS "column", message, reason, customer_id AS customerId, cells FROM import_rows
     WHERE import_id = @importId AND row > @after AND outcome = 'refused' AND cells IS NOT NULL ORDER BY row LIMIT @limit`,
  );
  // By the partial index: an import of 50,000 created rows and no refused one is not read row by row.
  const hasRefusedCells = db.prepare<[string], number>('SELECT EXISTS (SELECT 1 FROM import_rows INDEXED BY import_rows_cells WHERE import_id = ? AND cells IS NOT NULL)').pluck();
  const oldRefusedCells = db.prepare<[number], string>(
    'SELECT DISTINCT r.import_id FROM import_rows r INDEXED BY import_rows_cells JOIN imports i ON i.id = r.import_id WHERE r.cells IS NOT NULL AND i.finished_at < ?',
  ).pluck();
  const forgetCells = db.prepare('UPDATE import_rows INDEXED BY import_rows_cells SET cells = NULL WHERE import_id = ? AND cells IS NOT NULL');
  const sameFile = db.prepare<{ cardId: string; livemode: number; sha: string }, { row: number; customerId: string }>(
    `SELECT r.row AS row, r.customer_id AS customerId FROM imports i JOIN import_rows r ON r.import_id = i.id
     WHERE i.card_id = @cardId AND i.livemode = @livemode AND i.file_sha256 = @sha AND i.status IN ('done', 'stopped') AND r.outcome = 'created'`,
  );
  const createdIds = db.prepare<[string], string>("SELECT customer_id FROM import_rows WHERE import_id = ? AND outcome = 'created' ORDER BY row").pluck();
  const stop = db.prepare("UPDATE imports SET status = 'stopped', stop_reason = @reason, finished_at = @now, csv = NULL WHERE id = @id AND status = 'running'");
  const staleDrafts = db.prepare<[number], { id: string }>("SELECT id FROM imports WHERE status = 'draft' AND created_at < ?");
  const remove = db.prepare('DELETE FROM imports WHERE id = ?');

  const lm = (n: Namespace) => (n.livemode ? 1 : 0);
  return {
    insert(job: Pick<ImportJob, 'id' | 'orgId' | 'livemode' | 'cardId' | 'fileName' | 'fileSha256' | 'csv' | 'header' | 'samples' | 'totalRows' | 'createdAt'>) {
      insert.run({ ...job, livemode: job.livemode ? 1 : 0 });
    },
    /** Without the file's text, with its samples and last dry run: what a draft's page shows. */
    findDraft: (n: Namespace, id: string) => {
      const row = draftById.get({ id, orgId: n.orgId, livemode: lm(n) });
      return row && map(row);
    },
    /** With the file's text. */
    find: (n: Namespace, id: string) => {
      const row = byId.get({ id, orgId: n.orgId, livemode: lm(n) });
      return row && map(row);
    },
    /** Without the file's text. */
    findSummary: (n: Namespace, id: string) => {
      const row = summaryById.get({ id, orgId: n.orgId, livemode: lm(n) });
      return row && map(row);
    },
    findAny: (id: string) => {
      const row = anyById.get(id);
      return row && map(row);
    },
    recent: (n: Namespace) => recent.all({ orgId: n.orgId, livemode: lm(n) }).map(map),
    runningIds: () => running.all().map((r) => r.id),
    /** The mapping a dry run checked, with that dry run's report (JSON) and refused rows (CSV) when they are to be shown again. */
    setMapping: (id: string, mapping: string, check: { report: string; csv: string } | null = null) =>
      setMapping.run({ id, mapping, checkReport: check?.report ?? null, checkCsv: check?.csv ?? null }).changes === 1,
    /** A draft's stored dry run: its report (JSON, with the mapping it checked) and its refused rows as CSV. */
    checkOf: (n: Namespace, id: string) => {
      const row = checkCsv.get({ id, orgId: n.orgId, livemode: lm(n) });
      return row && { mapping: row.mapping, report: row.check_report, csv: row.check_csv };
    },
    start: (id: string, now: number) => start.run({ id, now }).changes === 1,
    /** Moves the import past a chunk of rows (from `fromRow`); false when another writer moved it first. */
    advance: (id: string, chunk: { fromRow: number; nextRow: number; created: number; matched: number; refused: number }, now: number) =>
      advance.run({ id, ...chunk, now }).changes === 1,
    insertRow: (importId: string, r: ReportRow) =>
      insertRow.run({
        importId,
        row: r.row,
        outcome: r.outcome,
        column: r.column,
        message: r.message,
        reason: r.reason ? JSON.stringify(r.reason) : null,
        customerId: r.customerId,
        cells: r.cells ? JSON.stringify(r.cells) : null,
      }),
    /** The report from row `after` on (exclusive), in row order (without the refused rows' cells). */
    reportRows: (importId: string, after: number, limit: number) => reportRows.all({ importId, after, limit }).map(reportRow),
    refusedRows: (importId: string, limit: number) => refusedRows.all({ importId, limit }).map(reportRow),
    /** The refused rows whose cells are still kept, from row `after` on (exclusive), in row order. */
    refusedWithCells: (importId: string, after: number, limit: number) => refusedWithCells.all({ importId, after, limit }).map(reportRow),
    hasRefusedCells: (importId: string) => hasRefusedCells.get(importId) === 1,
    /** Drops the refused rows' cells of imports finished before `before`; returns how many imports. */
    forgetRefusedCells: (before: number) => {
      const ids = oldRefusedCells.all(before);
      for (const id of ids) forgetCells.run(id);
      return ids.length;
    },
    /** Row → customer created by earlier finished imports of the very same file on this card and mode. */
    createdFromSameFile: (cardId: string, livemode: boolean, sha: string) => new Map(sameFile.all({ cardId, livemode: livemode ? 1 : 0, sha }).map((r) => [r.row, r.customerId])),
    /** The customers the import created, in row order. */
    createdCustomerIds: (importId: string) => createdIds.all(importId),
    /** Ends a running import that cannot go on; the rows it wrote stay, with their report. */
    stop: (id: string, reason: string, now: number) => stop.run({ id, reason, now }).changes === 1,
    staleDraftIds: (before: number) => staleDrafts.all(before).map((r) => r.id),
    remove: (id: string) => remove.run(id),
  };
}

export const importsRepo = perConnection(createImportsRepo);
