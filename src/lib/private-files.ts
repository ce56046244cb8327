import { chmodSync, closeSync, existsSync, fchmodSync, mkdirSync, openSync } from 'node:fs';

// The database and every copy of it (backups, the copies kept before an upgrade and on a restore,
// `wallet-loyalty backup <file>`) hold every customer's personal data: only the server's own user
// may read them. Modes are set explicitly after creating, because the mode given to mkdir and
// open is reduced by the process's umask (022 on most systems, which gives 755 and 644).

export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/**
 * Creates `dir` (and missing parents) and makes it the server's alone. A folder that already
 * exists is tightened too, when this user owns it: it is the data or backup folder, which holds
 * nothing but the server's files. One owned by another user (a mount point) is left as it is.
 */
export function privateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  try {
    chmodSync(dir, PRIVATE_DIR_MODE);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') throw err;
  }
}

/**
 * An empty file only this user can read, for SQLite to write a database into (a new database, an
 * online backup, VACUUM INTO): SQLite would create it 644, and gives its -wal, -shm and journal
 * files the mode of the database. An existing file is emptied; with `exclusive`, it is left as it
 * is and false returned.
 */
export function createPrivateFile(file: string, options: { exclusive?: boolean } = {}): boolean {
  let fd: number;
  try {
    fd = openSync(file, options.exclusive ? 'wx' : 'w', PRIVATE_FILE_MODE);
  } catch (err) {
    if (options.exclusive && (err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
  try {
    fchmodSync(fd, PRIVATE_FILE_MODE);
  } finally {
    closeSync(fd);
  }
  return true;
}

/** Makes each existing file of `files` readable by this user only (a database written by an earlier version, its -wal and -shm). */
export function makePrivate(...files: string[]): void {
  for (const file of files) if (existsSync(file)) chmodSync(file, PRIVATE_FILE_MODE);
}
