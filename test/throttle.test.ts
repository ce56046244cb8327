// The counting behind every abuse limit (web/throttle.ts) and the key a client address is counted
// under (lib/client-address.ts), on a fresh database with a fake clock.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { openDatabase, type Db } from '../src/db/open';
import { clientAddressKey } from '../src/lib/client-address';
import { oneAtATime } from '../src/lib/one-at-a-time';
import { refundAttempt, reserveAttempt, takeQuota } from '../src/web/throttle';
import { createFakeClock } from './support/fakes';

const MINUTE = 60_000;
let dir: string;
let db: Db;
const clock = createFakeClock();
before(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'wl-throttle-'));
  db = openDatabase(path.join(dir, 'db.sqlite'));
});
after(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});
const deps = () => ({ db, clock });

describe('reserveAttempt: an attempt counts before it is checked', () => {
  const policy = { maxFailures: 3, windowMs: 15 * MINUTE, lockMs: 10 * MINUTE };

  it('lets `maxFailures` attempts through, refuses the next one and locks for lockMs', () => {
    const entries = [{ bucket: 'r:a', policy }];
    assert.deepEqual([1, 2, 3, 4, 5].map(() => reserveAttempt(deps(), entries)), [0, 0, 0, 600, 600]);
    clock.advance(10 * MINUTE);
    assert.equal(reserveAttempt(deps(), entries), 0, 'the lock is over');
  });

  it('a refund gives a right attempt back, so only wrong ones add up', () => {
    const entries = [{ bucket: 'r:b', policy }];
    for (let i = 0; i < 10; i++) {
      assert.equal(reserveAttempt(deps(), entries), 0, `attempt ${i + 1}`);
      refundAttempt(deps(), ['r:b']);
    }
  });

  it('a refused attempt counts in no bucket: one full bucket does not use up the others', () => {
    const full = { bucket: 'r:full', policy: { ...policy, maxFailures: 1 } };
    const other = { bucket: 'r:other', policy };
    assert.equal(reserveAttempt(deps(), [full, other]), 0);
    assert.ok(reserveAttempt(deps(), [full, other]) > 0);
    assert.ok(reserveAttempt(deps(), [full, other]) > 0);
    assert.deepEqual([1, 2].map(() => reserveAttempt(deps(), [other])), [0, 0], 'other holds one attempt, two more fit');
    assert.ok(reserveAttempt(deps(), [other]) > 0);
  });

  it('a window that ended starts afresh', () => {
    const entries = [{ bucket: 'r:c', policy }];
    for (let i = 0; i < 3; i++) reserveAttempt(deps(), entries);
    clock.advance(15 * MINUTE);
    assert.equal(reserveAttempt(deps(), entries), 0);
  });
});

describe('takeQuota: uses per window, all or none', () => {
  const hour = { limit: 2, windowMs: 60 * MINUTE };

  it('takes `limit` uses, then refuses until the window that began with the first use ends', () => {
    const entries = [{ bucket: 'q:a', quota: hour }];
    assert.equal(takeQuota(deps(), entries), null);
    clock.advance(20 * MINUTE);
    assert.equal(takeQuota(deps(), entries), null);
    assert.deepEqual(takeQuota(deps(), entries), { bucket: 'q:a', waitSeconds: 40 * 60 }, 'waits for the end of the first use’s hour');
    clock.advance(40 * MINUTE);
    assert.equal(takeQuota(deps(), entries), null, 'a new window');
  });

  it('one full quota refuses the use everywhere, and the others keep theirs', () => {
    const day = { bucket: 'q:day', quota: { limit: 1, windowMs: 24 * 60 * MINUTE } };
    const hourly = { bucket: 'q:hourly', quota: hour };
    assert.equal(takeQuota(deps(), [day, hourly]), null);
    assert.equal(takeQuota(deps(), [day, hourly])?.bucket, 'q:day');
    assert.equal(takeQuota(deps(), [hourly]), null, 'the refused use took nothing from the hourly quota');
    assert.equal(takeQuota(deps(), [hourly])?.bucket, 'q:hourly');
  });
});

describe('clientAddressKey', () => {
  const cases: [string, string][] = [
    ['192.0.2.1', '192.0.2.1'],
    ['::ffff:192.0.2.1', '192.0.2.1'],
    ['::FFFF:192.0.2.1', '192.0.2.1'],
    ['2001:db8:1:2::1', '2001:db8:1:2::/64'],
    ['2001:0db8:0001:0002:ffff:ffff:ffff:ffff', '2001:db8:1:2::/64'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
    ['64:ff9b::192.0.2.1', '64:ff9b:0:0::/64'],
    ['', ''],
  ];
  for (const [ip, key] of cases) it(`${ip || '(none)'} → ${key || '(none)'}`, () => assert.equal(clientAddressKey(ip), key));
});

describe('oneAtATime', () => {
  it('runs one task at a time, the lowest rank next (of equal ranks the oldest); a failure does not stop the queue', async () => {
    const run = oneAtATime();
    const log: string[] = [];
    const finish: Record<string, () => void> = {};
    const task = (name: string, fail = false) => () =>
      new Promise<string>((resolve, reject) => {
        log.push(name);
        finish[name] = () => (fail ? reject(new Error(name)) : resolve(name));
      });
    const tick = () => new Promise((resolve) => setImmediate(resolve));
    const a = run(0, task('a', true));
    const b = run(5, task('b'));
    const c = run(1, task('c'));
    const d = run(1, task('d'));
    await tick();
    assert.deepEqual(log, ['a'], 'one at a time');
    finish.a!();
    await assert.rejects(a, /a/);
    await tick();
    assert.deepEqual(log, ['a', 'c'], 'the lowest rank next, though it came after b');
    finish.c!();
    await tick();
    finish.d!();
    await tick();
    assert.deepEqual(log, ['a', 'c', 'd', 'b']);
    finish.b!();
    assert.deepEqual(await Promise.all([b, c, d]), ['b', 'c', 'd']);
    const e = run(9, async () => 'e');
    assert.equal(await e, 'e', 'with nothing running, a task starts at once');
  });
});
