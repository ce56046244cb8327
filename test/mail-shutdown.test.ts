import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../src/config';
import { openDatabase, type Db } from '../src/db/open';
import { systemClock } from '../src/lib/clock';
import { changeHooks } from '../src/main';
import { mailRepo } from '../src/mail/repo';
import { queueTestEmail } from '../src/mail/service';
import { freePort, ServeProcess, tempDir } from './support/cli';
import { noAfterCommit } from './support/fakes';
import { mailEnv, startSmtpServer, type TestSmtpServer } from './support/mail';

// The real server process, stopped with SIGTERM while the mail server holds a send's DATA phase:
// the send completes during the shutdown grace and is recorded, so the restarted server does not
// send it again.

/** Fails the test instead of waiting forever when the awaited event never comes. */
const within = <T>(promise: Promise<T>, what: string, ms = 60_000): Promise<T> =>
  Promise.race([promise, new Promise<never>((_resolve, reject) => setTimeout(() => reject(new Error(`gave up waiting for ${what}`)), ms).unref())]);

describe('a mail in flight when the server is stopped', () => {
  const dataDir = tempDir('wl-mail-stop-');
  const servers: ServeProcess[] = [];
  let smtp: TestSmtpServer | undefined;
  let db: Db | undefined;
  after(async () => {
    await Promise.all(servers.map((s) => s.stop('SIGKILL')));
    db?.close();
    await smtp?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('is recorded when the mail server accepts it during the shutdown, and is not sent again after a restart', async () => {
    smtp = await startSmtpServer();
    const env = { ...mailEnv(smtp), LOG_LEVEL: 'info' };
    const serve = async () => {
      const server = new ServeProcess(['--data', dataDir, '--port', String(await freePort())], { env });
      servers.push(server);
      await server.listening();
      return server;
    };

    const first = await serve();
    const orgId = (await first.waitFor(/org\s+(org_\S+)/))[1]!;
    // The console's "Send a test email", from a second connection: the server's mail sweep (every 5 s) takes it.
    db = openDatabase(path.join(dataDir, 'wallet-loyalty.db'));
    const config = loadConfig({ DATA_DIR: dataDir, ...mailEnv(smtp) });
    queueTestEmail({ db, clock: systemClock, afterCommit: noAfterCommit, onChange: changeHooks(), config }, { orgId, livemode: false }, 'owner@example.org');

    let release!: () => void;
    smtp.answer(() => ({ hold: new Promise<void>((resolve) => (release = resolve)) }));
    await within(smtp.dataReached(1), 'the message to reach the mail server');
    const stopped = first.stop('SIGTERM');
    await within(first.waitFor(/"msg":"mail: stopping; waiting for the work in flight"/), 'the mail worker to wait for its send');
    release(); // the mail server accepts the message during the shutdown grace
    assert.deepEqual(await stopped, { code: 0, signal: null });
    assert.equal(smtp.received.length, 1);
    const [row] = mailRepo(db).recent(orgId, false, 'test');
    assert.deepEqual([row!.status, row!.attempts, row!.error], ['sent', 1, null], 'the accepted send is recorded');

    // The restart comes after the send's lease would have ended (as a restart minutes later would):
    // an unrecorded send would be due again now.
    db.prepare('UPDATE mail_sends SET lease_until = 0 WHERE lease_until IS NOT NULL').run();
    smtp.answer(() => ({}));
    const second = await serve(); // its start sweeps the mail queue before it listens
    // A clean stop waits for any send the sweep started.
    assert.deepEqual(await second.stop('SIGTERM'), { code: 0, signal: null });
    assert.equal(smtp.received.length, 1, 'the mail server received the mail exactly once');
    assert.deepEqual(smtp.received[0]!.to, ['owner@example.org']);
  });
});
