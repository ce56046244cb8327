import Database from 'better-sqlite3';
import type { Db } from './connection';

// A CHECK that lists three values or more (`source IN ('api', 'scan', 'signup', 'console')`) is
// checked by SQLite by building a temporary B-tree of the list for every row it writes
// (OpenEphemeral, then the B-tree closed again; two values it compares one by one). The ledger row,
// the delivery row and its status update each paid it on every earn. The comparisons refuse and accept exactly the same values (NULL included:
// both give NULL, which a CHECK lets pass; the columns are NOT NULL anyway).

const LISTED_CHECK = /CHECK \((\w+) IN \(('[a-z_]*'(?:, '[a-z_]*'){2,})\)\)/g;

/** `CHECK (c IN ('a', 'b', 'c'))` → `CHECK (c = 'a' OR c = 'b' OR c = 'c')`; the rest of the text as it was. */
export function listedChecksAsComparisons(createTableSql: string): string {
  return createTableSql.replace(LISTED_CHECK, (_, column: string, list: string) => `CHECK (${list.split(', ').map((value) => `${column} = ${value}`).join(' OR ')})`);
}

/**
 * Migration 15: every table's listed CHECKs written as comparisons, by SQLite's documented procedure
 * for a change that leaves the stored rows as they are (https://sqlite.org/lang_altertable.html,
 * "making other kinds of table schema changes"): the table's text edited in sqlite_schema and the
 * schema version raised, so every connection (this one too) reads the schema again. A rebuild of
 * each table would rewrite every ledger row and index for the same result. Runs in the step's
 * transaction: a failure leaves the schema as it was.
 */
export function rewriteListedChecks(db: Db): void {
  const tables = db.prepare("SELECT name, sql FROM sqlite_schema WHERE type = 'table' AND sql LIKE '% IN (%'").all() as { name: string; sql: string }[];
  const changed = tables.map((t) => ({ ...t, sql: listedChecksAsComparisons(t.sql) })).filter((t, i) => t.sql !== tables[i]!.sql);
  replaceTableSchemas(db, changed);
}

/**
 * Replaces the CREATE TABLE text of tables whose stored rows stay valid as they are (SQLite's
 * procedure cited above): the new text is parsed on a scratch database first, then written into
 * sqlite_schema and the schema version raised. Only for changes no stored row can violate, such as
 * a CHECK that accepts more values; run inside the migration step's transaction.
 */
export function replaceTableSchemas(db: Db, changed: { name: string; sql: string }[]): void {
  if (changed.length === 0) return;
  // The edited text must parse: a schema SQLite cannot read would leave the database unopenable.
  const scratch = new Database(':memory:');
  try {
    for (const t of changed) scratch.exec(t.sql);
  } finally {
    scratch.close();
  }
  const schemaVersion = db.pragma('schema_version', { simple: true }) as number;
  // better-sqlite3 opens connections in SQLite's defensive mode, which forbids both steps.
  db.unsafeMode(true);
  try {
    db.pragma('writable_schema = ON');
    const update = db.prepare("UPDATE sqlite_schema SET sql = @sql WHERE type = 'table' AND name = @name");
    for (const t of changed) update.run(t);
    db.pragma(`schema_version = ${schemaVersion + 1}`);
  } finally {
    db.pragma('writable_schema = OFF');
    db.unsafeMode(false);
  }
}
