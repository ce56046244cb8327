import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';

// The files the server writes beside the database (decisions §9), named with the UTC time in ISO 8601's
// basic form (20260131T030000Z: no colons, which some file systems refuse), so that sorting the
// names sorts them by time.

/** `20260131T030000Z` for an instant. */
export function utcStamp(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z').replace(/[-:]/g, '');
}

/** The instant a stamp names (whole seconds). */
export function stampTime(stamp: string): number {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(stamp);
  if (!m) return NaN;
  const [, y, mo, d, h, mi, s] = m.map(Number) as number[];
  return Date.UTC(y!, mo! - 1, d!, h!, mi!, s!);
}

/** A daily (or Back up now) backup: the only files rotation counts and deletes. */
export const BACKUP_NAME = /^wallet-loyalty-(\d{8}T\d{6}Z)\.db$/;

export const backupName = (ms: number) => `wallet-loyalty-${utcStamp(ms)}.db`;
export const beforeSchemaName = (version: number, ms: number) => `before-schema-${version}-${utcStamp(ms)}.db`;
export const replacedName = (ms: number) => `replaced-${utcStamp(ms)}.db`;

export interface BackupFile {
  name: string;
  /** The time in its name. */
  at: number;
  sizeBytes: number;
}

/** The backups in `dir`, newest first; none when the folder does not exist yet. */
export function listBackups(dir: string): BackupFile[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (err) {
    // No folder yet, or a file in its place (the failed run says so): no backups to list.
    if (['ENOENT', 'ENOTDIR'].includes((err as NodeJS.ErrnoException).code ?? '')) return [];
    throw err;
  }
  const files: BackupFile[] = [];
  for (const name of names) {
    const m = BACKUP_NAME.exec(name);
    if (!m) continue;
    try {
      files.push({ name, at: stampTime(m[1]!), sizeBytes: statSync(path.join(dir, name)).size });
    } catch {
      // Removed between the listing and the stat (a rotation): not a backup any more.
    }
  }
  return files.sort((a, b) => (a.name < b.name ? 1 : -1));
}
