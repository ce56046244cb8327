import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { runBackup } from '../src/backups/service';
import { restoreDatabase } from '../src/backups/restore';
import { beforeSchemaName, replacedName } from '../src/db/file-names';
import { importsRepo } from '../src/import/repo';
import { createDraft } from '../src/import/drafts';
import { parseCsvText } from '../src/import/csv-file';
import { seedStandardOrg, startTestApp, type StandardOrg, type TestApp } from './support/app';

// An erasure reaches the copies outside the customer's rows: the rows of draft imports not yet run
// (a later import would bring the person back), and the copies kept beside the backups (before a
// schema upgrade, and the database a restore replaced), which are rotated like backups: the newest
// three of each stay. The request log never holds such refs (errors.test.ts).

describe('erasure: draft imports', () => {
  let app: TestApp;
  let org: StandardOrg;
  let other: StandardOrg;
  before(async () => {
    app = await startTestApp();
    org = seedStandardOrg(app, 'Draft Café');
    other = seedStandardOrg(app, 'Other Café');
  });
  after(() => app.close());

  const live = (o: StandardOrg) => ({ orgId: o.orgId, livemode: true });
  const CSV = [
    'Name;Email;Phone;Customer number',
    'Ada Lovelace;ada@example.org;;',
    '"Grace ""Amazing"" Hopper";grace@example.org;+1 202 555 0142;',
    '',
    'Alan Turing;alan@example.org;;',
    'Ada Again;ADA@Example.org;;',
    'Katherine Johnson;kj@example.org;;crm-kj',
    'Zebedee Quixotic;other@example.net;+44 20 7946 0958;',
  ].join('\r\n');

  it('empties the person’s rows (by email, phone or external id) in the org’s drafts; every other row keeps its values and its number', async () => {
    const erased = await app.request('POST', '/api/v1/customers', { key: org.keys.live, body: { cardId: org.cards.points, name: 'Ada Lovelace', email: 'ada@example.org', phone: '+44 20 7946 0958', externalCustomerId: 'crm-kj' } });
    assert.equal(erased.status, 201, erased.text);
    const draft = (await createDraft(app.deps, live(org), { cardId: org.cards.points, fileName: 'customers.csv', bytes: Buffer.from(CSV) })).job;
    const elsewhere = (await createDraft(app.deps, live(other), { cardId: other.cards.points, fileName: 'customers.csv', bytes: Buffer.from(CSV) })).job;
    const before = await parseCsvText(importsRepo(app.db).find(live(org), draft.id)!.csv!);

    assert.equal((await app.request('DELETE', `/api/v1/customers/pu_${erased.body.passUserId}`, { key: org.keys.live })).status, 200);

    const job = importsRepo(app.db).find(live(org), draft.id)!;
    for (const value of ['ada@example.org', 'ADA@Example.org', 'Ada Lovelace', 'Ada Again', 'Katherine', 'crm-kj', 'Zebedee', '7946']) assert.ok(!job.csv!.includes(value), `${value} left the draft`);
    const after = await parseCsvText(job.csv!);
    const kept = (t: typeof before) => t.rows.map((row, i) => [t.rowNumbers[i], ...row]);
    assert.deepEqual(kept(after), kept(before).filter(([, name]) => ['Grace "Amazing" Hopper', 'Alan Turing'].includes(name as string)), 'the others as they were, with their row numbers');
    assert.equal(job.totalRows, 2);
    assert.equal(job.fileSha256, draft.fileSha256, 'still the upload it was');

    // Another org's draft is another shop's file: their customer of that email was not erased.
    assert.equal(importsRepo(app.db).find(live(other), elsewhere.id)!.csv, CSV);
  });
});

describe('copies kept before an upgrade and on a restore: rotated like backups', () => {
  let app: TestApp;
  let root: string;
  before(async () => {
    app = await startTestApp();
    app.seed({ orgs: [{ name: 'Rotation Café', cards: [{ name: 'Stamps', passType: 'stamp_card' }] }] });
    root = path.dirname(app.config.dbFile);
  });
  after(() => app.close());

  const day = 86_400_000;
  const names = (dir: string, prefix: string) => readdirSync(dir).filter((n) => n.startsWith(prefix)).sort();

  it('a backup keeps the newest three before-schema copies and replaced databases (with a replaced one’s -wal), and no file of the operator’s is touched', async () => {
    mkdirSync(app.config.backups.dir, { recursive: true });
    const t0 = Date.UTC(2026, 0, 1);
    for (let i = 0; i < 5; i++) {
      // Versions out of order on purpose: the time in the name decides.
      writeFileSync(path.join(app.config.backups.dir, beforeSchemaName(20 - i, t0 + i * day)), 'old copy');
      writeFileSync(path.join(root, replacedName(t0 + i * day)), 'old database');
    }
    writeFileSync(path.join(root, `${replacedName(t0)}-wal`), 'its wal');
    writeFileSync(path.join(root, 'replaced-by-hand.db'), 'the operator’s');
    app.clock.set(t0 + 10 * day);
    assert.equal((await runBackup(app.deps, 'schedule')).error, null);
    assert.deepEqual(names(app.config.backups.dir, 'before-schema-'), [2, 3, 4].map((i) => beforeSchemaName(20 - i, t0 + i * day)).sort());
    assert.deepEqual(names(root, 'replaced-'), [...[2, 3, 4].map((i) => replacedName(t0 + i * day)), 'replaced-by-hand.db'].sort());
  });

  it('a restore keeps the newest three replaced databases at once', () => {
    const backup = readdirSync(app.config.backups.dir).find((n) => n.startsWith('wallet-loyalty-'))!;
    const dir = path.join(root, 'restore-here');
    mkdirSync(dir);
    const dbFile = path.join(dir, 'wallet-loyalty.db');
    let last: ReturnType<typeof restoreDatabase> | undefined;
    for (let i = 0; i < 5; i++) last = restoreDatabase({ source: path.join(app.config.backups.dir, backup), dbFile, clock: { now: () => Date.UTC(2026, 1, 1 + i) } });
    assert.deepEqual(names(dir, 'replaced-'), [2, 3, 4].map((i) => replacedName(Date.UTC(2026, 1, 1 + i))).sort());
    assert.deepEqual(last!.removed, [replacedName(Date.UTC(2026, 1, 2))]);
    rmSync(dir, { recursive: true });
  });
});
