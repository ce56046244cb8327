// The webhook receiver of the bench: its own process (as a real receiver is), answering 200 on
// 127.0.0.1. Told 'slow' (over IPC, by bench/processes.ts) it answers each request only after a
// delay below the server's 5 s webhook timeout, so nothing fails but the server's queue grows: that
// is how the bench builds a backlog. Told 'fast', it answers the held requests at once.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type ReceiverCommand = { type: 'slow'; delayMs: number } | { type: 'fast' };
export type ReceiverMessage = { type: 'ready'; url: string } | { type: 'ack' };

let delayMs = 0;
const held = new Map<http.ServerResponse, NodeJS.Timeout>();

function answer(res: http.ServerResponse) {
  held.delete(res);
  if (!res.destroyed) res.writeHead(200, { 'Content-Type': 'text/plain' }).end('ok');
}

const server = http.createServer({ keepAliveTimeout: 60_000 }, (req, res) => {
  req.resume();
  req.on('end', () => {
    if (delayMs === 0) answer(res);
    else held.set(res, setTimeout(() => answer(res), delayMs));
  });
});

process.on('message', (command: ReceiverCommand) => {
  if (command.type === 'slow') delayMs = command.delayMs;
  if (command.type === 'fast') {
    delayMs = 0;
    for (const [res, timer] of held) {
      clearTimeout(timer);
      answer(res);
    }
  }
  process.send!({ type: 'ack' } satisfies ReceiverMessage);
});
// The bench is gone: never linger.
process.on('disconnect', () => process.exit(0));

server.listen(0, '127.0.0.1', () => {
  process.send!({ type: 'ready', url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook` } satisfies ReceiverMessage);
});
