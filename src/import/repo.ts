import type { Db } from '../db/connection';
import { perConnection } from '../db/per-connection';
import type { Namespace } from '../customers/model';

// The imports table (migration 18): one row per uploaded file, its report in import_rows.

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
  message: string | null;
  customerId: string | null;
}

interface JobRow {
  id: string;
  org_id: string;
  livemode: number;
  card_id: string;
  file_name: string;
  file_sha256: string;
  csv: string | null;
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

// Without the file's text: lists and progress polls read only these.
const SUMMARY = `id, org_id, livemode, card_id, file_name, file_sha256, NULL AS csv, total_rows, mapping, status, next_row, created, matched, refused, created_at, started_at, finished_at, stop_reason`;

function createImportsRepo(db: Db) {
  const insert = db.prepare(
    `INSERT INTO imports (id, org_id, livemode, card_id, file_name, file_sha256, csv, total_rows, status, created_at)
     VALUES (@id, @orgId, @livemode, @cardId, @fileName, @fileSha256, @csv, @totalRows, 'draft', @createdAt)`,
  );
  const byId = db.prepare<{ id: string; orgId: string; livemode: number }, JobRow>('SELECT * FROM imports WHERE id = @id AND org_id = @orgId AND livemode = @livemode');
  const summaryById = db.prepare<{ id: string; orgId: string; livemode: number }, JobRow>(`SELECT ${SUMMARY} FROM imports WHERE id = @id AND org_id = @orgId AND livemode = @livemode`);
  const anyById = db.prepare<[string], JobRow>('SELECT * FROM imports WHERE id = ?');
  const recent = db.prepare<{ orgId: string; livemode: number }, JobRow>(
    `SELECT ${SUMMARY} FROM imports WHERE org_id = @orgId AND livemode = @livemode AND status <> 'draft' ORDER BY created_at DESC LIMIT 10`,
  );
  const running = db.prepare<[], { id: string }>("SELECT id FROM imports WHERE status = 'running' ORDER BY created_at");
  const setMapping = db.prepare("UPDATE imports SET mapping = @mapping WHERE id = @id AND status = 'draft'");
  const start = db.prepare("UPDATE imports SET status = 'running', started_at = @now WHERE id = @id AND status = 'draft' AND mapping IS NOT NULL");
  const advance = db.prepare(
    `UPDATE imports SET next_row = @nextRow, created = created + @created, matched = matched + @matched, refused = refused + @refused,
       status = CASE WHEN @nextRow >= total_rows THEN 'done' ELSE status END,
       csv = CASE WHEN @nextRow >= total_rows THEN NULL ELSE csv END,
       finished_at = CASE WHEN @nextRow >= total_rows THEN @now ELSE finished_at END
     WHERE id = @id AND status = 'running' AND next_row = @fromRow`,
  );
  const insertRow = db.prepare('INSERT INTO import_rows (import_id, row, outcome, column_name, message, customer_id) VALUES (@importId, @row, @outcome, @column, @message, @customerId)');
  const reportRows = db.prepare<{ importId: string; after: number; limit: number }, ReportRow>(
    'SELECT row, outcome, column_name AS "column", message, customer_id AS customerId FROM import_rows WHERE import_id = @importId AND row > @after ORDER BY row LIMIT @limit',
  );
  const refusedRows = db.prepare<{ importId: string; limit: number }, ReportRow>(
    `SELECT row, outcome, column_name AS "column", message, customer_id AS customerId FROM import_rows WHERE import_id = @importId AND outcome = 'refused' ORDER BY row LIMIT @limit`,
  );
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
    insert(job: Pick<ImportJob, 'id' | 'orgId' | 'livemode' | 'cardId' | 'fileName' | 'fileSha256' | 'csv' | 'totalRows' | 'createdAt'>) {
      insert.run({ ...job, livemode: job.livemode ? 1 : 0 });
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
    setMapping: (id: string, mapping: string) => setMapping.run({ id, mapping }).changes === 1,
    start: (id: string, now: number) => start.run({ id, now }).changes === 1,
    /** Moves the import past a chunk of rows (from `fromRow`); false when another writer moved it first. */
    advance: (id: string, chunk: { fromRow: number; nextRow: number; created: number; matched: number; refused: number }, now: number) =>
      advance.run({ id, ...chunk, now }).changes === 1,
    insertRow: (importId: string, r: ReportRow) => insertRow.run({ importId, ...r }),
    /** The report from row `after` on (exclusive), in row order. */
    reportRows: (importId: string, after: number, limit: number) => reportRows.all({ importId, after, limit }),
    refusedRows: (importId: string, limit: number) => refusedRows.all({ importId, limit }),
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
