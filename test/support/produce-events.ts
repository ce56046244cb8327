// A second process writing events into the server's database, as any other channel would: each
// event inside its own transaction through emitEvent. The crash test runs it with
//   node --import tsx test/support/produce-events.ts <dbFile> <orgId> <cardId> <count>
// and reads the new event ids, one JSON array, from stdout.
import { openDatabase } from '../../src/db/open';
import { emitEvent } from '../../src/events/outbox';
import { EVENT_TYPES } from '../../src/events/types';
import { systemClock } from '../../src/lib/clock';
import { changeHooks } from '../../src/main';
import { noAfterCommit } from './fakes';
import { sampleData } from './webhooks';

const [dbFile, orgId, cardId, count] = process.argv.slice(2);
if (!dbFile || !orgId || !cardId || !count) throw new Error('usage: produce-events.ts <dbFile> <orgId> <cardId> <count>');

const db = openDatabase(dbFile);
// No worker in this process: the server's per-second sweep finds these deliveries.
const deps = { db, clock: systemClock, afterCommit: noAfterCommit, onChange: changeHooks() };
const ids: string[] = [];
for (let i = 0; i < Number(count); i++) {
  const type = EVENT_TYPES[i % EVENT_TYPES.length]!;
  const sample = sampleData(type, cardId);
  const envelope = db.transaction(() => emitEvent(deps, { orgId, livemode: false, type, customerId: sample.customerId, data: sample.data }))();
  ids.push(envelope.id);
}
db.close();
process.stdout.write(JSON.stringify(ids));
