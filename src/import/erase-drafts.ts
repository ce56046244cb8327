import { parse } from 'csv-parse/sync';
import type { WriteDeps } from '../deps';
import { normalizeEmail, normalizePhone } from '../lib/contact';
import { detectDelimiter } from './csv-file';
import { draftFilesRepo } from './erase-drafts-repo';

/** Who was erased, as they could be recognised in a file: the values before the erasure. */
export interface ErasedPerson {
  orgId: string;
  livemode: boolean;
  email: string | null;
  phone: string | null;
  externalId: string | null;
}

// An erasure reaches the draft imports too (privacy/copies.ts lists them):
// a file uploaded and not yet imported would otherwise keep the person's row, and importing it later
// would bring them back. Each row with a cell that is the person's email, phone or external id is
// emptied. It stays an (empty) line, so every other row keeps its number in the dry run's report; the
// reader skips empty rows. A row with only a name cannot be told from a namesake's, and stays.

/** Empties the person's rows in the org's drafts, inside the erasure's transaction; returns how many. */
export function scrubImportDrafts(deps: Pick<WriteDeps, 'db'>, person: ErasedPerson): number {
  const email = normalizeEmail(person.email);
  const phone = normalizePhone(person.phone);
  const externalId = person.externalId;
  if (!email && !phone && !externalId) return 0;
  const isThePerson = (cell: string) => cell !== '' && (cell === externalId || (email !== null && normalizeEmail(cell) === email) || (phone !== null && normalizePhone(cell) === phone));
  const repo = draftFilesRepo(deps.db);
  let scrubbed = 0;
  for (const draft of repo.drafts(person.orgId, person.livemode)) {
    const delimiter = detectDelimiter(draft.csv);
    // Read as the import reads it (csv-file.ts), in one go: a draft is at most 10 MB, and an erasure
    // must not leave its transaction to wait for a parser.
    const records = parse(draft.csv, { delimiter, bom: true, trim: true, relax_column_count: true, relax_quotes: true, max_record_size: 1024 * 1024 }) as string[][];
    const header = records.findIndex((record) => record.some((cell) => cell !== ''));
    let hits = 0;
    const kept = records.map((record, i) => {
      if (i <= header || !record.some(isThePerson)) return record;
      hits++;
      return null;
    });
    if (hits === 0) continue;
    const text = kept.map((record) => (record === null ? '' : record.map((cell) => csvCell(cell, delimiter)).join(delimiter))).join('\r\n');
    const rows = kept.filter((record, i) => i > header && record !== null && record.some((cell) => cell !== '')).length;
    repo.replaceFile(draft.id, text, rows);
    scrubbed += hits;
  }
  return scrubbed;
}

/** A cell as CSV writes it: quoted when it holds the delimiter, a quote or a line break. */
function csvCell(cell: string, delimiter: string): string {
  return cell.includes(delimiter) || /["\r\n]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell;
}
