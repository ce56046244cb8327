import { after, afterEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { createServer as createTcpServer, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openDatabase } from '../src/db/open';
import { deliveriesRepo } from '../src/webhooks/deliveries-repo';
import { createWebhookSender } from '../src/webhooks/send';
import { PER_ENDPOINT } from '../src/webhooks/worker';
import { seedStandardOrg } from './support/app';
import { statementsPreparedBy } from './support/databases';
import { createEndpoint, produce, startWebhookApp, type WebhookTestApp } from './support/webhooks';

// What keeps delivery fast through a backlog: claims that read only the rows they take, attempts
// on kept-alive connections, attempts recorded together (the row queue's, test/queue.test.ts).
// Each keeps the delivery guarantees.

const dir = mkdtempSync(path.join(tmpdir(), 'wl-throughput-'));
after(() => rmSync(dir, { recursive: true, force: true }));

describe('the delivery queue', () => {
  it('claims read one endpoint’s queue through its index: no scan and no sort of the backlog', () => {
    // The repo's statements, as it prepares them on a fresh connection.
    const db = openDatabase(path.join(dir, 'plans.db'));
    const prepared = statementsPreparedBy(db, deliveriesRepo);
    const claims = prepared.filter((sql) => /status = 'pending' AND d\.next_attempt_at <= @now/.test(sql));
    assert.equal(claims.length, 2, 'the endpoints query and the per-endpoint query');
    for (const sql of claims) {
      const params = Object.fromEntries([...sql.matchAll(/@(\w+)/g)].map(([, name]) => [name, /now|limit/.test(name!) ? 1 : name === 'exclude' || name === 'inFlight' ? '[]' : 'x']));
      const plan = (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(params) as { detail: string }[]).map((r) => r.detail);
      assert.ok(plan.some((d) => /webhook_deliveries_queue \(webhook_id=\? AND next_attempt_at<\?\)/.test(d)), plan.join('\n'));
      assert.deepEqual(plan.filter((d) => /^SCAN (d|webhook_deliveries)\b/.test(d)), [], plan.join('\n'));
      if (/ORDER BY d\./.test(sql)) assert.deepEqual(plan.filter((d) => /TEMP B-TREE/.test(d)), [], plan.join('\n'));
    }
    db.close();
  });
});

describe('delivery over kept-alive connections', () => {
  let app: WebhookTestApp | undefined;
  let server: http.Server | undefined;
  afterEach(async () => {
    await app?.close();
    server?.closeAllConnections();
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
    app = server = undefined;
  });

  it('sends many attempts to one receiver over at most as many connections as it has slots', async () => {
    const sockets = new Set<Socket>();
    let received = 0;
    server = http.createServer((req, res) => {
      sockets.add(req.socket);
      req.resume();
      req.on('end', () => {
        received++;
        res.end('ok');
      });
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    app = await startWebhookApp();
    const org = seedStandardOrg(app);
    await createEndpoint(app, org.keys.live, `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`);
    for (let i = 0; i < 40; i++) produce(app.deps, { orgId: org.orgId, livemode: true, type: 'balance.updated', cardId: org.cards.points });
    while (received < 40) await app.worker.idle();
    assert.equal(received, 40);
    assert.ok(sockets.size <= PER_ENDPOINT, `40 attempts used ${sockets.size} connections`);
  });

  it('an attempt on a kept connection the receiver closed meanwhile is sent again on a new one, once', async () => {
    // A raw receiver: answers the first request on a connection and keeps it open; on that
    // connection's second request it drops the connection without answering (a keep-alive race).
    const perConnection = new Map<Socket, number>();
    let answered = 0;
    const tcp = createTcpServer((socket) => {
      perConnection.set(socket, 0);
      socket.on('data', (chunk) => {
        if (!chunk.toString('latin1').startsWith('POST ')) return;
        const n = perConnection.get(socket)! + 1;
        perConnection.set(socket, n);
        if (n === 1) {
          answered++;
          socket.write('HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: keep-alive\r\n\r\nok');
        } else {
          socket.resetAndDestroy();
        }
      });
    });
    await new Promise<void>((resolve) => tcp.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(tcp.address() as AddressInfo).port}/hook`;
    const sender = createWebhookSender();
    try {
      const post = () => sender.post({ url, body: '{}', headers: { 'Content-Type': 'application/json' }, timeoutMs: 2000, blockPrivate: false, signal: new AbortController().signal });
      assert.equal((await post()).succeeded, true);
      const second = await post();
      assert.equal(second.succeeded, true, String(second.error));
      assert.equal(answered, 2);
      assert.equal(perConnection.size, 2, 'the retry went over a new connection');
    } finally {
      sender.close();
      await new Promise((resolve) => tcp.close(resolve));
      for (const socket of perConnection.keys()) socket.destroy();
    }
  });
});
