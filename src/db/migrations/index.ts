// The schema's history, one step a file: NNN-name.ts moves a database from version NNN - 1 to NNN.
// A new database runs schema.sql (top level), the schema at the newest version, and no step; a
// database an older release left behind runs the steps above its user_version, each in its own
// transaction with its new version. A test (test/schema.test.ts) builds version 1, runs
// every step and compares the result with a database made from schema.sql.
//
// To change the schema, add step NNN (the next number):
//   1. Write src/db/migrations/NNN-what-it-does.ts: `export default { version: NNN, name, sql }`
//      (or `run: (db) => …` for data that SQL cannot say; `rebuildsTables: true` with
//      rebuild-table.ts for a change ALTER TABLE cannot make, such as a CHECK).
//   2. Import it below and add it at the end of the list.
//   3. Run `npm run schema`, which writes schema.sql again, and commit schema.sql with the step.
// A step is frozen once released: never edit it, add another. It is self-contained: it imports
// only from this folder, node built-ins and packages, never from src/lib or a feature, and carries
// its own copy of any rule it applies (the SQL of a trigger, a normaliser), so that a later change
// of the program never changes what an old step does. Comment lines directly above a CREATE or
// ALTER TABLE … ADD COLUMN are carried into schema.sql: write them for the reader of the schema.
import type { MigrationStep } from './step';
import v001 from './001-initial';
import v002 from './002-wallet-passes';
import v003 from './003-webhook-deliveries-by-event';
import v004 from './004-contact-keys-renormalised';
import v005 from './005-unreadable-colours-dropped';
import v006 from './006-merchant-side';
import v007 from './007-card-signup-fields';
import v008 from './008-card-editing';
import v009 from './009-console-tables';
import v010 from './010-counter-reversals';
import v011 from './011-lookup-indexes';
import v012 from './012-fewer-customer-indexes';
import v013 from './013-fewer-ledger-indexes';
import v014 from './014-search-rows-by-time';
import v015 from './015-listed-checks-as-comparisons';
import v016 from './016-ledger-index-by-rowid';
import v017 from './017-backup-runs';
import v018 from './018-imports-and-consent';
import v019 from './019-customer-data';
import v020 from './020-first-day';
import v021 from './021-abuse-limits';
import v022 from './022-import-values';
import v023 from './023-reward-lists';
import v024 from './024-promotions';
import v025 from './025-expiry-and-birthdays';
import v026 from './026-mail-unsubscribes';
import v027 from './027-languages';
import v028 from './028-no-ledger-index-by-time';
import v029 from './029-webhook-history-pages';
import v030 from './030-imports-same-file';
import v031 from './031-pass-messages';
import v032 from './032-ledger-by-time-again';
import v033 from './033-ledger-ids-unindexed';
import v034 from './034-award-lots-by-customer';
import v035 from './035-import-row-reasons';
import v036 from './036-webhook-outbox-pages';
import v037 from './037-counter-award-checks';

export type { Db, MigrationStep } from './step';

/** Every step in version order, from the initial schema (version 1) up. */
export const migrations: MigrationStep[] = [
  v001, v002, v003, v004, v005, v006, v007, v008, v009, v010,
  v011, v012, v013, v014, v015, v016, v017, v018, v019, v020, v021, v022, v023, v024, v025, v026, v027,
  v028, v029, v030, v031, v032, v033, v034, v035, v036, v037,
];
