// The server of `npm run bench:import`, from the sources, with its event loop watched from inside:
// perf_hooks' delay histogram, and a 5 ms interval whose late firings are the loop's holds. The
// bench asks for the figures over IPC ('reset', then 'stats').
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { loadConfig } from '../src/config';
import { startServer } from '../src/main';

const histogram = monitorEventLoopDelay({ resolution: 5 });
histogram.enable();
let longestHold = 0;
let last = performance.now();
setInterval(() => {
  const now = performance.now();
  longestHold = Math.max(longestHold, now - last - 5);
  last = now;
}, 5);

const server = await startServer(loadConfig(process.env));
process.send!({ type: 'ready', url: server.url });
// Gone with the bench: a bench that died must not leave its server behind.
process.on('disconnect', () => process.exit(1));
process.on('message', (message: { type: string }) => {
  if (message.type === 'reset') {
    histogram.reset();
    longestHold = 0;
  } else if (message.type === 'stats') {
    process.send!({ type: 'stats', maxDelayMs: histogram.max / 1e6, p99DelayMs: histogram.percentile(99) / 1e6, longestHoldMs: longestHold });
  } else if (message.type === 'stop') {
    void server.stop().then(() => process.exit(0));
  }
});
