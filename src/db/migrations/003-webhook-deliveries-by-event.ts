import type { MigrationStep } from './step';

export default {
  version: 3,
  name: 'webhook deliveries indexed by event',
  sql: `
-- Deleting an event (the 30-day test-customer sweep) cascades to its deliveries;
-- without this index each deleted event scanned the whole deliveries table.
CREATE INDEX webhook_deliveries_event ON webhook_deliveries (event_id);
`,
} satisfies MigrationStep;
