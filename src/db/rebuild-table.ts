import type { Db } from './connection';

/**
 * Changes a table's definition in a way ALTER TABLE cannot (a CHECK that accepts more values), by
 * SQLite's procedure for such changes (https://sqlite.org/lang_altertable.html#otheralter): a new
 * table from the edited definition, every row copied with its rowid (readers order by it), the old
 * table dropped and the new one renamed, then its indexes and triggers made again from their own
 * text, in the order they were first made (the query planner weighs equal indexes in that order). Triggers of other tables that name it are dropped first and made again last, as they would
 * name a missing table in between. Runs inside the migration step's transaction: a failure leaves
 * the database as it was. `edit` must change the definition (it throws where it cannot).
 */
export function rebuildTable(db: Db, table: string, edit: (createSql: string) => string): void {
  const current = db.prepare("SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = ?").get(table) as { sql: string } | undefined;
  if (!current) throw new Error(`rebuildTable: no table ${table}`);
  const edited = edit(current.sql);
  if (edited === current.sql) throw new Error(`rebuildTable: the edit leaves ${table} as it is`);
  const temporary = `${table}_rebuilt`;
  const header = new RegExp(`^CREATE TABLE\\s+"?${table}"?\\s*\\(`);
  if (!header.test(edited)) throw new Error(`rebuildTable: ${table} does not start as CREATE TABLE ${table} (`);

  const own = db.prepare("SELECT type, name, sql FROM sqlite_schema WHERE tbl_name = ? AND type IN ('index', 'trigger') AND sql IS NOT NULL ORDER BY rowid").all(table) as { type: string; name: string; sql: string }[];
  const naming = new RegExp(`\\b${table}\\b`);
  const others = (db.prepare("SELECT name, sql FROM sqlite_schema WHERE type = 'trigger' AND tbl_name != ? ORDER BY rowid").all(table) as { name: string; sql: string }[]).filter((t) => naming.test(t.sql));
  const columns = (db.prepare(`SELECT name FROM pragma_table_info('${table}')`).all() as { name: string }[]).map((c) => `"${c.name}"`).join(', ');

  for (const t of others) db.exec(`DROP TRIGGER "${t.name}"`);
  db.exec(edited.replace(header, `CREATE TABLE ${temporary} (`));
  db.exec(`INSERT INTO ${temporary} (rowid, ${columns}) SELECT rowid, ${columns} FROM ${table}`);
  db.exec(`DROP TABLE ${table}`);
  db.exec(`ALTER TABLE ${temporary} RENAME TO ${table}`);
  for (const item of own) db.exec(item.sql);
  for (const t of others) db.exec(t.sql);
  const broken = db.prepare(`SELECT count(*) AS n FROM pragma_foreign_key_check('${table}')`).get() as { n: number };
  if (broken.n > 0) throw new Error(`rebuildTable: ${broken.n} rows of ${table} break a foreign key`);
}

/** `CHECK (column = 'a' OR column = 'b')` with `OR column = '<more>'` added; throws unless that CHECK is there exactly once. */
export function checkWithMoreValues(table: string, column: string, values: readonly string[], more: readonly string[]): (createSql: string) => string {
  return (createSql) => {
    const check = (list: readonly string[]) => `CHECK (${list.map((value) => `${column} = '${value}'`).join(' OR ')})`;
    const parts = createSql.split(check(values));
    if (parts.length !== 2) throw new Error(`${table} has no single ${check(values)}`);
    return parts.join(check([...values, ...more]));
  };
}
