import type Database from 'better-sqlite3';

/** The connection a step runs on: better-sqlite3's, named here so that a step imports nothing from outside this folder. */
export type Db = Database.Database;

/**
 * One step of the schema's history: it moves a database from `version - 1` to `version`, in one
 * transaction with its new user_version. SQL, or a function for data that needs rules SQL cannot
 * say (synchronous, like every transaction: no await, no network).
 */
export type MigrationStep = {
  version: number;
  name: string;
  /**
   * The step rebuilds tables (rebuild-table.ts): the runner turns foreign keys off around the
   * step's transaction, as SQLite's procedure for a table rebuild asks, and fails the step when
   * it leaves a foreign key broken that was not broken before.
   */
  rebuildsTables?: true;
} & ({ sql: string } | { run: (db: Db) => void });
