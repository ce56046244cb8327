// `--customers N`: fills a seeded bench database with N customers before its server starts,
// through the program's own enrol function (the rows, indexes and customer.enrolled events are
// exactly what N API enrolments leave), in batches of one transaction each. Spread over both
// cards, each with an email so the lookup index is as full. All live: an org holds at most 100 test customers.
import { loadConfig } from '../src/config';
import { normalizeEmail } from '../src/lib/contact';
import { enrollCustomer } from '../src/customers/enroll';
import { openDatabase } from '../src/db/open';
import type { AppDeps } from '../src/deps';
import { systemClock } from '../src/lib/clock';
import { createLogger } from '../src/lib/log';
import { changeHooks } from '../src/main';
import type { BenchOrg } from './scenario';

const BATCH = 5000;

export function fillCustomers(dataDir: string, org: BenchOrg, count: number, progress: (done: number) => void): void {
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
  const db = openDatabase(config.dbFile, { synchronous: config.dbSynchronous });
  // No server runs on this folder yet: nothing to wake; the hooks are the server's own.
  const deps: AppDeps = { db, clock: systemClock, log: createLogger('silent'), config, afterCommit: { eventsWritten() {}, passUpdatesQueued() {} }, onChange: changeHooks() };
  const cards = org.cards.map((c) => c.cardId);
  // The email is set after the enrolment, not sent with it: an enrolment with an email first looks
  // for a match by email, which before migration 8 read the whole org (a million enrolments would
  // read 5·10¹¹ rows). So the fill takes as long on the code before that fix as after it.
  const setEmail = db.prepare('UPDATE customers SET email = @email, email_norm = @emailNorm WHERE org_id = @orgId AND livemode = 1 AND external_id = @id');
  try {
    for (let from = 0; from < count; from += BATCH) {
      db.transaction(() => {
        for (let i = from; i < Math.min(count, from + BATCH); i++) {
          const namespace = { orgId: org.orgId, livemode: true };
          const id = `fill-${i}`;
          enrollCustomer(deps, namespace, { externalCustomerId: id, cardId: cards[i % cards.length]! }, { channel: 'api', idempotencyKey: null });
          const email = `${id}@fill.example`;
          setEmail.run({ email, emailNorm: normalizeEmail(email), orgId: org.orgId, id });
        }
      })();
      progress(Math.min(count, from + BATCH));
    }
  } finally {
    db.close();
  }
}
