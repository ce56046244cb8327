import type { Namespace } from '../customers/model';
import type { Db } from '../db/connection';
import { importsRepo, type ImportJob, type ReportRow } from './repo';

// An import as its pages read it: the job, its recent neighbours, its report and its refused rows.
// Long reports are read in batches by row number (keyset), so a 50,000-row download never holds
// the database or the event loop for long.

export type { ImportJob, ReportRow } from './repo';

/** The namespace's import: without the file's text, or `withFile` with it (to check its mapping). */
export function findImport(db: Db, n: Namespace, id: string, options: { withFile?: boolean } = {}): ImportJob | undefined {
  return options.withFile ? importsRepo(db).find(n, id) : importsRepo(db).findDraft(n, id);
}

/** The import's progress and counts (no file, no samples): what its progress panel polls. */
export function findImportSummary(db: Db, n: Namespace, id: string): ImportJob | undefined {
  return importsRepo(db).findSummary(n, id);
}

/** The namespace's latest imports, newest first. */
export function recentImports(db: Db, n: Namespace): ImportJob[] {
  return importsRepo(db).recent(n);
}

/** The first `limit` refused rows of the import's report, in row order. */
export function firstRefusedRows(db: Db, importId: string, limit: number): ReportRow[] {
  return importsRepo(db).refusedRows(importId, limit);
}

/** Whether the values of the import's refused rows are still kept (for their download). */
export function keepsRefusedValues(db: Db, importId: string): boolean {
  return importsRepo(db).hasRefusedCells(importId);
}

/** The customers the import created, in row order. */
export function createdCustomerIds(db: Db, importId: string): string[] {
  return importsRepo(db).createdCustomerIds(importId);
}

/** A draft's stored dry run: the mapping it checked, its report (JSON) and its refused rows (CSV). */
export function storedDryRun(db: Db, n: Namespace, id: string): { mapping: string | null; report: string | null; csv: string | null } | undefined {
  return importsRepo(db).checkOf(n, id);
}

function* batches(read: (after: number) => ReportRow[], size: number): Generator<ReportRow[]> {
  let after = 0;
  for (;;) {
    const rows = read(after);
    if (rows.length) yield rows;
    if (rows.length < size) return;
    after = rows[rows.length - 1]!.row;
  }
}

/** The import's whole report, in row order, `size` rows a batch (no empty batch). */
export function reportBatches(db: Db, importId: string, size: number): Generator<ReportRow[]> {
  return batches((after) => importsRepo(db).reportRows(importId, after, size), size);
}

/** The refused rows whose values are still kept, with them, in row order, `size` rows a batch. */
export function refusedRowBatches(db: Db, importId: string, size: number): Generator<ReportRow[]> {
  return batches((after) => importsRepo(db).refusedWithCells(importId, after, size), size);
}
