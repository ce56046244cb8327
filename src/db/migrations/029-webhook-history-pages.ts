import type { MigrationStep } from './step';

export default {
  version: 29,
  name: "fewer pages written per webhook delivery: attempts kept in their key's order, an endpoint's deliveries indexed oldest first",
  sql: `
ALTER TABLE webhook_attempts RENAME TO webhook_attempts_before;
-- A delivery's attempts, stored in the order of their key: an attempt is one row written, where a
-- table with a rowid wrote the row and an entry of the key's own index, two pages. Read only by
-- delivery (the history's pages) and removed with it.
CREATE TABLE webhook_attempts (
  delivery_id    TEXT NOT NULL REFERENCES webhook_deliveries(id) ON DELETE CASCADE,
  number         INTEGER NOT NULL,
  status         TEXT NOT NULL CHECK (status IN ('succeeded', 'failed')),
  response_code  INTEGER,
  error          TEXT,
  duration_ms    INTEGER NOT NULL,
  at             INTEGER NOT NULL,
  PRIMARY KEY (delivery_id, number)
) WITHOUT ROWID;
INSERT INTO webhook_attempts (delivery_id, number, status, response_code, error, duration_ms, at)
  SELECT delivery_id, number, status, response_code, error, duration_ms, at FROM webhook_attempts_before;
DROP TABLE webhook_attempts_before;

DROP INDEX webhook_deliveries_webhook;
-- An endpoint's deliveries, oldest first: a new one is the last entry of its endpoint's range, where
-- in the newest-first order it went to the range's first page and split pages in the middle of the
-- index. Read backwards it gives the history's order, newest first with ties by row number, and
-- forwards the retention sweep's, oldest first.
CREATE INDEX webhook_deliveries_webhook ON webhook_deliveries (webhook_id, created_at);
`,
} satisfies MigrationStep;
