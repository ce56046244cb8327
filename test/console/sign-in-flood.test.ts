// Sign-in under a flood (failed sign-ins are limited per address and per account): an
// attempt counts before its password is hashed, so guesses sent side by side cannot all get a
// verdict, and one address's flood never holds up a sign-in from another address. The server runs
// behind a proxy here (TRUST_PROXY), so each client has its own address in X-Forwarded-For.
import assert from 'node:assert/strict';
import diagnosticsChannel from 'node:diagnostics_channel';
import { after, before, describe, it } from 'node:test';
import { PASSWORD_CHECK_CHANNEL, PRODUCTION_HASH_COST, setHashCostForTests } from '../../src/lib/password';
import type { TestApp } from '../support/app';
import { ADMIN_PASSWORD, ConsoleClient, seedConsoleOrg, startTestApp } from '../support/console';

// Each check takes as long as in production (test/support/app.ts lowers the cost for other tests):
// what is asserted here is which checks wait for which.
setHashCostForTests(PRODUCTION_HASH_COST);

let app: TestApp;
before(async () => {
  app = await startTestApp({ env: { TRUST_PROXY: 'true' } });
});
after(() => app.close());

/** Counts the server's password checks (scrypt), and how many ran at once at most. */
function watchPasswordChecks() {
  const state = { started: 0, running: 0, mostAtOnce: 0 };
  let firstStarted!: () => void;
  const first = new Promise<void>((resolve) => (firstStarted = resolve));
  const listener = (message: unknown) => {
    if ((message as { phase: string }).phase === 'start') {
      state.started++;
      state.running++;
      state.mostAtOnce = Math.max(state.mostAtOnce, state.running);
      firstStarted();
    } else {
      state.running--;
    }
  };
  diagnosticsChannel.subscribe(PASSWORD_CHECK_CHANNEL, listener);
  return { state, first, stop: () => diagnosticsChannel.unsubscribe(PASSWORD_CHECK_CHANNEL, listener) };
}

/** A browser at `address` with the sign-in form open: post() sends it. */
async function signInForm(address: string, email: string, password: string) {
  const client = new ConsoleClient(app);
  const headers = { 'X-Forwarded-For': address };
  const page = await client.request('GET', '/console/sign-in', { headers });
  const csrf = /name="_csrf" value="([^"]+)"/.exec(page.text)![1]!;
  return {
    post: async () => {
      const res = await client.request('POST', '/console/sign-in', { headers, form: { _csrf: csrf, email, password, next: '/console/settings' } });
      return { status: res.status, text: res.text, retryAfter: res.headers.get('retry-after') };
    },
  };
}

const PAUSED = /Too many failed sign-ins\. For your safety, signing in is paused: try again in 15 minutes\./;
const count = (answers: { status: number }[], status: number) => answers.filter((a) => a.status === status).length;

describe('sign-in under a flood', () => {
  it('30 wrong passwords sent at once: five are checked, the rest refused without a hash', async () => {
    const org = await seedConsoleOrg(app, 'Flooded Café');
    const forms = await Promise.all(Array.from({ length: 30 }, (_, i) => signInForm('198.51.100.7', org.admin.email, `wrong guess ${i}`)));
    const checks = watchPasswordChecks();
    try {
      const answers = await Promise.all(forms.map((f) => f.post()));
      assert.equal(count(answers, 401), 5, 'five guesses got a verdict');
      assert.equal(count(answers, 429), 25, 'the others were refused');
      assert.equal(checks.state.started, 5, 'only the five were hashed');
      for (const refused of answers.filter((a) => a.status === 429)) {
        assert.match(refused.text, PAUSED);
        assert.ok(Number(refused.retryAfter) > 800);
      }
    } finally {
      checks.stop();
    }
    const right = await (await signInForm('198.51.100.8', org.admin.email, ADMIN_PASSWORD)).post();
    assert.equal(right.status, 429, 'the account stays locked, from any address');
  });

  it('a flood of 30 unknown emails from one address: 20 are checked one at a time, and the owner’s sign-in from another address goes before the rest of them', async () => {
    const org = await seedConsoleOrg(app, 'Owner Café');
    const flood = await Promise.all(Array.from({ length: 30 }, (_, i) => signInForm('203.0.113.9', `nobody-${i}@example.com`, 'guess')));
    const owner = await signInForm('192.0.2.44', org.admin.email, ADMIN_PASSWORD);
    const checks = watchPasswordChecks();
    try {
      const flooding = Promise.all(flood.map((f) => f.post()));
      await checks.first; // the flood is being checked
      const signedIn = await owner.post();
      const startedWhenOwnerIn = checks.state.started;
      const answers = await flooding;

      assert.equal(signedIn.status, 303, 'the owner is in');
      assert.equal(checks.state.mostAtOnce, 1, 'one password check at a time: none runs beside the owner’s');
      assert.ok(startedWhenOwnerIn < 10, `the owner’s check did not wait for the flood’s 20 (${startedWhenOwnerIn - 1} of them had started when the owner was in)`);
      assert.equal(count(answers, 401), 20, 'the address limit: 20 unknown emails were checked');
      assert.equal(count(answers, 429), 10, 'the rest were refused');
      assert.equal(checks.state.started, 21, 'the flood’s 20 checks and the owner’s one: no refused attempt was hashed');
    } finally {
      checks.stop();
    }
    const blocked = await (await signInForm('203.0.113.9', org.admin.email, ADMIN_PASSWORD)).post();
    assert.equal(blocked.status, 429, 'the flooding address stays paused, whichever account it tries');
  });

  it('two right sign-ins from one address at the same moment both get in', async () => {
    const org = await seedConsoleOrg(app, 'Shared Wi-Fi Café');
    const forms = await Promise.all([signInForm('198.51.100.20', org.admin.email, ADMIN_PASSWORD), signInForm('198.51.100.20', org.admin.email, ADMIN_PASSWORD)]);
    const answers = await Promise.all(forms.map((f) => f.post()));
    assert.deepEqual(
      answers.map((a) => a.status),
      [303, 303],
    );
  });
});
