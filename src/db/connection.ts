import type Database from 'better-sqlite3';

/** The SQLite connection every repo and service takes (db/open.ts makes it). */
export type Db = Database.Database;

/**
 * The page cache of each of our connections (PRAGMA cache_size; negative: KiB): SQLite's own default
 * of 2 MB, not the 16 MB better-sqlite3 compiles in. On a Raspberry Pi that memory counts, and the
 * operating system's page cache still holds the file: at 100,000 customers the books, the console's
 * pages, the sweeps and the erasures take the same time with 2 MB (bench/), and a backup's copy and
 * integrity check, which read each page about once, no longer fill 16 MB per connection.
 */
export const PAGE_CACHE_SIZE = -2000;
