import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { startBackgroundThread, type BackgroundThread } from '../src/background/start';
import { openDatabase, type Db } from '../src/db/open';
import { createWebhookSender, type SendOutcome, type SendRequest, type WebhookSender } from '../src/webhooks/send';
import { createThreadSender } from '../src/webhooks/thread-sender';
import type { SendOrder } from '../src/webhooks/send-host';
import { silentLogger } from './support/fakes';
import { startReceiver, type Receiver } from './support/receiver';

// Webhook attempts run on the background thread (background/start.ts): the same sending code
// (send.ts) as in the server's thread, the same outcomes, and the server's thread takes over
// whatever the background thread leaves.

/** A sender that counts what it was asked to send, then sends it. */
function countingSender(): WebhookSender & { count: number } {
  const real = createWebhookSender();
  const spy = {
    count: 0,
    post(request: SendRequest) {
      spy.count++;
      return real.post(request);
    },
    close: () => real.close(),
  };
  return spy;
}

const request = (url: string, extra: Partial<SendRequest> = {}): SendRequest => ({
  url,
  body: '{"id":"evt_1"}',
  headers: { 'Content-Type': 'application/json', 'X-Loyalty-Event-Id': 'evt_1' },
  timeoutMs: 2000,
  blockPrivate: false,
  signal: new AbortController().signal,
  ...extra,
});

describe('webhook attempts on the background thread', { timeout: 30_000 }, () => {
  let dir: string;
  let db: Db;
  let receiver: Receiver;
  let local: ReturnType<typeof countingSender>;
  let background: BackgroundThread;

  before(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'wl-background-'));
    const file = path.join(dir, 'wallet-loyalty.db');
    db = openDatabase(file);
    receiver = await startReceiver();
    local = countingSender();
    background = startBackgroundThread(db, file, silentLogger, { delayMs: 0, localSender: local });
    // The thread begins on a timer of 0 ms.
    await sleep(20);
  });
  after(async () => {
    await background.stop();
    db.close();
    await receiver.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('sends an attempt from the thread: the body, its length and the headers arrive as given', async () => {
    const outcome = await background.webhookSender.post(request(receiver.url));
    assert.deepEqual({ succeeded: outcome.succeeded, responseCode: outcome.responseCode, error: outcome.error }, { succeeded: true, responseCode: 200, error: null });
    const got = receiver.requests.at(-1)!;
    assert.equal(got.body, '{"id":"evt_1"}');
    assert.equal(got.headers['content-length'], '14');
    assert.equal(got.headers['x-loyalty-event-id'], 'evt_1');
    assert.equal(local.count, 0, 'not sent from the server’s thread');
  });

  const cases: { name: string; answer: Parameters<Receiver['answer']>[0]; extra?: Partial<SendRequest>; expect: Partial<SendOutcome> }[] = [
    { name: 'a 500', answer: () => ({ status: 500 }), expect: { succeeded: false, responseCode: 500, error: 'the receiver answered 500' } },
    { name: 'a redirect, not followed', answer: () => ({ status: 302, headers: { Location: '/elsewhere' } }), expect: { succeeded: false, responseCode: 302 } },
    { name: 'no answer within the timeout', answer: () => 'hang', extra: { timeoutMs: 150 }, expect: { succeeded: false, responseCode: null, error: 'no response within 150 ms' } },
    { name: 'a private address refused', answer: () => ({ status: 200 }), extra: { blockPrivate: true }, expect: { succeeded: false, responseCode: null } },
  ];
  for (const c of cases) {
    it(`reports ${c.name} as the server's own sender does`, async () => {
      receiver.answer(c.answer);
      const [fromThread, fromHere] = await Promise.all([background.webhookSender.post(request(receiver.url, c.extra)), createWebhookSender().post(request(receiver.url, c.extra))]);
      receiver.release();
      receiver.answer(() => ({ status: 200 }));
      for (const [key, value] of Object.entries(c.expect)) assert.deepEqual(fromThread[key as keyof SendOutcome], value, key);
      assert.equal(fromThread.error, fromHere.error);
      assert.equal(local.count, 0);
    });
  }

  it('gives up an attempt when the server stops waiting for it', async () => {
    receiver.answer(() => 'hang');
    const stop = new AbortController();
    const attempt = background.webhookSender.post(request(receiver.url, { signal: stop.signal, timeoutMs: 10_000 }));
    await sleep(100);
    stop.abort();
    const outcome = await attempt;
    receiver.release();
    receiver.answer(() => ({ status: 200 }));
    assert.equal(outcome.succeeded, false);
    assert.match(outcome.error ?? '', /^interrupted/);
  });

  it('once the thread has stopped, attempts are sent from the server’s thread', async () => {
    await background.stop();
    const outcome = await background.webhookSender.post(request(receiver.url));
    assert.equal(outcome.succeeded, true);
    assert.equal(local.count, 1);
  });
});

describe('the thread sender without its thread', () => {
  it('sends the attempts the thread left unreported from the server’s thread, each answering its caller once', async () => {
    const receiver = await startReceiver();
    const local = countingSender();
    const sender = createThreadSender(local);
    const posted: SendOrder[][] = [];
    sender.attach((orders) => posted.push(orders));
    const first = sender.post(request(receiver.url));
    const second = sender.post(request(receiver.url));
    await sleep(0);
    assert.deepEqual(posted.map((batch) => batch.map((o) => o.type)), [['send', 'send']], 'one message for the turn');
    // The thread reports the first, then is gone before the second.
    const firstId = (posted[0]![0] as Extract<SendOrder, { type: 'send' }>).id;
    sender.receive([[firstId, { succeeded: true, responseCode: 200, error: null, durationMs: 1 }]]);
    sender.detach();
    assert.equal((await first).responseCode, 200);
    assert.equal((await second).responseCode, 200);
    assert.equal(local.count, 1, 'only the unreported one was sent again');
    assert.equal(receiver.requests.length, 1);
    // A late report of the re-sent one changes nothing.
    sender.receive([[firstId + 1, { succeeded: false, responseCode: 500, error: 'late', durationMs: 1 }]]);
    sender.close();
    await receiver.close();
  });
});
