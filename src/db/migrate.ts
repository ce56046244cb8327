import { inTransaction } from './transaction';
import { embeddedAsset } from '../lib/embedded-assets';
import type { Db } from './connection';
import { migrations as defaultSteps, type MigrationStep } from './migrations';

export function latestVersion(steps: MigrationStep[] = defaultSteps): number {
  return steps.reduce((max, step) => Math.max(max, step.version), 0);
}

/** The database was written by a newer program: nothing is changed, the operator needs that program. */
export class SchemaVersionError extends Error {}

/** schema.sql: the schema a new database gets, and the version it sets (its `PRAGMA user_version = N;`). */
export function currentSchema(): { sql: string; version: number } {
  const sql = embeddedAsset('schema.sql').text(); // inside the bundle; from disk under tsx
  const version = /^PRAGMA user_version = (\d+);$/m.exec(sql)?.[1];
  if (version === undefined) throw new Error('schema.sql sets no user_version: generate it again with npm run schema');
  return { sql, version: Number(version) };
}

/**
 * Brings the database to the latest version of `steps`. A new database (user_version 0) runs
 * schema.sql, when that is the version it is to reach; otherwise (a test building the database of
 * an older release) it runs the steps from the initial schema up. An existing database runs the
 * steps above its version, each committed with its new user_version in one transaction, so a
 * crash or a failing step leaves the database at the last good version.
 */
export function migrate(db: Db, steps: MigrationStep[] = defaultSteps, options: { beforeUpgrade?: (from: number, to: number) => void } = {}): { from: number; to: number } {
  const from = db.pragma('user_version', { simple: true }) as number;
  const latest = latestVersion(steps);
  if (from > latest) {
    throw new SchemaVersionError(
      `the database has schema version ${from}, newer than this wallet-loyalty knows (${latest}); nothing was changed. ` +
        `Run the newer version again, or go back with the copy kept before that upgrade: wallet-loyalty restore <BACKUP_DIR>/before-schema-${from}-<time>.db (see "Upgrading" in the README)`,
    );
  }
  // An existing database is copied before any step changes it.
  if (from > 0 && from < latest) options.beforeUpgrade?.(from, latest);
  if (from === 0) {
    const schema = currentSchema();
    if (schema.version === latest) {
      inTransaction(db, () => {
        db.exec(schema.sql);
        const set = db.pragma('user_version', { simple: true }) as number;
        if (set !== latest) throw new Error(`schema.sql left the database at version ${set}, not ${latest}`);
      });
      return { from, to: latest };
    }
  }
  applySteps(db, steps);
  return { from, to: db.pragma('user_version', { simple: true }) as number };
}

/** Runs every step above the database's version, in version order, each in its own transaction. */
export function applySteps(db: Db, steps: MigrationStep[]): void {
  const ordered = [...steps].sort((a, b) => a.version - b.version);
  for (const step of ordered) {
    const current = db.pragma('user_version', { simple: true }) as number;
    if (step.version <= current) continue;
    if (step.version !== current + 1) throw new Error(`Migration step ${step.version} (${step.name}) does not follow version ${current}`);
    if (step.rebuildsTables) withForeignKeysOff(db, () => runStep(db, step));
    else runStep(db, step);
  }
}

function runStep(db: Db, step: MigrationStep): void {
  inTransaction(db, () => {
    const broken = step.rebuildsTables ? foreignKeyViolations(db) : 0;
    if ('sql' in step) db.exec(step.sql);
    else step.run(db);
    if (step.rebuildsTables && foreignKeyViolations(db) > broken) throw new Error(`Migration step ${step.version} (${step.name}) left a foreign key broken`);
    db.pragma(`user_version = ${step.version}`);
  });
}

/** PRAGMA foreign_keys is ignored inside a transaction, so it is turned off before the step's begins. */
function withForeignKeysOff(db: Db, fn: () => void): void {
  const was = db.pragma('foreign_keys', { simple: true }) as number;
  db.pragma('foreign_keys = OFF');
  try {
    fn();
  } finally {
    db.pragma(`foreign_keys = ${was ? 'ON' : 'OFF'}`);
  }
}

const foreignKeyViolations = (db: Db) => (db.pragma('foreign_key_check') as unknown[]).length;
