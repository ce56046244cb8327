import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { performance } from 'node:perf_hooks';
import type { Card } from '../cards/model';
import { cardsRepo } from '../cards/repo';
import type { Db } from '../db/connection';
import { normalizeEmail, normalizePhone } from '../lib/contact';
import { readOrgSettings, shopCountry } from '../orgs/settings';
import { parseCsvText, type CsvTable } from './csv-file';
import { readStoredMapping, type Mapping, type Target } from './mapping';
import type { ImportJob } from './repo';
import { readRow, shopWriting, type RowReading } from './rows';

// What an import reads: the file's rows read by the mapping once, as the shop's country writes
// (the dry run and every chunk of the import use these readings), and which rows repeat an earlier
// row's external id, email or phone: enroll would match such a row to the customer the earlier one
// created, so the import refuses it instead of losing that person without a word.

/** Reading yields to the event loop after this long. */
const SLICE_MS = 50;

/** What an import reads: the card, the file's table and the mapping its dry run checked, each row read by it. */
export interface ImportSource {
  card: Card;
  table: CsvTable;
  mapping: Mapping;
  fileSha256: string;
  /** Per data row: readRow's reading, as the shop's country writes phone numbers and numbers. */
  readings: RowReading[];
  /** Data rows (by index) that repeat an earlier row's external id, email or phone. */
  repeats: Map<number, Repeat>;
}

/** A row's external id, email or phone is the one of an earlier row of the same file. */
export interface Repeat {
  target: Extract<Target, 'externalId' | 'email' | 'phone'>;
  /** The earlier row's number. */
  row: number;
}


/** A column's name in messages: its header, or its position when the header cell is empty. */
export const columnNamer = (header: readonly string[]) => (i: number) => header[i] || `Column ${i + 1}`;

/**
 * Reads every row by the mapping and finds the rows that repeat an earlier one: the first row with
 * an external id, an email (compared as lookups compare it) or a phone (E.164) keeps it; a later
 * row with any of them is a repeat of that row. A refused row keeps nothing. Yields between slices.
 */
export async function readSource(db: Db, input: Pick<ImportSource, 'card' | 'table' | 'mapping' | 'fileSha256'>): Promise<ImportSource> {
  const writing = shopWriting(shopCountry(readOrgSettings(db, input.card.orgId)));
  const column = columnNamer(input.table.header);
  const firstRow = { externalId: new Map<string, number>(), email: new Map<string, number>(), phone: new Map<string, number>() };
  const readings: RowReading[] = [];
  const repeats = new Map<number, Repeat>();
  let sliceStart = performance.now();
  for (let i = 0; i < input.table.rows.length; i++) {
    const reading = readRow(input.card, input.mapping, input.table.rows[i]!, column, writing);
    readings.push(reading);
    if (reading.ok) {
      const keys = { externalId: reading.request.externalCustomerId, email: normalizeEmail(reading.request.email), phone: normalizePhone(reading.request.phone) };
      const targets = ['externalId', 'email', 'phone'] as const;
      const repeated = targets.find((t) => keys[t] !== null && firstRow[t].has(keys[t]));
      if (repeated) repeats.set(i, { target: repeated, row: firstRow[repeated].get(keys[repeated]!)! });
      else for (const t of targets) if (keys[t] !== null) firstRow[t].set(keys[t], input.table.rowNumbers[i]!);
    }
    if (performance.now() - sliceStart > SLICE_MS) {
      await yieldToEventLoop();
      sliceStart = performance.now();
    }
  }
  return { ...input, readings, repeats };
}

/** The file, card and mapping of a stored import, read again (after a restart, or to run it). */
export async function loadSource(db: Db, job: ImportJob): Promise<ImportSource | null> {
  const card = cardsRepo(db).findById(job.cardId);
  if (!card || job.csv === null) return null;
  const table = await parseCsvText(job.csv);
  const mapping = readStoredMapping(card, table.header, job.mapping);
  return mapping ? readSource(db, { card, table, mapping, fileSha256: job.fileSha256 }) : null;
}
