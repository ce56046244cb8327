import { after, afterEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import { createServer as createTcpServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createWebhookSender, type WebhookSender } from '../src/webhooks/send';
import { createHttp1Client } from '../src/webhooks/http1-client';
import { MAX_HEAD_BYTES, MAX_SKIPPED_BODY_BYTES, ResponseReader } from '../src/webhooks/http1-response';

// The webhook sender's own HTTP/1.1 client (src/webhooks/http1-client.ts) against receivers that
// answer exactly the bytes each case names: every way a response can be framed, the ones that
// are not HTTP, and whether the connection then carries the next attempt.

const dir = mkdtempSync(path.join(tmpdir(), 'wl-http1-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const signal = new AbortController().signal;
const post = (sender: WebhookSender, url: string, extra: Partial<Parameters<WebhookSender['post']>[0]> = {}) =>
  sender.post({ url, body: '{"id":"evt_1"}', headers: { 'Content-Type': 'application/json' }, timeoutMs: 2000, blockPrivate: false, signal, ...extra });

/** A TCP receiver that answers each complete request (head and Content-Length body) with `answer`. */
async function rawReceiver(answer: (socket: Socket, request: string) => void | Promise<void>): Promise<{ url: string; server: Server; connections: Socket[]; requests: string[] }> {
  const connections: Socket[] = [];
  const requests: string[] = [];
  const server = createTcpServer((socket) => {
    connections.push(socket);
    socket.setNoDelay(true);
    let text = '';
    socket.setEncoding('latin1');
    socket.on('error', () => {});
    socket.on('data', (chunk: string) => {
      text += chunk;
      for (;;) {
        const end = text.indexOf('\r\n\r\n');
        if (end < 0) return;
        const length = Number(/\r\ncontent-length: (\d+)/i.exec(text.slice(0, end))?.[1] ?? 0);
        if (text.length < end + 4 + length) return;
        const request = text.slice(0, end + 4 + length);
        text = text.slice(end + 4 + length);
        requests.push(request);
        void answer(socket, request);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, server, connections, requests };
}

/** Writes `bytes` in pieces of `size`, a millisecond apart, so the client sees them in separate reads. */
async function dribble(socket: Socket, bytes: string, size: number) {
  for (let at = 0; at < bytes.length; at += size) {
    socket.write(bytes.slice(at, at + size), 'latin1');
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}

const big = 'x'.repeat(MAX_SKIPPED_BODY_BYTES + 1);
const cases: { name: string; answer: string; pieces?: number; expect: { succeeded: boolean; responseCode: number | null; error?: string | RegExp }; reused: boolean }[] = [
  { name: 'a Content-Length body', answer: 'HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok', expect: { succeeded: true, responseCode: 200 }, reused: true },
  { name: 'a chunked body with an extension and a trailer, a byte at a time', answer: 'HTTP/1.1 202 Accepted\r\nTransfer-Encoding: chunked\r\n\r\n2;note=1\r\nok\r\nA\r\n0123456789\r\n0\r\nX-Done: yes\r\n\r\n', pieces: 1, expect: { succeeded: true, responseCode: 202 }, reused: true },
  { name: 'a body in two pieces', answer: 'HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n0123456789', pieces: 30, expect: { succeeded: true, responseCode: 200 }, reused: true },
  { name: '204 without a body', answer: 'HTTP/1.1 204 No Content\r\n\r\n', expect: { succeeded: true, responseCode: 204 }, reused: true },
  { name: '100 Continue and 103 Early Hints before the answer', answer: 'HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a>; rel=preload\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n', expect: { succeeded: true, responseCode: 200 }, reused: true },
  { name: 'a 500 with a body', answer: 'HTTP/1.1 500 Internal Server Error\r\nContent-Length: 5\r\n\r\noops!', expect: { succeeded: false, responseCode: 500, error: 'the receiver answered 500' }, reused: true },
  { name: 'a redirect, not followed', answer: 'HTTP/1.1 302 Found\r\nLocation: https://elsewhere.example/hook\r\nContent-Length: 0\r\n\r\n', expect: { succeeded: false, responseCode: 302, error: 'redirect to https://elsewhere.example/hook; redirects are not followed, answer 2xx at the registered URL' }, reused: true },
  { name: 'Connection: close', answer: 'HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\nok', expect: { succeeded: true, responseCode: 200 }, reused: false },
  { name: 'HTTP/1.0 with a body up to the close', answer: 'HTTP/1.0 200 OK\r\n\r\nok', expect: { succeeded: true, responseCode: 200 }, reused: false },
  { name: 'HTTP/1.1 without a length (a body up to the close)', answer: 'HTTP/1.1 200 OK\r\n\r\nok', expect: { succeeded: true, responseCode: 200 }, reused: false },
  { name: 'both Content-Length and chunked', answer: 'HTTP/1.1 200 OK\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\n\r\n', expect: { succeeded: true, responseCode: 200 }, reused: false },
  { name: 'two different Content-Lengths', answer: 'HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\nok', expect: { succeeded: true, responseCode: 200 }, reused: false },
  { name: `a body over ${MAX_SKIPPED_BODY_BYTES} bytes`, answer: `HTTP/1.1 200 OK\r\nContent-Length: ${big.length}\r\n\r\n${big}`, expect: { succeeded: true, responseCode: 200 }, reused: false },
  { name: 'bytes after the response', answer: 'HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nokHTTP/1.1 200 OK\r\n\r\n', expect: { succeeded: true, responseCode: 200 }, reused: false },
  { name: 'a bad chunk size after a good status', answer: 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n', expect: { succeeded: true, responseCode: 200 }, reused: false },
  { name: 'no status line', answer: 'hello there\r\n\r\n', expect: { succeeded: false, responseCode: null, error: /^BAD_RESPONSE: the answer is not well-formed HTTP: no status line$/ }, reused: false },
  { name: 'a header line without a name', answer: 'HTTP/1.1 200 OK\r\n: nothing\r\n\r\n', expect: { succeeded: false, responseCode: null, error: /a header line without a name/ }, reused: false },
  { name: `headers over ${MAX_HEAD_BYTES / 1024} KiB`, answer: `HTTP/1.1 200 OK\r\nX-Big: ${'y'.repeat(MAX_HEAD_BYTES)}\r\n\r\n`, expect: { succeeded: false, responseCode: null, error: /headers exceed 16 KiB/ }, reused: false },
];

describe('the webhook HTTP/1.1 client', () => {
  let sender: WebhookSender | undefined;
  let receiver: Awaited<ReturnType<typeof rawReceiver>> | undefined;
  afterEach(async () => {
    sender?.close();
    for (const socket of receiver?.connections ?? []) socket.destroy();
    await new Promise((resolve) => (receiver ? receiver.server.close(resolve) : resolve(undefined)));
    sender = receiver = undefined;
  });

  for (const c of cases) {
    it(`${c.name}: ${c.expect.responseCode ?? 'no answer'}, the connection ${c.reused ? 'kept' : 'closed'}`, async () => {
      let n = 0;
      receiver = await rawReceiver((socket) => (n++ === 0 ? dribble(socket, c.answer, c.pieces ?? c.answer.length) : void socket.write('HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n')));
      sender = createWebhookSender();
      const first = await post(sender, receiver.url);
      assert.deepEqual({ succeeded: first.succeeded, responseCode: first.responseCode }, { succeeded: c.expect.succeeded, responseCode: c.expect.responseCode });
      if (c.expect.error instanceof RegExp) assert.match(first.error!, c.expect.error);
      else assert.equal(first.error, c.expect.error ?? null);
      // The answer may still be arriving after its head: the next attempt finds the connection free or gone.
      await new Promise((resolve) => setTimeout(resolve, c.answer.length / (c.pieces ?? c.answer.length) + 20));
      const second = await post(sender, receiver.url);
      assert.equal(second.responseCode, 200, String(second.error));
      assert.equal(receiver.connections.length, c.reused ? 1 : 2, 'connections used by two attempts');
    });
  }

  it('writes the request a real HTTP parser reads: path and query, Host with its port, the UTF-8 body’s byte length, the headers', async () => {
    const seen: { method?: string; url?: string; headers?: http.IncomingHttpHeaders; body?: string }[] = [];
    const server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        seen.push({ method: req.method, url: req.url, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
        res.writeHead(200).end('ok');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    sender = createWebhookSender();
    try {
      const body = '{"name":"Zoë ☕"}';
      const outcome = await sender.post({ url: `http://127.0.0.1:${port}/hooks/loyalty?shop=7&x=%20y`, body, headers: { 'Content-Type': 'application/json', 'X-Loyalty-Event-Id': 'evt_1' }, timeoutMs: 2000, blockPrivate: false, signal });
      assert.equal(outcome.responseCode, 200, String(outcome.error));
      assert.deepEqual(seen, [{ method: 'POST', url: '/hooks/loyalty?shop=7&x=%20y', headers: { host: `127.0.0.1:${port}`, 'content-length': String(Buffer.byteLength(body)), 'content-type': 'application/json', 'x-loyalty-event-id': 'evt_1' }, body }]);
      // Node's own answer (writeHead, then end) is chunked: the connection still carries the next one.
      assert.equal((await post(sender, `http://127.0.0.1:${port}/`)).responseCode, 200);
      const connections = await new Promise<number>((resolve, reject) => server.getConnections((err, count) => (err ? reject(err) : resolve(count))));
      assert.equal(connections, 1);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('refuses a header with a line break without sending anything', async () => {
    receiver = await rawReceiver((socket) => void socket.write('HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n'));
    sender = createWebhookSender();
    const outcome = await post(sender, receiver.url, { headers: { 'X-Evil': 'a\r\nX-Injected: 1' } });
    assert.deepEqual({ ...outcome, durationMs: 0 }, { succeeded: false, responseCode: null, error: 'header "X-Evil" holds a line break', durationMs: 0 });
    assert.equal(receiver.connections.length, 0);
  });

  it('a receiver that never answers: the attempt times out and its connection is not used again', async () => {
    let n = 0;
    receiver = await rawReceiver((socket) => void (n++ === 0 ? undefined : socket.write('HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n')));
    sender = createWebhookSender();
    const outcome = await post(sender, receiver.url, { timeoutMs: 150 });
    assert.deepEqual({ ...outcome, durationMs: 0 }, { succeeded: false, responseCode: null, error: 'no response within 150 ms', durationMs: 0 });
    assert.ok(outcome.durationMs >= 140, `${outcome.durationMs} ms`);
    assert.equal((await post(sender, receiver.url)).responseCode, 200);
    assert.equal(receiver.connections.length, 2);
  });

  it('a shutdown interrupts the attempts waiting for an answer', async () => {
    receiver = await rawReceiver(() => undefined);
    sender = createWebhookSender();
    const shutdown = new AbortController();
    const attempts = [post(sender, receiver.url, { signal: shutdown.signal }), post(sender, receiver.url, { signal: shutdown.signal })];
    while (receiver.requests.length < 2) await new Promise((resolve) => setTimeout(resolve, 5));
    shutdown.abort();
    for (const outcome of await Promise.all(attempts)) {
      assert.deepEqual({ ...outcome, durationMs: 0 }, { succeeded: false, responseCode: null, error: 'interrupted: the server shut down before the receiver answered', durationMs: 0 });
    }
    assert.equal((await post(sender, receiver.url, { signal: shutdown.signal })).error, 'interrupted: the server shut down before the receiver answered');
  });

  it('closing the sender ends an attempt waiting on a kept connection, without sending it again elsewhere', async () => {
    let n = 0;
    receiver = await rawReceiver((socket) => void (n++ === 0 ? socket.write('HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n') : undefined));
    sender = createWebhookSender();
    assert.equal((await post(sender, receiver.url)).responseCode, 200);
    const waiting = post(sender, receiver.url);
    while (receiver.requests.length < 2) await new Promise((resolve) => setTimeout(resolve, 5));
    sender.close();
    assert.equal((await waiting).error, 'the sender was closed');
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(receiver.connections.length, 1);
    assert.equal(receiver.requests.length, 2);
  });

  it('a refused connection and a name that does not resolve are failed attempts that say so', async () => {
    sender = createWebhookSender();
    const closed = await rawReceiver(() => undefined);
    const url = closed.url;
    await new Promise((resolve) => closed.server.close(resolve));
    const refused = await post(sender, url);
    assert.match(refused.error!, /^ECONNREFUSED: connect ECONNREFUSED 127\.0\.0\.1:\d+$/);
    const unknown = await post(sender, 'http://no-such-host.invalid/hook');
    assert.equal(unknown.error, 'could not resolve no-such-host.invalid (ENOTFOUND)');
  });

  it('https: verifies the receiver’s certificate, and keeps one TLS connection for many attempts', async () => {
    const keyFile = path.join(dir, 'key.pem');
    const certFile = path.join(dir, 'cert.pem');
    const made = spawnSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', keyFile, '-out', certFile, '-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'], { encoding: 'utf8' });
    assert.equal(made.status, 0, made.stderr);
    const cert = readFileSync(certFile, 'utf8');
    let handshakes = 0;
    const server = https.createServer({ key: readFileSync(keyFile, 'utf8'), cert }, (req, res) => {
      req.resume();
      req.on('end', () => res.end('ok'));
    });
    server.on('secureConnection', () => handshakes++);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
    const untrusting = createWebhookSender();
    sender = createWebhookSender({ tls: { ca: cert } });
    try {
      const refused = await post(untrusting, url);
      assert.equal(refused.succeeded, false);
      assert.match(refused.error!, /^(DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN): /);
      for (let i = 0; i < 5; i++) assert.equal((await post(sender, url)).responseCode, 200);
      assert.equal(handshakes, 1, 'one TLS connection for five attempts');
    } finally {
      untrusting.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('the response reader', () => {
  it('finds the end of a chunked response cut at every byte, and keeps what follows it', () => {
    const response = 'HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n';
    for (let cut = 1; cut < response.length; cut++) {
      const reader = new ResponseReader();
      assert.equal(reader.feed(response.slice(0, cut)), false, `cut at ${cut}`);
      assert.equal(reader.feed(`${response.slice(cut)}NEXT`), true, `cut at ${cut}`);
      assert.deepEqual(reader.head, { status: 200, location: undefined, reusable: true });
      assert.equal(reader.leftover(), 'NEXT');
    }
  });
});

describe('the client’s connections', () => {
  it('a body that trickles in after the answer holds its connection no longer than the idle time', async () => {
    let dripping: NodeJS.Timeout | undefined;
    const receiver = await rawReceiver((socket) => {
      socket.write('HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n');
      // A byte every 20 ms: never silent for the socket's timeout, far from done in 150 ms.
      dripping = setInterval(() => socket.write('x'), 20);
    });
    const client = createHttp1Client({ idleMs: 150, maxIdlePerOrigin: 4 });
    try {
      const port = Number(new URL(receiver.url).port);
      const exchange = client.post({ secure: false, hostname: '127.0.0.1', port, host: `127.0.0.1:${port}`, path: '/hook' }, {}, '{}', undefined);
      assert.equal((await exchange.response).status, 200);
      const closed = new Promise((resolve) => receiver.connections[0]!.on('close', resolve));
      const started = Date.now();
      await closed;
      const held = Date.now() - started;
      assert.ok(held >= 100 && held < 1000, `held ${held} ms`);
    } finally {
      clearInterval(dripping);
      client.close();
      await new Promise((resolve) => receiver.server.close(resolve));
    }
  });
});
