// An import stopped by a crash: each chunk is one transaction with the rows' outcomes and the
// import's position, so a crash mid-chunk leaves nothing of that chunk, and after a restart the
// server's runner goes on from the first row not written: every row once, none twice.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { setImmediate as tick } from 'node:timers/promises';
import { cardsRepo } from '../../src/cards/repo';
import { loadConfig } from '../../src/config';
import type { AppDeps } from '../../src/deps';
import { openDatabase, type Db } from '../../src/db/open';
import { checkMapping, suggestMapping } from '../../src/import/mapping';
import { importsRepo } from '../../src/import/repo';
import { importRunner } from '../../src/import/runner';
import { createDraft, saveCheckedMapping, startImport } from '../../src/import/drafts';
import { importChunk, runImport } from '../../src/import/service';
import { loadSource } from '../../src/import/source';
import { changeHooks } from '../../src/main';
import { applySeed, parseSeedFile } from '../../src/seed/service';
import { STANDARD_SEED, standardOrgIds } from '../support/app';
import { createFakeClock, noAfterCommit, silentLogger } from '../support/fakes';

const dir = mkdtempSync(path.join(tmpdir(), 'wl-import-resume-'));
const config = loadConfig({ DATA_DIR: dir });
after(() => rmSync(dir, { recursive: true, force: true }));

const depsOf = (db: Db): AppDeps => ({ db, clock: createFakeClock(), log: silentLogger, config, afterCommit: noAfterCommit, onChange: changeHooks() });
const count = (db: Db, sql: string) => (db.prepare(sql).get() as { n: number }).n;

describe('an import interrupted by a crash', () => {
  it('keeps whole chunks only, and the runner finishes it after a restart, each row once', async () => {
    const rows = 1_200;
    let db = openDatabase(config.dbFile);
    const org = standardOrgIds(applySeed({ db, clock: createFakeClock() }, parseSeedFile(STANDARD_SEED)).orgs[0]!);
    const n = { orgId: org.orgId, livemode: true };
    const text = `Email,Points\n${Array.from({ length: rows }, (_, i) => `r${i}@example.com,${i}`).join('\n')}\n`;
    const { job, table } = await createDraft(depsOf(db), n, { cardId: org.cards.points, fileName: 'big.csv', bytes: Buffer.from(text) });
    const card = cardsRepo(db).findById(org.cards.points)!;
    saveCheckedMapping(db, job.id, checkMapping(card, table.header, suggestMapping(card, table.header).map((t) => t ?? '')).mapping!);
    assert.ok(startImport(depsOf(db), job.id));

    const running = importsRepo(db).find(n, job.id)!;
    const source = (await loadSource(db, running))!;
    const first = importChunk(depsOf(db), running, source, new Map());
    assert.ok(first !== null && first > 0 && first < rows);
    assert.equal(count(db, 'SELECT count(*) AS n FROM customers'), first);

    // The next chunk dies after its first row (the process is killed: here, an error no row
    // handles). A chunk always holds at least one row, so this holds however slow the machine.
    let written = 0;
    const dying = depsOf(db);
    dying.onChange = { ...dying.onChange, eventWritten: (d, e) => { changeHooks().eventWritten(d, e); if (++written === 1) throw new Error('killed'); } };
    assert.throws(() => importChunk(dying, running, source, new Map()), /killed/);
    assert.equal(count(db, 'SELECT count(*) AS n FROM customers'), first, 'nothing of the broken chunk');
    assert.equal(count(db, 'SELECT count(*) AS n FROM import_rows'), first);
    assert.equal(importsRepo(db).findSummary(n, job.id)!.nextRow, first);
    db.close();

    // The restart: a new connection, and the runner the server's minute job wakes.
    db = openDatabase(config.dbFile);
    importRunner(depsOf(db)).wake();
    // However many chunks the machine's pace makes of the rest: wait for the import to finish,
    // bounded only so a runner that never finishes fails the test instead of hanging it.
    const giveUpAt = Date.now() + 300_000;
    while (importsRepo(db).findSummary(n, job.id)!.status !== 'done' && Date.now() < giveUpAt) await tick();
    const done = importsRepo(db).findSummary(n, job.id)!;
    assert.equal(done.status, 'done');
    assert.deepEqual([done.created, done.matched, done.refused, done.nextRow], [rows, 0, 0, rows]);
    assert.equal(count(db, 'SELECT count(*) AS n FROM customers'), rows);
    assert.equal(count(db, 'SELECT count(DISTINCT email_norm) AS n FROM customers'), rows);
    assert.equal(count(db, "SELECT count(*) AS n FROM transactions WHERE source = 'import'"), rows - 1, 'one opening row per customer with a balance');
    assert.equal(count(db, 'SELECT count(*) AS n FROM import_rows'), rows);
    assert.equal(count(db, 'SELECT count(*) AS n FROM imports WHERE csv IS NOT NULL'), 0);
    await importRunner(depsOf(db)).stop();
    db.close();
  });
});

describe('an import that cannot go on', () => {
  it('stops with its reason instead of staying "running": a question it fills was removed after the dry run', async () => {
    const db = openDatabase(path.join(dir, 'stopped', 'wallet-loyalty.db'));
    const deps = depsOf(db);
    const org = standardOrgIds(applySeed({ db, clock: deps.clock }, parseSeedFile(STANDARD_SEED)).orgs[0]!);
    const n = { orgId: org.orgId, livemode: true };
    const text = 'Email,Stamps,Cup size\na@example.com,1,Small\nb@example.com,2,Large\n';
    const { job, table } = await createDraft(deps, n, { cardId: org.cards.stamps, fileName: 'cups.csv', bytes: Buffer.from(text) });
    const card = cardsRepo(db).findById(org.cards.stamps)!;
    const checked = checkMapping(card, table.header, suggestMapping(card, table.header).map((t) => t ?? ''));
    assert.ok(checked.mapping!.some((target) => target?.startsWith('q:')), 'the size question is mapped');
    saveCheckedMapping(db, job.id, checked.mapping!);
    assert.ok(startImport(deps, job.id));
    db.transaction(() => cardsRepo(db).updateQuestions(card.id, card.questions.filter((q) => q.type !== 'select'), 1))();

    await runImport(deps, job.id);
    const stopped = importsRepo(db).findSummary(n, job.id)!;
    assert.equal(stopped.status, 'stopped');
    assert.match(stopped.stopReason!, /questions changed after the dry run/);
    assert.equal(count(db, 'SELECT count(*) AS n FROM customers'), 0);
    assert.deepEqual(importsRepo(db).runningIds(), [], 'the runner no longer picks it up');
    db.close();
  });
});
