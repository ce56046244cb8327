import type { MigrationStep } from './step';

export default {
  version: 17,
  name: 'a record of each backup the server made, for the console and /healthz',
  sql: `
-- One row per backup attempt of the server (the daily one and the console's Back up now), kept so
-- the console can show the last result and /healthz the last success after a restart. file is the
-- name inside BACKUP_DIR; error is null when the copy was written and passed integrity_check.
CREATE TABLE backup_runs (
  id           INTEGER PRIMARY KEY,
  started_by   TEXT NOT NULL CHECK (started_by = 'schedule' OR started_by = 'console'),
  started_at   INTEGER NOT NULL,
  finished_at  INTEGER NOT NULL,
  file         TEXT,
  size_bytes   INTEGER,
  error        TEXT
);
`,
} satisfies MigrationStep;
