import type { Server } from 'node:http';
import type { Config } from './config';
import { openDatabase, type Db } from './db/open';
import { createApp } from './http/app';
import type { AppDeps, AfterCommitHooks } from './http/deps';
import { runJob, startJobs } from './jobs/jobs';
import { serverJobs } from './jobs/list';
import { systemClock, type Clock } from './lib/clock';
import { createLogger, type Logger } from './lib/log';
import { createDemoOrgIfEmpty, type DemoCredentials } from './seed/demo';
import { createDeliveryWorker } from './webhooks/worker';

export interface RunningServer {
  url: string;
  db: Db;
  demo: DemoCredentials | null;
  stop(): Promise<void>;
}

/** Composition root: config → db → app → background work. Returns once the server listens. */
export async function startServer(config: Readonly<Config>, options: { clock?: Clock; log?: Logger } = {}): Promise<RunningServer> {
  const log = options.log ?? createLogger(config.logLevel);
  const clock = options.clock ?? systemClock;
  const db = openDatabase(config.dbFile, { synchronous: config.dbSynchronous });
  const webhooks = createDeliveryWorker({ db, clock, log, config });
  // A committed change reaches a healthy receiver at once; the sweep job is the safety net.
  const afterCommit: AfterCommitHooks = { eventsWritten: () => webhooks.wake() };
  const deps: AppDeps = { db, clock, log, config, afterCommit };

  // Listen first: if the port is taken, nothing is written — in particular no demo org whose
  // credentials would never be shown (they are printed once, after a successful start).
  const app = createApp(deps);
  let server: Server;
  try {
    server = await new Promise((resolve, reject) => {
      const s = app.listen(config.port, config.host, () => resolve(s));
      s.once('error', reject);
    });
  } catch (err) {
    db.close();
    throw err;
  }

  const demo = createDemoOrgIfEmpty(deps);
  const jobs = serverJobs(deps, { webhooks });
  // Catch up on whatever was due while the server was down, then keep to the schedule.
  for (const job of jobs) await runJob(job, log);
  const scheduler = startJobs(jobs, log);
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;

  let stopping: Promise<void> | null = null;
  return {
    url,
    db,
    demo,
    stop() {
      stopping ??= (async () => {
        await scheduler.stop();
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeIdleConnections();
        });
        // After the last request: attempts in flight finish (bounded) and are recorded before the database closes.
        await webhooks.stop();
        db.close();
      })();
      return stopping;
    },
  };
}
