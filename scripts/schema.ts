// Writes schema.sql, the schema a new database gets: `npm run schema` after adding a migration
// step (src/db/migrations/index.ts says how). The file is generated, never edited: it builds the
// initial schema, runs every step, and writes what SQLite then holds (sqlite_schema): the tables
// in the order they first appeared, each followed by its indexes and its triggers. A table's
// indexes (and its triggers) keep the order the steps left them in: where two indexes serve a
// query equally well, SQLite's planner takes one by that order, so a new database must plan its
// queries as a migrated one does. The comment lines directly above each CREATE (and ALTER TABLE …
// ADD COLUMN) in the steps are carried over. test/schema.test.ts fails while schema.sql differs
// from what this writes.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { applySteps } from '../src/db/migrate';
import { migrations } from '../src/db/migrations';
import { applyPragmas, type Db } from '../src/db/open';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const SCHEMA_FILE = path.join(ROOT, 'schema.sql');
const STEPS_DIR = path.join(ROOT, 'src/db/migrations');

export interface SchemaObject {
  type: string;
  name: string;
  tbl_name: string;
  sql: string;
}

/** The objects a schema holds that its SQL creates: not SQLite's own (sqlite_%) nor a virtual table's shadow tables. */
export function schemaObjects(db: Db): SchemaObject[] {
  const shadow = new Set((db.prepare("SELECT name FROM pragma_table_list WHERE type = 'shadow'").all() as { name: string }[]).map((r) => r.name));
  return (db.prepare("SELECT type, name, tbl_name, sql FROM sqlite_schema WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY rowid").all() as SchemaObject[]).filter(
    (o) => !shadow.has(o.name),
  );
}

/** SQL as SQLite reads it: comments and spacing dropped, `"name"` as name. Two texts with equal forms define the same object. */
export function normalisedSql(sql: string): string {
  return tokens(sql)
    .filter((t) => !/^(\s|--|\/\*)/.test(t))
    .map((t) => (/^"\w+"$/.test(t) ? t.slice(1, -1) : t))
    .join(' ');
}

const TOKEN = /'(?:[^']|'')*'|"(?:[^"]|"")*"|--[^\n]*|\/\*[\s\S]*?\*\/|\s+|\w+|[\s\S]/g;
const tokens = (sql: string): string[] => sql.match(TOKEN) ?? [];

/** The schema at the newest version, built step by step, and the order in which each object's name first appeared. */
function buildHistory(): { db: Db; firstSeen: Map<string, number> } {
  const db = new Database(':memory:');
  applyPragmas(db);
  const firstSeen = new Map<string, number>();
  for (const step of [...migrations].sort((a, b) => a.version - b.version)) {
    applySteps(db, migrations.filter((s) => s.version <= step.version));
    for (const o of schemaObjects(db)) if (!firstSeen.has(o.name)) firstSeen.set(o.name, firstSeen.size);
  }
  return { db, firstSeen };
}

/**
 * The comment lines directly above each `CREATE … name` (key: name) and `ALTER TABLE t ADD COLUMN
 * c` (key: t.c) in the step files; a later step's comment replaces an earlier one.
 */
function stepComments(): Map<string, string[]> {
  const comments = new Map<string, string[]>();
  const files = readdirSync(STEPS_DIR).filter((f) => /^\d{3}-.*\.ts$/.test(f)).sort();
  for (const file of files) {
    const lines = readFileSync(path.join(STEPS_DIR, file), 'utf8').split('\n');
    lines.forEach((line, i) => {
      const create = /^\s*CREATE (?:UNIQUE )?(?:VIRTUAL )?(?:TABLE|INDEX|TRIGGER) (\w+)/.exec(line);
      const alter = /^\s*ALTER TABLE (\w+) ADD COLUMN (\w+)/.exec(line);
      const key = create ? create[1]! : alter ? `${alter[1]}.${alter[2]}` : undefined;
      if (!key) return;
      const above: string[] = [];
      for (let j = i - 1; j >= 0 && /^\s*--/.test(lines[j]!); j--) above.unshift(lines[j]!.trim());
      if (above.length > 0) comments.set(key, above);
    });
  }
  return comments;
}

/**
 * A table's text with the columns ALTER TABLE ADD COLUMN appended (SQLite writes them as
 * `\n, a TEXT, b INTEGER)`) each on its own line, under the comment of the step that added it.
 */
function withAddedColumnsOnTheirLines(table: string, sql: string, comments: Map<string, string[]>): string {
  const at = sql.indexOf('\n, ');
  if (at < 0) return sql;
  const head = sql.slice(0, at);
  const parts = tokens(sql.slice(at + 3));
  const columns: string[] = [];
  let current = '';
  let depth = 0;
  let end = parts.length;
  for (let i = 0; i < parts.length; i++) {
    const t = parts[i]!;
    if (t === '(') depth++;
    if (t === ')' && depth-- === 0) {
      end = i;
      break;
    }
    if (t === ',' && depth === 0) {
      columns.push(current.trim());
      current = '';
    } else current += t;
  }
  columns.push(current.trim());
  const rest = parts.slice(end).join('');
  // The comma goes before a comment that ends the last line of the original text.
  const lastLine = head.slice(head.lastIndexOf('\n') + 1);
  const comment = tokens(lastLine).findIndex((t) => t.startsWith('--'));
  const headWithComma = comment < 0 ? `${head},` : `${head.slice(0, head.length - lastLine.length)}${tokens(lastLine).slice(0, comment).join('').trimEnd()}, ${tokens(lastLine).slice(comment).join('')}`;
  const lines = columns.map((column, i) => {
    const name = /^"?(\w+)/.exec(column)?.[1] ?? '';
    const above = (comments.get(`${table}.${name}`) ?? []).map((c) => `  ${c}\n`).join('');
    return `${above}  ${column}${i < columns.length - 1 ? ',' : ''}`;
  });
  return `${headWithComma}\n${lines.join('\n')}\n${rest}`;
}

const HEADER = `-- Wallet Loyalty: the schema a new database gets, at the user_version on its last line.
-- Generated by \`npm run schema\` from the steps in src/db/migrations/ (the initial schema and every
-- step after it): do not edit it. A change to the schema is a new step there (its index.ts says
-- how), then this file generated again; a test fails while the two differ.
-- Times are integer milliseconds since the epoch; amounts are integer hundredths. livemode is 1
-- for live data, 0 for the test-key sandbox.
`;

/** The text of schema.sql for the steps as they are. */
export function renderSchema(): string {
  const { db, firstSeen } = buildHistory();
  try {
    const version = db.pragma('user_version', { simple: true }) as number;
    const objects = schemaObjects(db); // in sqlite_schema order
    const comments = stepComments();
    const withComment = (o: SchemaObject, sql: string) => `${(comments.get(o.name) ?? []).map((c) => `${c}\n`).join('')}${sql};`;
    const groups = objects
      .filter((o) => o.type === 'table')
      .sort((a, b) => firstSeen.get(a.name)! - firstSeen.get(b.name)!)
      .map((table) => {
        const sql = withAddedColumnsOnTheirLines(table.name, table.sql.replace(/^CREATE TABLE "(\w+)"/, 'CREATE TABLE $1'), comments);
        const own = (type: string) => objects.filter((o) => o.type === type && o.tbl_name === table.name).map((o) => withComment(o, o.sql));
        return [withComment(table, sql), ...own('index'), ...own('trigger')].join('\n');
      });
    const placed = new Set(objects.filter((o) => o.type === 'table' || objects.some((t) => t.type === 'table' && t.name === o.tbl_name)).map((o) => o.name));
    const unplaced = objects.filter((o) => !placed.has(o.name));
    if (unplaced.length > 0) throw new Error(`schema.sql cannot place ${unplaced.map((o) => `${o.type} ${o.name}`).join(', ')}`);
    return `${HEADER}\n${groups.join('\n\n')}\n\nPRAGMA user_version = ${version};\n`;
  } finally {
    db.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  writeFileSync(SCHEMA_FILE, renderSchema());
  console.log(`wrote ${path.relative(process.cwd(), SCHEMA_FILE)}`);
}
