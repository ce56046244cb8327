import { after, afterEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import { createServer as createTcpServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createWebhookSender, MAX_SKIPPED_BODY_BYTES, type SendRequest, type WebhookSender } from '../src/webhooks/send';

// The webhook sender (src/webhooks/send.ts) against real receivers on 127.0.0.1: what an attempt
// sends, how each kind of answer is judged, and what happens to the connection afterwards.

const dir = mkdtempSync(path.join(tmpdir(), 'wl-sender-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const signal = new AbortController().signal;
const post = (sender: WebhookSender, url: string, extra: Partial<SendRequest> = {}) =>
  sender.post({ url, body: '{"id":"evt_1"}', headers: { 'Content-Type': 'application/json' }, timeoutMs: 2000, blockPrivate: false, signal, ...extra });
const withoutDuration = <T extends { durationMs: number }>(outcome: T) => ({ ...outcome, durationMs: 0 });
const INTERRUPTED = 'interrupted: the server shut down before the receiver answered';
const BLOCKED = 'it points to a private, loopback or otherwise internal address, and WEBHOOK_BLOCK_PRIVATE is on';

/** A TCP receiver that answers each complete request (head and Content-Length body) with `answer`. */
async function rawReceiver(answer: (socket: Socket, request: string) => void): Promise<{ url: string; server: Server; connections: Socket[]; requests: string[] }> {
  const connections: Socket[] = [];
  const requests: string[] = [];
  const server = createTcpServer((socket) => {
    connections.push(socket);
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
        answer(socket, request);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, server, connections, requests };
}

const closedSocket = (socket: Socket) => new Promise<void>((resolve) => (socket.closed ? resolve() : socket.once('close', () => resolve())));

const OK = 'HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n';
const cases: { name: string; answer: string; expect: { succeeded: boolean; responseCode: number | null; error?: string | RegExp }; reused: boolean }[] = [
  { name: 'a Content-Length body', answer: 'HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok', expect: { succeeded: true, responseCode: 200 }, reused: true },
  { name: 'a chunked body with a trailer', answer: 'HTTP/1.1 202 Accepted\r\nTransfer-Encoding: chunked\r\n\r\n2;note=1\r\nok\r\nA\r\n0123456789\r\n0\r\nX-Done: yes\r\n\r\n', expect: { succeeded: true, responseCode: 202 }, reused: true },
  { name: '204 without a body', answer: 'HTTP/1.1 204 No Content\r\n\r\n', expect: { succeeded: true, responseCode: 204 }, reused: true },
  { name: '100 Continue and 103 Early Hints before the answer', answer: 'HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a>; rel=preload\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n', expect: { succeeded: true, responseCode: 200 }, reused: true },
  { name: 'a 500 with a body', answer: 'HTTP/1.1 500 Internal Server Error\r\nContent-Length: 5\r\n\r\noops!', expect: { succeeded: false, responseCode: 500, error: 'the receiver answered 500' }, reused: true },
  { name: '410 Gone', answer: 'HTTP/1.1 410 Gone\r\nContent-Length: 0\r\n\r\n', expect: { succeeded: false, responseCode: 410, error: 'the receiver answered 410 Gone, so the endpoint was disabled' }, reused: true },
  { name: 'a redirect, not followed', answer: 'HTTP/1.1 302 Found\r\nLocation: https://elsewhere.example/hook\r\nContent-Length: 0\r\n\r\n', expect: { succeeded: false, responseCode: 302, error: 'redirect to https://elsewhere.example/hook; redirects are not followed, answer 2xx at the registered URL' }, reused: true },
  { name: 'Connection: close', answer: 'HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\nok', expect: { succeeded: true, responseCode: 200 }, reused: false },
  { name: 'HTTP/1.0 with a body up to the close', answer: 'HTTP/1.0 200 OK\r\n\r\nok', expect: { succeeded: true, responseCode: 200 }, reused: false },
  { name: `a body over ${MAX_SKIPPED_BODY_BYTES} bytes`, answer: `HTTP/1.1 200 OK\r\nContent-Length: ${MAX_SKIPPED_BODY_BYTES + 1}\r\n\r\n${'x'.repeat(MAX_SKIPPED_BODY_BYTES + 1)}`, expect: { succeeded: true, responseCode: 200 }, reused: false },
  { name: 'an answer that is not HTTP', answer: 'hello there\r\n\r\n', expect: { succeeded: false, responseCode: null, error: /^HPE_[A-Z_]+: Parse Error/ }, reused: false },
];

describe('the webhook sender', () => {
  let sender: WebhookSender | undefined;
  let receiver: Awaited<ReturnType<typeof rawReceiver>> | undefined;
  afterEach(async () => {
    sender?.close();
    for (const socket of receiver?.connections ?? []) socket.destroy();
    await new Promise((resolve) => (receiver ? receiver.server.close(resolve) : resolve(undefined)));
    sender = receiver = undefined;
  });

  for (const c of cases) {
    it(`${c.name}: ${c.expect.responseCode ?? 'no answer'}, the connection ${c.reused ? 'kept for the next attempt' : 'not used again'}`, async () => {
      let n = 0;
      receiver = await rawReceiver((socket) => {
        socket.write(n++ === 0 ? c.answer : OK, 'latin1');
        if (/^HTTP\/1\.0|Connection: close/.test(c.answer) && n === 1) socket.end();
      });
      sender = createWebhookSender();
      const first = await post(sender, receiver.url);
      assert.deepEqual({ succeeded: first.succeeded, responseCode: first.responseCode }, { succeeded: c.expect.succeeded, responseCode: c.expect.responseCode });
      if (c.expect.error instanceof RegExp) assert.match(first.error!, c.expect.error);
      else assert.equal(first.error, c.expect.error ?? null);
      // The answer's body may still be arriving after its head: the next attempt finds the connection free or gone.
      if (!c.reused) await closedSocket(receiver.connections[0]!);
      else await new Promise((resolve) => setImmediate(resolve));
      const second = await post(sender, receiver.url);
      assert.equal(second.responseCode, 200, String(second.error));
      assert.equal(receiver.requests.length, 2, 'a redirect or failure is not sent again');
      assert.equal(receiver.connections.length, c.reused ? 1 : 2, 'connections used by two attempts');
    });
  }

  it('writes the request a real HTTP parser reads, and sends consecutive attempts over one kept-alive connection', async () => {
    const seen: { method?: string; url?: string; headers?: http.IncomingHttpHeaders; body?: string }[] = [];
    const server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        seen.push({ method: req.method, url: req.url, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
        res.writeHead(200).end('ok');
      });
    });
    const sockets = new Set<Socket>();
    server.on('connection', (socket: Socket) => sockets.add(socket));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    sender = createWebhookSender();
    try {
      const body = '{"name":"Zoë ☕"}';
      const outcome = await sender.post({ url: `http://127.0.0.1:${port}/hooks/loyalty?shop=7&x=%20y`, body, headers: { 'Content-Type': 'application/json', 'X-Loyalty-Event-Id': 'evt_1' }, timeoutMs: 2000, blockPrivate: false, signal });
      assert.deepEqual(withoutDuration(outcome), { succeeded: true, responseCode: 200, error: null, durationMs: 0 });
      assert.deepEqual(seen, [{
        method: 'POST',
        url: '/hooks/loyalty?shop=7&x=%20y',
        headers: { host: `127.0.0.1:${port}`, connection: 'keep-alive', 'content-length': String(Buffer.byteLength(body)), 'content-type': 'application/json', 'x-loyalty-event-id': 'evt_1' },
        body,
      }]);
      // Node's own answer (writeHead, then end) is chunked: the connection still carries the next ones.
      for (let i = 0; i < 4; i++) assert.equal((await post(sender, `http://127.0.0.1:${port}/`)).responseCode, 200);
      assert.equal(seen.length, 5);
      assert.equal(sockets.size, 1, 'five consecutive attempts over one connection');
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('refuses a header with a line break without sending anything', async () => {
    receiver = await rawReceiver((socket) => void socket.write(OK));
    sender = createWebhookSender();
    const outcome = await post(sender, receiver.url, { headers: { 'X-Evil': 'a\r\nX-Injected: 1' } });
    assert.equal(outcome.succeeded, false);
    assert.equal(outcome.responseCode, null);
    assert.match(outcome.error!, /^ERR_INVALID_CHAR: Invalid character in header content \["X-Evil"\]$/);
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(receiver.connections.length, 0);
  });

  it('a receiver that never answers: the attempt times out and its connection is not used again', async () => {
    let n = 0;
    receiver = await rawReceiver((socket) => void (n++ === 0 ? undefined : socket.write(OK)));
    sender = createWebhookSender();
    const outcome = await post(sender, receiver.url, { timeoutMs: 150 });
    assert.deepEqual(withoutDuration(outcome), { succeeded: false, responseCode: null, error: 'no response within 150 ms', durationMs: 0 });
    assert.equal((await post(sender, receiver.url)).responseCode, 200);
    assert.equal(receiver.connections.length, 2);
  });

  it('a never-ending body is read no further than the bound: the connection is dropped, nothing waits for its end', { timeout: 120_000 }, async () => {
    let written = 0;
    receiver = await rawReceiver((socket) => {
      socket.write('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n');
      const chunk = `4000\r\n${'x'.repeat(0x4000)}\r\n`;
      const pour = () => {
        while (!socket.destroyed && socket.write(chunk)) written += 0x4000;
        if (!socket.destroyed) socket.once('drain', pour);
      };
      pour();
    });
    sender = createWebhookSender();
    // A timeout far beyond the test's deadline: only the size bound can end this exchange.
    const outcome = await post(sender, receiver.url, { timeoutMs: 600_000 });
    assert.deepEqual(withoutDuration(outcome), { succeeded: true, responseCode: 200, error: null, durationMs: 0 });
    await closedSocket(receiver.connections[0]!);
    assert.ok(written > MAX_SKIPPED_BODY_BYTES, `${written} bytes written`);
  });

  it('a body that trickles in after a timely answer holds its connection no longer than the attempt’s timeout', { timeout: 120_000 }, async () => {
    let dripping: NodeJS.Timeout | undefined;
    receiver = await rawReceiver((socket) => {
      socket.write('HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n');
      // A byte every 20 ms: never silent, far from done before the timeout.
      dripping = setInterval(() => socket.write('x'), 20);
    });
    sender = createWebhookSender();
    try {
      const outcome = await post(sender, receiver.url, { timeoutMs: 300 });
      assert.equal(outcome.responseCode, 200);
      await closedSocket(receiver.connections[0]!);
    } finally {
      clearInterval(dripping);
    }
  });

  it('a shutdown interrupts the attempts waiting for an answer; a later attempt is not sent', async () => {
    receiver = await rawReceiver(() => undefined);
    sender = createWebhookSender();
    const shutdown = new AbortController();
    const attempts = [post(sender, receiver.url, { signal: shutdown.signal }), post(sender, receiver.url, { signal: shutdown.signal })];
    while (receiver.requests.length < 2) await new Promise((resolve) => setTimeout(resolve, 5));
    shutdown.abort();
    for (const outcome of await Promise.all(attempts)) {
      assert.deepEqual(withoutDuration(outcome), { succeeded: false, responseCode: null, error: INTERRUPTED, durationMs: 0 });
    }
    assert.equal((await post(sender, receiver.url, { signal: shutdown.signal })).error, INTERRUPTED);
    assert.equal(receiver.requests.length, 2);
  });

  it('closing the sender ends an attempt waiting on a kept connection, without sending it again elsewhere', async () => {
    let n = 0;
    receiver = await rawReceiver((socket) => void (n++ === 0 ? socket.write(OK) : undefined));
    sender = createWebhookSender();
    assert.equal((await post(sender, receiver.url)).responseCode, 200);
    const waiting = post(sender, receiver.url);
    while (receiver.requests.length < 2) await new Promise((resolve) => setTimeout(resolve, 5));
    sender.close();
    assert.equal((await waiting).error, 'the sender was closed');
    await closedSocket(receiver.connections[0]!);
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

  it('with WEBHOOK_BLOCK_PRIVATE, a loopback literal and a name resolving to loopback are refused, naming the host only', async () => {
    receiver = await rawReceiver((socket) => void socket.write(OK));
    sender = createWebhookSender();
    const byName = receiver.url.replace('127.0.0.1', 'localhost');
    // Sent without the guard first: that kept connection must not carry a guarded attempt.
    assert.equal((await post(sender, byName)).responseCode, 200);
    assert.equal(receiver.connections.length, 1);

    const literal = await post(sender, receiver.url, { blockPrivate: true });
    assert.deepEqual(withoutDuration(literal), { succeeded: false, responseCode: null, error: `refused 127.0.0.1: ${BLOCKED}`, durationMs: 0 });
    const named = await post(sender, byName, { blockPrivate: true });
    assert.deepEqual(withoutDuration(named), { succeeded: false, responseCode: null, error: `refused localhost: ${BLOCKED}`, durationMs: 0 });
    const mapped = await post(sender, receiver.url.replace('127.0.0.1', '[::ffff:127.0.0.1]'), { blockPrivate: true });
    assert.equal(mapped.error, `refused ::ffff:7f00:1: ${BLOCKED}`);
    assert.equal(receiver.requests.length, 1, 'only the unguarded attempt arrived');
    assert.equal(receiver.connections.length, 1);
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
