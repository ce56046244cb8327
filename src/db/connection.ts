import type Database from 'better-sqlite3';

/** The SQLite connection every repo and service takes (db/open.ts makes it). */
export type Db = Database.Database;

/**
 * The page cache of each of our connections (PRAGMA cache_size; negative: KiB): SQLite's own default
 * of 2 MB, not the 16 MB better-sqlite3 compiles in. On a Raspberry Pi that memory counts, and the
 * operating system's page cache still holds the file, so a page missing here is read from memory,
 * not from the card. A backup's copy and integrity check read each page about once and gain
 * nothing from a larger cache.
 */
export const PAGE_CACHE_SIZE = -2000;
