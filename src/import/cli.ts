import { sha256Hex } from '../lib/secrets';
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { cardsRepo } from '../cards/repo';
import type { EnrollDeps } from '../loyalty/enroll';
import type { Namespace } from '../customers/model';
import { ImportFileError, readCsvFile } from './csv-file';
import { checkMapping, suggestMapping, targetLabel } from './mapping';
import { importsRepo } from './repo';
import { createDraft, saveCheckedMapping, startImport } from './drafts';
import { dryRun, importSummary, runImport, type ImportSummary } from './service';
import { readSource } from './source';

// `wallet-loyalty import <file.csv> --card <cardId> [--mode live|test] [--dry-run] [--data DIR]`
// (docs/import.md): the console's import without the mapping form, the columns mapped as their
// headers suggest. Prints the JSON summary; exit 0 even with refused rows, 1 when nothing could be
// read. It may run beside the server: each chunk is a transaction, with a rest between chunks.

/** A refusal of the whole command: one line on stderr, exit 1, nothing written. */
export class ImportCommandError extends Error {}

const REST_BETWEEN_CHUNKS_MS = 50;

export async function importCommand(deps: EnrollDeps, file: string, options: { cardId: string; livemode: boolean; dryRun: boolean }, note: (line: string) => void): Promise<ImportSummary> {
  const card = cardsRepo(deps.db).findById(options.cardId);
  if (!card) throw new ImportCommandError(`no card ${options.cardId} (the console's Cards page shows each card's id)`);
  const n: Namespace = { orgId: card.orgId, livemode: options.livemode };
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (err) {
    throw new ImportCommandError(`cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  let table, text;
  try {
    ({ table, text } = await readCsvFile(bytes));
  } catch (err) {
    if (err instanceof ImportFileError) throw new ImportCommandError(`${file}: ${err.message}`);
    throw err;
  }
  const suggested = suggestMapping(card, table.header);
  const { mapping, formError } = checkMapping(card, table.header, suggested.map((t) => t ?? ''));
  if (!mapping) {
    throw new ImportCommandError(`${file}: no usable column (${formError}). Name the columns Name, First name, Last name, Email, Phone, External id, Balance or after a question of the card; found: ${table.header.join(', ')}`);
  }
  note(`Columns: ${table.header.map((h, i) => `${h || `column ${i + 1}`} → ${mapping[i] ? targetLabel(card, mapping[i]!) : 'left out'}`).join('; ')}`);

  if (options.dryRun) {
    const { refusedRows: _, ...summary } = await dryRun(deps.db, n, await readSource(deps.db, { card, table, mapping, fileSha256: sha256Hex(text) }));
    return summary;
  }
  const { job } = await createDraft(deps, n, { cardId: card.id, fileName: file.split(/[\\/]/).pop() ?? file, bytes });
  saveCheckedMapping(deps.db, job.id, mapping);
  startImport(deps, job.id);
  await runImport(deps, job.id, () => false, () => sleep(REST_BETWEEN_CHUNKS_MS));
  const done = importsRepo(deps.db).findSummary(n, job.id)!;
  if (done.status === 'stopped') throw new ImportCommandError(`${file}: the import stopped after ${done.nextRow} of ${done.totalRows} rows: ${done.stopReason}`);
  return importSummary(deps.db, done);
}
