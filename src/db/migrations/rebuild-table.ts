import type { Db } from './step';

/**
 * A table made again with `createSql` (a CREATE TABLE of the same name and the same columns in the
 * same order; a CHECK or other constraint changed), by SQLite's procedure for the schema changes
 * ALTER TABLE cannot make (https://sqlite.org/lang_altertable.html, "making other kinds of table
 * schema changes"): every row copied with its rowid (ties in "ORDER BY created_at, rowid" stay as
 * they were), then the table's own indexes and triggers made again from their stored text.
 *
 * The old table is renamed out of the way with legacy_alter_table on, so that neither the foreign
 * keys of other tables nor the trigger bodies that name the table are pointed at the old copy;
 * the new table then takes the name with `createSql` exactly as written. A step that uses this
 * sets `rebuildsTables` (the runner turns foreign keys off: with them on, dropping the old copy
 * would delete every row that references it, by ON DELETE CASCADE).
 *
 * Shared by the steps that rebuild tables: its behaviour must never change (a new helper instead).
 */
export function rebuildTable(db: Db, name: string, createSql: string): void {
  if (db.pragma('foreign_keys', { simple: true }) !== 0) throw new Error(`rebuilding ${name} needs foreign keys off: mark the step rebuildsTables`);
  if (!new RegExp(`^CREATE TABLE ${name} \\(`).test(createSql)) throw new Error(`the new text of ${name} must begin "CREATE TABLE ${name} ("`);
  const old = `${name}__before_rebuild`;
  const dependents = db
    .prepare("SELECT sql FROM sqlite_schema WHERE tbl_name = ? AND type IN ('index', 'trigger') AND sql IS NOT NULL ORDER BY rowid")
    .pluck()
    .all(name) as string[];
  const columns = (db.prepare(`PRAGMA table_info(${name})`).all() as { name: string }[]).map((c) => c.name).join(', ');
  db.pragma('legacy_alter_table = ON');
  try {
    db.exec(`ALTER TABLE ${name} RENAME TO ${old}`);
  } finally {
    db.pragma('legacy_alter_table = OFF');
  }
  db.exec(createSql);
  const newColumns = (db.prepare(`PRAGMA table_info(${name})`).all() as { name: string }[]).map((c) => c.name).join(', ');
  if (newColumns !== columns) throw new Error(`the new text of ${name} has the columns (${newColumns}), not (${columns})`);
  db.exec(`INSERT INTO ${name} (rowid, ${columns}) SELECT rowid, ${columns} FROM ${old}`);
  db.exec(`DROP TABLE ${old}`); // its indexes and triggers with it
  for (const sql of dependents) db.exec(sql);
}
