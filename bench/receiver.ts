// The webhook receiver of the bench: its own process (as a real receiver is), answering 200 on
// 127.0.0.1. For each event it notes when the body arrived and the event's createdAt, which the
// outbox stamps inside the earn's transaction: their difference is the change-to-delivery latency.
// In 'slow' mode it answers each request only after a delay (below the server's webhook timeout,
// so nothing fails): the server's queue then grows, which is how the bench builds a backlog.
// Driven over IPC by bench/run.ts (see ReceiverCommand); started by bench/processes.ts.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type ReceiverCommand =
  | { type: 'slow'; delayMs: number }
  | { type: 'fast' }
  /** Forget the latencies noted so far. */
  | { type: 'reset' }
  | { type: 'stats' };

export type ReceiverMessage =
  | { type: 'ready'; url: string }
  | { type: 'stats'; received: number; latencies: number[] }
  | { type: 'ack' };

let delayMs = 0;
const held = new Set<{ res: http.ServerResponse; timer: NodeJS.Timeout }>();
let received = 0;
let latencies: number[] = [];

function answer(res: http.ServerResponse) {
  if (!res.destroyed) res.writeHead(200, { 'Content-Type': 'text/plain' }).end('ok');
}

const server = http.createServer({ keepAliveTimeout: 60_000 }, (req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const at = Date.now();
    received++;
    try {
      const createdAt = Date.parse((JSON.parse(Buffer.concat(chunks).toString('utf8')) as { createdAt: string }).createdAt);
      if (Number.isFinite(createdAt)) latencies.push(at - createdAt);
    } catch {
      // Not an event: nothing to measure.
    }
    if (delayMs === 0) return answer(res);
    const entry = { res, timer: setTimeout(() => (held.delete(entry), answer(res)), delayMs) };
    held.add(entry);
  });
});

function send(message: ReceiverMessage) {
  process.send!(message);
}

process.on('message', (command: ReceiverCommand) => {
  if (command.type === 'slow') delayMs = command.delayMs;
  if (command.type === 'fast') {
    delayMs = 0;
    // The held requests are answered now: the backlog starts draining at once.
    for (const entry of held) {
      clearTimeout(entry.timer);
      answer(entry.res);
    }
    held.clear();
  }
  if (command.type === 'reset') latencies = [];
  if (command.type === 'stats') return send({ type: 'stats', received, latencies });
  send({ type: 'ack' });
});
// The bench is gone: never linger.
process.on('disconnect', () => process.exit(0));

server.listen(0, '127.0.0.1', () => {
  send({ type: 'ready', url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook` });
});
