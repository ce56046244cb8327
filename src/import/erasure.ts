import { parse } from 'csv-parse/sync';
import type { WriteDeps } from '../deps';
import { normalizeEmail, normalizePhone, normalizeTypedPhone } from '../lib/contact';
import { readOrgSettings, shopCountry } from '../orgs/settings';
import { detectDelimiter, unguard } from './csv-file';
import { samplesOf } from './drafts';
import { importErasureRepo } from './erasure-repo';

// An erasure reaches what the import keeps of a person (privacy/copies.ts lists it): the files of
// drafts not yet imported (importing one later would bring the person back) with the first values
// the mapping form shows, and the cells of refused rows, kept 30 days for the owner to fix. A row
// with a cell that is the person's email, phone or external id, read as the import reads it (the
// formula guard taken off; a phone number without its country code as a number of the shop's
// country), loses its values. A row with only a name cannot be told from a namesake's, and stays.

/** Who was erased, as they could be recognised in a file: the values before the erasure. */
export interface ErasedPerson {
  orgId: string;
  livemode: boolean;
  email: string | null;
  phone: string | null;
  externalId: string | null;
}

/** Whether a cell is the person's email, phone or external id; null when there is nothing to recognise them by. */
function recogniser(deps: Pick<WriteDeps, 'db'>, person: ErasedPerson): ((raw: string) => boolean) | null {
  const email = normalizeEmail(person.email);
  const phone = normalizePhone(person.phone);
  const externalId = person.externalId;
  if (!email && !phone && !externalId) return null;
  const country = shopCountry(readOrgSettings(deps.db, person.orgId));
  // A file has many cells of digits (member numbers, points): libphonenumber reads only those that
  // end in the number's last four digits, which every way of writing it keeps.
  const tail = phone?.slice(-4);
  const isPhone = (cell: string) => phone !== null && cell.replace(/\D/g, '').endsWith(tail!) && normalizeTypedPhone(cell, country) === phone;
  return (raw) => {
    const cell = unguard(raw);
    return cell !== '' && (cell === externalId || (email !== null && normalizeEmail(cell) === email) || isPhone(cell));
  };
}

/**
 * Empties the person's rows in the org's drafts, inside the erasure's transaction: each stays an
 * (empty) line, so every other row keeps its number in the dry run's report (the reader skips
 * empty rows). The first values are read again from what is left; the stored dry run goes.
 * Returns how many rows were emptied.
 */
export function scrubImportDrafts(deps: Pick<WriteDeps, 'db'>, person: ErasedPerson): number {
  const isThePerson = recogniser(deps, person);
  if (!isThePerson) return 0;
  const repo = importErasureRepo(deps.db);
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
    const rows = kept.filter((record, i): record is string[] => i > header && record !== null && record.some((cell) => cell !== '')).map((record) => record.map(unguard));
    repo.replaceFile(draft.id, { csv: text, totalRows: rows.length, samples: JSON.stringify(samplesOf({ header: records[header]!.map(unguard), rows })) });
    scrubbed += hits;
  }
  return scrubbed;
}

/** Forgets the cells of the person's refused rows in the org's imports; the row's number and reason stay. Returns how many. */
export function scrubRefusedRows(deps: Pick<WriteDeps, 'db'>, person: ErasedPerson): number {
  const isThePerson = recogniser(deps, person);
  if (!isThePerson) return 0;
  const repo = importErasureRepo(deps.db);
  let scrubbed = 0;
  for (const row of repo.refusedCells(person.orgId, person.livemode)) {
    if (row.cells.some(isThePerson) && repo.forgetCells(row.importId, row.row)) scrubbed++;
  }
  return scrubbed;
}

/** A cell as CSV writes it: quoted when it holds the delimiter, a quote or a line break. */
function csvCell(cell: string, delimiter: string): string {
  return cell.includes(delimiter) || /["\r\n]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell;
}
