import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { after, afterEach, before, beforeEach, describe, test } from 'node:test';
import { createApnsClient, isDeadRegistration, type ApnsClient, type ApnsClientOptions } from '../../src/wallet/apple/apns';
import { createAppleTestChain, startFakeApns, unusedPort, type AppleTestChain, type FakeApns } from '../support/wallet-fixtures';

const TOKEN = 'a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90';

let chain: AppleTestChain;
let apns: FakeApns;
let client: ApnsClient | undefined;

function options(extra: Partial<ApnsClientOptions> = {}): ApnsClientOptions {
  return {
    url: apns.url,
    cert: readFileSync(chain.passCertPath),
    key: readFileSync(chain.passKeyPath),
    topic: chain.passTypeId,
    ca: readFileSync(chain.rootCertPath),
    ...extra,
  };
}

before(() => {
  chain = createAppleTestChain();
});
after(() => chain.cleanup());
beforeEach(async () => {
  apns = await startFakeApns(chain);
});
afterEach(async () => {
  await client?.close();
  client = undefined;
  await apns.close();
});

describe('APNs client', () => {
  test('posts {} to /3/device/<token> with the topic, authenticated by the pass certificate', async () => {
    client = createApnsClient(options());
    const result = await client.push(TOKEN);
    assert.equal(result.status, 200);
    assert.equal(result.reason, undefined);
    assert.equal(result.apnsId, 'fake-1');
    assert.equal(apns.requests.length, 1);
    const [req] = apns.requests;
    assert.equal(req!.method, 'POST');
    assert.equal(req!.path, `/3/device/${TOKEN}`);
    assert.equal(req!.headers['apns-topic'], chain.passTypeId);
    assert.equal(req!.headers['apns-push-type'], undefined, 'no push type unless configured');
    assert.equal(req!.body, '{}');
    assert.equal(req!.clientSubject?.UID, chain.passTypeId);
    assert.equal(req!.clientSubject?.OU, chain.teamId);
    assert.equal(req!.clientFingerprint256, new X509Certificate(readFileSync(chain.passCertPath)).fingerprint256);
  });

  test('sends apns-push-type when configured, and works with an encrypted key + passphrase', async () => {
    client = createApnsClient(
      options({ pushType: 'background', key: readFileSync(chain.encryptedPassKeyPath), passphrase: chain.passphrase }),
    );
    assert.equal((await client.push(TOKEN)).status, 200);
    assert.equal(apns.requests[0]!.headers['apns-push-type'], 'background');
    assert.equal(apns.requests[0]!.clientSubject?.UID, chain.passTypeId);
  });

  test('reuses one HTTP/2 session for many pushes', async () => {
    client = createApnsClient(options());
    const results = await Promise.all(['01', '02', '03'].map((t) => client!.push(t)));
    assert.deepEqual(results.map((r) => r.status), [200, 200, 200]);
    assert.equal((await client.push('04')).status, 200);
    assert.equal(apns.sessionCount(), 1);
    assert.deepEqual(apns.requests.map((r) => r.path).sort(), ['/3/device/01', '/3/device/02', '/3/device/03', '/3/device/04']);
  });

  test('reports 410 Unregistered as a dead registration', async () => {
    client = createApnsClient(options());
    apns.answer(410, 'Unregistered');
    const result = await client.push(TOKEN);
    assert.deepEqual({ status: result.status, reason: result.reason }, { status: 410, reason: 'Unregistered' });
    assert.equal(isDeadRegistration(result), true);
  });

  test('reports other statuses as answers, not as dead registrations', async () => {
    client = createApnsClient(options());
    apns.answer(500, 'InternalServerError');
    const result = await client.push(TOKEN);
    assert.equal(result.status, 500);
    assert.equal(result.reason, 'InternalServerError');
    assert.equal(isDeadRegistration(result), false);
    assert.equal(isDeadRegistration({ status: 400, reason: 'BadDeviceToken' }), true);
    assert.equal(isDeadRegistration({ status: 400, reason: 'BadTopic' }), false);
    assert.equal(isDeadRegistration({ status: 200 }), false);
  });

  test('after the server closes the session (GOAWAY), the next push goes through a new one', async () => {
    client = createApnsClient(options());
    assert.equal((await client.push('01')).status, 200);
    apns.dropSessions();
    // Sent at once, this push races the GOAWAY: refused unprocessed, it must be retried, not lost.
    assert.equal((await client.push('02')).status, 200);
    assert.equal((await client.push('03')).status, 200);
    assert.equal(apns.sessionCount(), 2);
    assert.deepEqual(apns.requests.map((r) => r.path), ['/3/device/01', '/3/device/02', '/3/device/03']);
  });

  test('an unreachable server rejects (the caller retries later)', async () => {
    client = createApnsClient(options({ url: `https://127.0.0.1:${await unusedPort()}` }));
    await assert.rejects(client.push(TOKEN), /ECONNREFUSED|APNs/);
  });

  test('a server that does not answer rejects after timeoutMs', async () => {
    client = createApnsClient(options({ timeoutMs: 150 }));
    apns.hang();
    await assert.rejects(client.push(TOKEN), /did not answer within 150 ms/);
    assert.equal(apns.requests.length, 1);
  });

  test('a server certificate the client does not trust makes the push reject', async () => {
    client = createApnsClient(options({ ca: readFileSync(chain.otherWwdrCertPath) }));
    await assert.rejects(client.push(TOKEN), /certificate|APNs/i);
    assert.equal(apns.requests.length, 0);
  });

  test('pushes after close() reject', async () => {
    client = createApnsClient(options());
    assert.equal((await client.push(TOKEN)).status, 200);
    await client.close();
    await assert.rejects(client.push(TOKEN), /closed/);
  });
});
