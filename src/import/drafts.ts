import { getOrgCard } from '../cards/service';
import type { EnrollDeps } from '../loyalty/enroll';
import type { Namespace } from '../customers/model';
import type { Db } from '../db/connection';
import { inTransaction } from '../db/transaction';
import { randomToken } from '../lib/ids';
import { sha256Hex } from '../lib/secrets';
import { parseCsvText, readCsvFile, type CsvTable } from './csv-file';
import type { Mapping } from './mapping';
import { importsRepo, type ImportJob } from './repo';
import type { DryRunReport } from './service';

// An uploaded file before its import starts: the file, its header and first values (the mapping
// form shows them without reading the file again), the mapping the owner checked, and that check's
// dry run, made once and kept to be shown and downloaded as it is.

/** The mapping form shows this many first values of each column. */
const SAMPLES = 3;

/** The first non-empty values of each column (cut at 40 characters), as the mapping form shows them. */
export function samplesOf(table: Pick<CsvTable, 'header' | 'rows'>): string[][] {
  return table.header.map((_, column) => {
    const found: string[] = [];
    for (const row of table.rows) {
      const value = row[column]?.trim();
      if (value) found.push(value.length > 40 ? `${value.slice(0, 39)}…` : value);
      if (found.length === SAMPLES) break;
    }
    return found;
  });
}

/**
 * Stores an uploaded file as a draft import of the card: nothing else is written until it is
 * started. The header and the first values are kept apart, so the draft's page never reads the
 * file again.
 */
export async function createDraft(deps: Pick<EnrollDeps, 'db' | 'clock'>, n: Namespace, input: { cardId: string; fileName: string; bytes: Buffer }): Promise<{ job: ImportJob; table: CsvTable }> {
  getOrgCard(deps, n.orgId, input.cardId);
  const { text, table } = await readCsvFile(input.bytes);
  const id = `imp_${randomToken(20)}`;
  const fileName = input.fileName.slice(0, 200) || 'customers.csv';
  inTransaction(deps.db, () =>
    importsRepo(deps.db).insert({
      id,
      orgId: n.orgId,
      livemode: n.livemode,
      cardId: input.cardId,
      fileName,
      fileSha256: sha256Hex(text),
      csv: text,
      header: JSON.stringify(table.header),
      samples: JSON.stringify(samplesOf(table)),
      totalRows: table.rows.length,
      createdAt: deps.clock.now(),
    }),
  );
  return { job: importsRepo(deps.db).find(n, id)!, table };
}

/** What a draft's page shows without reading its file: the header and each column's first values. */
export async function draftPreview(db: Db, n: Namespace, job: ImportJob): Promise<{ header: string[]; samples: string[][] }> {
  if (job.header !== null && job.samples !== null) return { header: JSON.parse(job.header) as string[], samples: JSON.parse(job.samples) as string[][] };
  // A draft uploaded before these were kept (a day old at most): its file, read once more.
  const table = await parseCsvText(importsRepo(db).find(n, job.id)?.csv ?? '');
  return { header: table.header, samples: samplesOf(table) };
}

/** How many refused rows a draft's page shows; the CSV has them all. */
export const SHOWN_REFUSALS = 100;

/** A draft's dry run as kept with it: the mapping it checked, its figures, its first refused rows. */
interface StoredCheck {
  mapping: string;
  report: DryRunReport;
}

/** The draft's last dry run, when it checked the mapping the draft now has (its first refused rows only). */
export function storedCheck(job: Pick<ImportJob, 'mapping' | 'checkReport'>): DryRunReport | null {
  if (!job.checkReport || !job.mapping) return null;
  const check = JSON.parse(job.checkReport) as StoredCheck;
  return check.mapping === job.mapping ? check.report : null;
}

/**
 * Keeps the mapping the dry run checked (the import runs with exactly that one) and, from the
 * console, the dry run itself: its figures and first refused rows for the page, every refused row
 * as the CSV the owner downloads. Both are made once, here, never again per view.
 */
export function saveCheckedMapping(db: Db, jobId: string, mapping: Mapping, check?: { report: DryRunReport; csv: string }): boolean {
  const json = JSON.stringify(mapping);
  const stored: StoredCheck | null = check
    ? { mapping: json, report: { ...check.report, rows: [], refusedRows: check.report.refusedRows.slice(0, SHOWN_REFUSALS).map((r) => ({ ...r, cells: null })) } }
    : null;
  return inTransaction(db, () => importsRepo(db).setMapping(jobId, json, stored && check ? { report: JSON.stringify(stored), csv: check.csv } : null));
}

/** Starts a checked draft; false when it is not a draft with a checked mapping any more. */
export function startImport(deps: Pick<EnrollDeps, 'db' | 'clock'>, jobId: string): boolean {
  return inTransaction(deps.db, () => importsRepo(deps.db).start(jobId, deps.clock.now()));
}
