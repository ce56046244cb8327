import { readdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';

// The files the server writes beside the database (backups, the copy before a schema upgrade, the
// database a restore moved aside), named with the UTC time in ISO 8601's basic form
// (20260131T030000Z: no colons, which some file systems refuse), so that sorting the names sorts
// them by time.

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

/** A daily (or Back up now) backup: the only files the backups' rotation counts and deletes. */
export const BACKUP_NAME = /^wallet-loyalty-(\d{8}T\d{6}Z)\.db$/;
/** The copy made before a schema upgrade (in BACKUP_DIR) and the database a restore moved aside (in the data folder). */
export const BEFORE_SCHEMA_NAME = /^before-schema-\d+-(\d{8}T\d{6}Z)\.db$/;
export const REPLACED_NAME = /^replaced-(\d{8}T\d{6}Z)\.db$/;
/**
 * How many of each of those are kept: they are for going back after an upgrade or a restore that
 * went wrong, and they hold customers' data as it was, erased customers too, until they go.
 */
export const KEPT_COPIES = 3;

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
  return listNamed(dir, BACKUP_NAME);
}

/** The files in `dir` whose names match `pattern` (its first group the UTC stamp), newest first. */
export function listNamed(dir: string, pattern: RegExp): BackupFile[] {
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
    const m = pattern.exec(name);
    if (!m) continue;
    try {
      files.push({ name, at: stampTime(m[1]!), sizeBytes: statSync(path.join(dir, name)).size });
    } catch {
      // Removed between the listing and the stat (a rotation): not a backup any more.
    }
  }
  return files.sort((a, b) => b.at - a.at || (a.name < b.name ? 1 : -1));
}

/**
 * Removes all but the newest `keep` files of `dir` named by `pattern`, each with its -wal (a
 * replaced database may have one); no other file is touched. Returns the names removed; one that
 * cannot be removed is reported to `warn` and left.
 */
export function keepNewest(dir: string, pattern: RegExp, keep: number, warn: (file: string, err: unknown) => void): string[] {
  const removed: string[] = [];
  for (const file of listNamed(dir, pattern).slice(keep)) {
    try {
      rmSync(path.join(dir, file.name));
      rmSync(path.join(dir, `${file.name}-wal`), { force: true });
      removed.push(file.name);
    } catch (err) {
      warn(file.name, err);
    }
  }
  return removed;
}
