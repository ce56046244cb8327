import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';

export interface Received {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  /** The raw body exactly as it arrived. */
  body: string;
}

/** What the receiver answers: a status (optionally after a delay), or 'hang' to never answer. */
export type Answer = { status: number; delayMs?: number; headers?: Record<string, string> } | 'hang';

export interface Receiver {
  url: string;
  requests: Received[];
  /** Sets how the next requests are answered; `n` is the 0-based index of the request. */
  answer(fn: (n: number, req: Received) => Answer): void;
  /** Resolves once at least `count` requests have arrived. */
  waitFor(count: number): Promise<void>;
  /** Answers every request held by 'hang' with `status`. */
  release(status?: number): void;
  eventIds(): string[];
  close(): Promise<void>;
}

/**
 * A real HTTP receiver on 127.0.0.1, port 0, that records each request and can change its answer
 * mid-test; with `tls` (a key and a certificate for 127.0.0.1, PEM), an HTTPS one.
 */
export async function startReceiver(path = '/hook', tls?: { key: string; cert: string }): Promise<Receiver> {
  const requests: Received[] = [];
  let answerFn: (n: number, req: Received) => Answer = () => ({ status: 200 });
  let waiters: { count: number; resolve: () => void }[] = [];
  const held: http.ServerResponse[] = [];

  const server = (tls ? https.createServer(tls) : http.createServer()).on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const received: Received = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      const n = requests.length;
      requests.push(received);
      const answer = answerFn(n, received);
      waiters = waiters.filter((w) => (requests.length >= w.count ? (w.resolve(), false) : true));
      if (answer === 'hang') {
        held.push(res);
        return;
      }
      const reply = () => {
        if (!res.destroyed) res.writeHead(answer.status, answer.headers).end('ok');
      };
      if (answer.delayMs) setTimeout(reply, answer.delayMs);
      else reply();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;

  return {
    url: `${tls ? 'https' : 'http'}://127.0.0.1:${port}${path}`,
    requests,
    answer(fn) {
      answerFn = fn;
    },
    waitFor(count) {
      if (requests.length >= count) return Promise.resolve();
      return new Promise((resolve) => waiters.push({ count, resolve }));
    },
    release(status = 200) {
      for (const res of held.splice(0)) if (!res.destroyed) res.writeHead(status).end('ok');
    },
    eventIds: () => requests.map((r) => String(r.headers['x-loyalty-event-id'])),
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

/**
 * A receiver's signature check, written as docs/webhooks.md shows it (node:crypto only): HMAC-SHA256
 * of `t.body` with the secret, compared in constant time, timestamp within 300 s of now.
 */
export function verifySignature(secret: string, header: string, rawBody: string, nowSeconds: number): boolean {
  const parts = Object.fromEntries(header.split(',').map((p) => p.split('=', 2) as [string, string]));
  const t = Number(parts.t);
  if (!Number.isInteger(t) || Math.abs(nowSeconds - t) > 300 || !parts.v1) return false;
  const expected = createHmac('sha256', secret).update(`${t}.${rawBody}`).digest();
  const given = Buffer.from(parts.v1, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * Waits until `check` holds, polling every 10 ms. The deadline only turns a hang into a clear
 * failure; nothing asserts how fast it happens.
 */
export async function eventually(check: () => boolean | Promise<boolean>, what = 'the condition', deadlineMs = 120_000): Promise<void> {
  const until = Date.now() + deadlineMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`gave up waiting for ${what} after ${deadlineMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
