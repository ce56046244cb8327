import { rebuildTable } from './rebuild-table';
import type { Db, MigrationStep } from './step';

// A CHECK that lists three values or more (`source IN ('api', 'scan', 'signup', 'console')`) is
// checked by SQLite by building a temporary B-tree of the list for every row it writes
// (OpenEphemeral, then the B-tree closed again; two values it compares one by one). The ledger
// row, the delivery row and its status update each paid it on every earn. Written as comparisons,
// the CHECK refuses and accepts exactly the same values (NULL included: both give NULL, which a
// CHECK lets pass; the columns are NOT NULL anyway).
//
// At this version the tables with such a CHECK are cards (pass_type), customers and transactions
// (source) and webhook_deliveries (status). Each is rebuilt with its text as stored, that CHECK
// alone written as comparisons, so a database keeps whatever else its text says.

const LISTED_CHECK = /CHECK \((\w+) IN \(('[a-z_]*'(?:, '[a-z_]*'){2,})\)\)/g;

/** `CHECK (c IN ('a', 'b', 'c'))` → `CHECK (c = 'a' OR c = 'b' OR c = 'c')`; the rest of the text as it was. */
export function listedChecksAsComparisons(createTableSql: string): string {
  return createTableSql.replace(LISTED_CHECK, (_, column: string, list: string) => `CHECK (${list.split(', ').map((value) => `${column} = ${value}`).join(' OR ')})`);
}

function rewriteListedChecks(db: Db): void {
  const tables = db.prepare("SELECT name, sql FROM sqlite_schema WHERE type = 'table' AND sql LIKE '% IN (%' ORDER BY name").all() as { name: string; sql: string }[];
  for (const table of tables) {
    const sql = listedChecksAsComparisons(table.sql);
    if (sql !== table.sql) rebuildTable(db, table.name, sql);
  }
}

export default {
  version: 15,
  name: 'CHECK constraints that list values checked by comparisons, without a temporary table per row',
  rebuildsTables: true,
  run: rewriteListedChecks,
} satisfies MigrationStep;
