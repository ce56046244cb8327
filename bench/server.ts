// The server side of `npm run bench`: a child process, so its RSS and event loop are its own.
// It opens a fresh database in a temp folder, seeds one org, listens on 127.0.0.1 and reports
// { url, org } to the parent over IPC; it answers { rss } when asked and exits when told to.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { loadConfig } from '../src/config';
import { openDatabase } from '../src/db/open';
import { createApp } from '../src/http/app';
import type { AfterCommitHooks, AppDeps } from '../src/deps';
import { systemClock } from '../src/lib/clock';
import { createLogger } from '../src/lib/log';
import { changeHooks } from '../src/main';
import { applySeed, parseSeedFile } from '../src/seed/service';
import { BENCH_SEED, type BenchMessage, type ServerMessage } from './protocol';

const dir = mkdtempSync(path.join(tmpdir(), 'wl-bench-'));
// However the process ends (stop, a failed start, the parent gone), the temp database goes.
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
// Limits far above what the bench sends: it measures the service, not the limiter's refusals.
const config = loadConfig({ DATA_DIR: dir, RATE_LIMIT_LIVE: '100000', RATE_LIMIT_TEST: '100000', RATE_LIMIT_ANONYMOUS: '100000', LOG_LEVEL: 'warn' });
const db = openDatabase(config.dbFile, { synchronous: config.dbSynchronous });
// No delivery or pass-update worker runs in the bench: there is nothing to wake after a commit.
const afterCommit: AfterCommitHooks = { eventsWritten() {}, passUpdatesQueued() {} };
const deps: AppDeps = { db, clock: systemClock, log: createLogger(config.logLevel), config, afterCommit, onChange: changeHooks() };
const seeded = applySeed(deps, parseSeedFile(BENCH_SEED)).orgs[0]!;

const server = createApp(deps).listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  send({ type: 'ready', url: `http://127.0.0.1:${port}`, org: seeded });
});

function send(message: ServerMessage) {
  process.send!(message);
}

function shutdown() {
  server.close();
  server.closeAllConnections();
  db.close();
  process.exit(0);
}

process.on('message', (message: BenchMessage) => {
  if (message.type === 'rss') send({ type: 'rss', rss: process.memoryUsage().rss });
  if (message.type === 'stop') shutdown();
});
// The parent is gone (finished, crashed or interrupted): never linger.
process.on('disconnect', shutdown);
