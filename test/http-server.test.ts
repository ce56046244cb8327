import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import { createApp, createHttpServer } from '../src/http/app';
import { seedStandardOrg, startTestApp, type StandardOrg, type TestApp } from './support/app';

// The server main.ts runs (createHttpServer), spoken to over raw sockets: these requests are ones
// fetch will not send. Node answers some of them itself, with an empty body, unless told not to.

describe('requests Node would answer itself', () => {
  let app: TestApp;
  let org: StandardOrg;
  let server: Server;
  let port: number;
  before(async () => {
    app = await startTestApp();
    org = seedStandardOrg(app);
    server = await new Promise((resolve) => {
      const s = createHttpServer(createApp(app.deps)).listen(0, '127.0.0.1', () => resolve(s));
    });
    port = (server.address() as AddressInfo).port;
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await app.close();
  });

  /** Writes raw bytes and reads until the server closes the connection (or answers, then we close). */
  function rawRequest(bytes: string): Promise<{ head: string; status: number; body: any }> {
    return new Promise((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1', () => socket.write(bytes));
      let answer = '';
      const done = () => {
        const at = answer.indexOf('\r\n\r\n');
        const head = answer.slice(0, at);
        const text = answer.slice(at + 4);
        resolve({ head, status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]), body: text ? JSON.parse(text) : undefined });
      };
      socket.on('data', (d: Buffer) => {
        answer += d;
        const at = answer.indexOf('\r\n\r\n');
        const length = Number(/\r\ncontent-length: (\d+)/i.exec(answer)?.[1] ?? NaN);
        if (at >= 0 && Buffer.byteLength(answer.slice(at + 4)) >= length) socket.end();
      });
      socket.on('error', reject);
      socket.on('close', done);
    });
  }

  const cases: { name: string; bytes: (o: StandardOrg) => string; status: number; code: RegExp }[] = [
    { name: 'HTTP/1.1 without Host', bytes: (o) => `GET /api/v1/cards HTTP/1.1\r\nX-Api-Key: ${o.keys.live}\r\n\r\n`, status: 400, code: /^BAD_REQUEST: .*Host/ },
    { name: 'HTTP/1.1 without Host on a wallet page', bytes: () => 'GET /pass/whatever HTTP/1.1\r\n\r\n', status: 400, code: /^BAD_REQUEST: .*Host/ },
    { name: 'an Expect the server does not meet', bytes: (o) => `POST /api/v1/customers HTTP/1.1\r\nHost: x\r\nX-Api-Key: ${o.keys.live}\r\nContent-Type: application/json\r\nContent-Length: 2\r\nExpect: foo\r\n\r\n`, status: 417, code: /^EXPECTATION_FAILED/ },
  ];
  for (const c of cases) {
    it(`${c.name}: ${c.status} with the JSON error body`, async () => {
      const res = await rawRequest(c.bytes(org));
      assert.equal(res.status, c.status, res.head);
      assert.match(res.head, /\r\ncontent-type: application\/json/i);
      assert.match(res.head, /\r\ncache-control: no-store/i);
      assert.equal(res.body.statusCode, c.status);
      assert.equal(typeof res.body.error, 'string');
      assert.match(res.body.message, c.code);
    });
  }

  it('HTTP/1.0 needs no Host, and Expect: 100-continue still gets its 100', async () => {
    const old = await rawRequest(`GET /api/v1/cards HTTP/1.0\r\nX-Api-Key: ${org.keys.live}\r\n\r\n`);
    assert.match(old.head, /^HTTP\/1\.1 200 /);
    const body = JSON.stringify({ externalCustomerId: 'expect-1', cardId: org.cards.stamps });
    const res = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1', () =>
        socket.write(`POST /api/v1/customers HTTP/1.1\r\nHost: x\r\nX-Api-Key: ${org.keys.live}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n`),
      );
      let answer = '';
      socket.on('data', (d: Buffer) => {
        if (answer === '' && d.toString().startsWith('HTTP/1.1 100 ')) socket.write(body);
        answer += d;
      });
      socket.on('error', reject);
      socket.on('close', () => resolve(answer));
    });
    assert.match(res, /^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 201 /);
  });
});
