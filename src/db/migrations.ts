// Steps that bring an older database to the current schema. schema.sql is version 1; each step
// here moves a database from `version - 1` to `version` and runs in its own transaction.
// A new database runs schema.sql and then every step, so the two can never drift apart.
export interface MigrationStep {
  version: number;
  name: string;
  sql: string;
}

export const migrations: MigrationStep[] = [];
