// `npm run bench:messages`: one message to --passes N installed passes (10,000), half on Apple
// Wallet (a registered device each) and half on Google Wallet (a saved object each), sent by the
// bundled server (`node dist/wallet-loyalty.mjs serve`, as an operator starts it) to a fake APNs
// (HTTP/2 over TLS, the offline certificate chain of the tests) and a fake Google Objects API in
// this process. Measures the time to queue (the API's 202, target ≤ 1 s), the drain (until no
// delivery row is pending) and its rate, and the server's peak RSS. Exits 1 when the answer takes
// longer than 1 s or a pass is not reached. Options: --passes <n>
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { loadConfig } from '../src/config';
import { enrollCustomer } from '../src/loyalty/enroll';
import { openDatabase } from '../src/db/open';
import { inTransaction } from '../src/db/transaction';
import type { AppDeps } from '../src/deps';
import { createLogger } from '../src/lib/log';
import { changeHooks } from '../src/main';
import { walletResourceId } from '../src/wallet/google/objects';
import { walletRepo } from '../src/wallet/repo';
import { buildApp, ROOT, seedWithCli, startApp } from './processes';
import { BENCH_SEED } from './scenarios';
import { createAppleTestChain, createServiceAccount, startFakeApns, startFakeGoogle } from '../test/support/wallet-fixtures';

const ANSWER_LIMIT_MS = 1000;
const ISSUER_ID = '3388000000022222222';
const { values } = parseArgs({ options: { passes: { type: 'string', default: '10000' } } });
const passes = Number(values.passes);
if (!Number.isInteger(passes) || passes < 2) {
  process.stderr.write('bench: --passes must be a whole number ≥ 2\n');
  process.exit(2);
}
const log = (message: string) => process.stderr.write(`${message}\n`);

/** Enrols the customers and gives each an installed pass, straight into the database before the server starts. */
function installPasses(dataDir: string, orgId: string, cardId: string, passTypeId: string): void {
  const config = loadConfig({ DATA_DIR: dataDir, BACKUP_HOUR: 'off' });
  const db = openDatabase(config.dbFile);
  const clock = { now: () => Date.now() };
  const deps: AppDeps = { db, clock, log: createLogger('warn'), config, afterCommit: { eventsWritten() {}, passUpdatesQueued() {}, mailQueued() {}, messagesQueued() {} }, onChange: changeHooks() };
  const wallet = walletRepo(db);
  const BATCH = 1000;
  for (let start = 0; start < passes; start += BATCH) {
    inTransaction(db, () => {
      for (let i = start; i < Math.min(passes, start + BATCH); i++) {
        const { passUserId } = enrollCustomer(deps, { orgId, livemode: true }, { cardId, externalCustomerId: `msg-${i}` }, { channel: 'api', idempotencyKey: null });
        const now = clock.now();
        if (i % 2 === 0) {
          wallet.insertRegistration({ deviceLibraryId: `device-${i}`, passTypeId, customerId: passUserId, pushToken: `push-${i}` }, now);
        } else {
          wallet.recordGoogleLink({ customerId: passUserId, objectId: walletResourceId(ISSUER_ID, passUserId), classId: walletResourceId(ISSUER_ID, cardId) }, now);
          wallet.applyGoogleEvent(passUserId, now, now + 3_600_000);
        }
      }
    });
  }
  // The server starts on a database whose WAL is folded in, as after any clean stop.
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
}

async function main(): Promise<void> {
  const dataDir = path.join(ROOT, '.tmp', 'bench', `messages-${Date.now().toString(36)}`);
  mkdirSync(dataDir, { recursive: true });
  const chain = createAppleTestChain();
  const apns = await startFakeApns(chain);
  const google = await startFakeGoogle();
  const account = createServiceAccount(google.tokenUri);
  const accountFile = path.join(dataDir, 'service-account.json');
  writeFileSync(accountFile, JSON.stringify(account.json));
  let stop: (() => Promise<void>) | undefined;
  try {
    log('building the bundle…');
    const bundle = await buildApp();
    const org = await seedWithCli(bundle, dataDir, BENCH_SEED);
    const key = org.keys.find((k) => k.deviceName === 'bench live')!.key;
    const cardId = org.cards.find((c) => c.ref === 'stamps')!.cardId;
    log(`installing ${passes.toLocaleString('en')} passes…`);
    installPasses(dataDir, org.orgId, cardId, chain.passTypeId);

    const server = await startApp(bundle, dataDir, { path: '/api/v1/cards', headers: { 'X-Api-Key': key } }, undefined, {
      ...chain.settings(),
      APNS_URL: apns.url,
      // The fake APNs's certificate comes from the tests' own root.
      NODE_EXTRA_CA_CERTS: chain.rootCertPath,
      GOOGLE_ISSUER_ID: ISSUER_ID,
      GOOGLE_SERVICE_ACCOUNT_FILE: accountFile,
      GOOGLE_WALLET_API_URL: `${google.baseUrl}/walletobjects/v1`,
      GOOGLE_ROOT_KEYS_URL: google.rootKeysUrl,
    });
    stop = () => server.stop();
    const db = new Database(server.dbFile, { readonly: true, fileMustExist: true });
    const pending = db.prepare<[], { n: number }>("SELECT count(*) AS n FROM message_deliveries WHERE status = 'pending'");
    const outcomes = db.prepare<[], { status: string; n: number }>('SELECT status, count(*) AS n FROM message_deliveries GROUP BY status');
    const rssBefore = server.memory().rss;

    log('sending the message…');
    let peakRss = rssBefore;
    const sampler = setInterval(() => (peakRss = Math.max(peakRss, server.memory().rss)), 50);
    const sent = performance.now();
    const res = await fetch(`${server.url}/api/v1/cards/${cardId}/messages`, {
      method: 'POST',
      headers: { 'X-Api-Key': key, 'Content-Type': 'application/json' },
      body: JSON.stringify({ header: 'Pumpkin pie is back', body: 'Until Sunday: a slice with every large coffee.', audience: 'all' }),
    });
    const answered = performance.now();
    const rssAnswered = Math.max(peakRss, server.memory().rss);
    const accepted = (await res.json()) as { messageId: string; recipients: number };
    if (res.status !== 202) throw new Error(`the message was answered ${res.status}: ${JSON.stringify(accepted)}`);

    const deadline = answered + 10 * 60_000;
    while (pending.get()!.n > 0) {
      if (performance.now() > deadline) throw new Error(`${pending.get()!.n} deliveries still pending after 10 minutes; see ${server.logFile}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const drained = performance.now();
    clearInterval(sampler);
    const counts = Object.fromEntries(outcomes.all().map((r) => [r.status, r.n]));
    const memory = server.memory();
    db.close();
    await server.stop();
    stop = undefined;

    const queueMs = answered - sent;
    const drainS = (drained - answered) / 1000;
    const pushes = apns.requests.length;
    const googleMessages = google.messageRequests().length;
    const reachedAll = accepted.recipients === passes && (counts.delivered ?? 0) === passes && pushes === passes / 2 + (passes % 2) && googleMessages === Math.floor(passes / 2);
    console.log(`\nOne message to ${passes.toLocaleString('en')} installed passes (half Apple, half Google; fake APNs and Google on this machine); load average ${loadavg().map((l) => l.toFixed(1)).join(', ')} on ${cpus().length} cores`);
    console.log('| measure | value |');
    console.log('|---|---|');
    console.log(`| time to queue (the API's 202) | ${queueMs.toFixed(0)} ms |`);
    console.log(`| recipients | ${accepted.recipients.toLocaleString('en')} |`);
    console.log(`| drain (202 → no row pending) | ${drainS.toFixed(1)} s |`);
    console.log(`| drain rate | ${Math.round(passes / drainS).toLocaleString('en')} passes/s |`);
    console.log(`| outcomes | ${Object.entries(counts).map(([s, n]) => `${s} ${n}`).join(', ')} |`);
    console.log(`| APNs pushes / Google addMessage calls | ${pushes.toLocaleString('en')} / ${googleMessages.toLocaleString('en')} |`);
    console.log(`| server RSS before / by the answer / peak while draining (sampled) / peak of its life (VmHWM) | ${rssBefore.toFixed(0)} / ${rssAnswered.toFixed(0)} / ${peakRss.toFixed(0)} / ${memory.peak.toFixed(0)} MB |`);
    const pass = queueMs <= ANSWER_LIMIT_MS && reachedAll;
    console.log(`\n| target | measured | |\n|---|---|---|\n| answer ≤ ${ANSWER_LIMIT_MS} ms, every pass reached | ${queueMs.toFixed(0)} ms, ${reachedAll ? 'all reached' : 'NOT all reached'} | ${pass ? 'PASS' : 'FAIL'} |`);
    if (!pass) process.exitCode = 1;
  } finally {
    await stop?.();
    await apns.close();
    await google.close();
    chain.cleanup();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
