import { inTransaction } from './transaction';
import { embeddedAsset } from '../lib/embedded-assets';
import type { Db } from './connection';
import { migrations as defaultSteps, type MigrationStep } from './migrations';

const BASE_VERSION = 1;

export function latestVersion(steps: MigrationStep[] = defaultSteps): number {
  return steps.reduce((max, step) => Math.max(max, step.version), BASE_VERSION);
}

/** The database was written by a newer program: nothing is changed, the operator needs that program. */
export class SchemaVersionError extends Error {}

/**
 * Brings the database to the latest version. Each step commits with its new user_version in one
 * transaction, so a crash or a failing step leaves the database at the last good version.
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
  // An existing database (version 1 or more) is copied before any step changes it.
  if (from >= BASE_VERSION && from < latest) options.beforeUpgrade?.(from, latest);
  if (from === 0) {
    const schema = embeddedAsset('schema.sql').text(); // inside the bundle; from disk under tsx
    inTransaction(db, () => {
      db.exec(schema);
      db.pragma(`user_version = ${BASE_VERSION}`);
    });
  }
  const ordered = [...steps].sort((a, b) => a.version - b.version);
  for (const step of ordered) {
    const current = db.pragma('user_version', { simple: true }) as number;
    if (step.version <= current) continue;
    if (step.version !== current + 1) throw new Error(`Migration step ${step.version} (${step.name}) does not follow version ${current}`);
    inTransaction(db, () => {
      if ('sql' in step) db.exec(step.sql);
      else step.run(db);
      db.pragma(`user_version = ${step.version}`);
    });
  }
  return { from, to: db.pragma('user_version', { simple: true }) as number };
}
