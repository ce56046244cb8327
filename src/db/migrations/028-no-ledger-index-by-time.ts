import type { MigrationStep } from './step';

export default {
  version: 28,
  name: 'no index of the whole ledger by time: one page fewer to write per balance change',
  sql: `
-- Every balance change wrote an entry here, a page of the WAL at each commit, for one reader: the
-- Staff page, which reads counter rows only. It reads them per staff member through
-- transactions_staff; the dashboard reads its sums from ledger_slots and its counter awards through
-- transactions_counter_awards.
DROP INDEX transactions_org_time;
`,
} satisfies MigrationStep;
