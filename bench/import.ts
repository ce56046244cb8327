// `npm run bench:import`: a 50,000-row customer file imported through the console while the API
// keeps answering. Seeds a temp folder, starts the server (bench/import-server.ts, which watches its
// own event loop), signs in as the owner, uploads the file, runs the dry run, starts the import and,
// until it is done, sends a steady API load (a customer read and a stamp award, alternately).
// Prints the import's time, the longest event-loop hold while it ran, and the API's latencies during
// the import beside the same load without one. Options: --rows <n> (default 50,000) --rate <req/s> (40)
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/config';
import { openDatabase } from '../src/db/open';
import { applySeed, hashSeedPasswords, parseSeedFile } from '../src/seed/service';
import { percentile } from './report';

const ADMIN = { email: 'owner@bench.example', password: 'bench import passphrase' };
const SEED = {
  orgs: [{ name: 'Bench Coffee', admins: [ADMIN], cards: [{ ref: 'stamps', name: 'Coffee stamps', passType: 'stamp_card', reward: { name: 'Free coffee', cost: 10 } }], keys: [{ deviceName: 'bench', mode: 'live' }] }],
};

function customerFile(rows: number): string {
  const lines = ['First name;Last name;Email;Mobile;Stamps'];
  for (let i = 0; i < rows; i++) lines.push(`Guest${i};Müller-${i % 997};guest${i}@bench.example;+49 151 ${String(10_000_000 + i)};${i % 10}`);
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}

class Session {
  private cookies = new Map<string, string>();
  constructor(readonly url: string) {}
  async fetch(pathname: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    headers.set('Cookie', [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '));
    if (init.method && init.method !== 'GET') headers.set('Origin', this.url);
    const res = await fetch(this.url + pathname, { ...init, headers, redirect: 'manual' });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      this.cookies.set(pair!.slice(0, eq), pair!.slice(eq + 1));
    }
    return res;
  }
  async csrf(pathname: string): Promise<string> {
    return /name="_csrf" value="([^"]+)"/.exec(await (await this.fetch(pathname)).text())![1]!;
  }
  async post(pathname: string, form: Record<string, string>): Promise<Response> {
    return this.fetch(pathname, { method: 'POST', body: new URLSearchParams(form), headers: { 'Content-Type': 'application/x-www-form-urlencoded' } });
  }
}

/** A steady API load until `until()` turns true: request i leaves at start + i/rate. */
async function apiLoad(url: string, key: string, refs: string[], rate: number, until: () => boolean): Promise<number[]> {
  const latencies: number[] = [];
  const failures: string[] = [];
  const inFlight: Promise<void>[] = [];
  const started = performance.now();
  for (let i = 0; !until(); i++) {
    const wait = started + (i * 1000) / rate - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const ref = refs[i % refs.length]!;
    const sent = performance.now();
    const request =
      i % 2 === 0
        ? fetch(`${url}/api/v1/customers/${ref}`, { headers: { 'X-Api-Key': key } })
        : fetch(`${url}/api/v1/customers/${ref}/earn`, { method: 'POST', headers: { 'X-Api-Key': key, 'Content-Type': 'application/json' }, body: JSON.stringify({ type: 'stamps', amount: 1 }) });
    inFlight.push(
      request.then(
        async (res) => {
          await res.arrayBuffer();
          if (res.status === 200 || res.status === 201) latencies.push(performance.now() - sent);
          else failures.push(`status ${res.status}`);
        },
        (err: Error) => void failures.push(err.message),
      ),
    );
  }
  await Promise.all(inFlight);
  if (failures.length) throw new Error(`${failures.length} API requests failed, the first: ${failures[0]}`);
  return latencies;
}

const summary = (latencies: number[]) => `p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms, max ${Math.max(...latencies).toFixed(1)} ms (${latencies.length} requests)`;

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { rows: { type: 'string' }, rate: { type: 'string' } } });
  const rows = Number(values.rows ?? 50_000);
  const rate = Number(values.rate ?? 40);
  const dir = mkdtempSync(path.join(tmpdir(), 'wl-bench-import-'));
  const env = { ...process.env, DATA_DIR: dir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', RATE_LIMIT_LIVE: '100000', BACKUP_HOUR: 'off' };
  const config = loadConfig(env);
  const db = openDatabase(config.dbFile);
  const parsed = parseSeedFile(SEED);
  const org = applySeed({ db, clock: { now: () => Date.now() } }, parsed, await hashSeedPasswords(parsed)).orgs[0]!;
  db.close();
  const cardId = org.cards[0]!.cardId;
  const key = org.keys[0]!.key;

  const child = fork(fileURLToPath(new URL('./import-server.ts', import.meta.url)), { env, execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const message = <T>(type: string) => new Promise<T>((resolve) => child.on('message', function on(m: { type: string }) {
    if (m.type === type) {
      child.off('message', on);
      resolve(m as T);
    }
  }));
  const { url } = await message<{ url: string }>('ready');
  try {
    // Customers for the API load to read and award.
    const refs: string[] = [];
    for (let i = 0; i < 200; i++) {
      const res = await fetch(`${url}/api/v1/customers`, { method: 'POST', headers: { 'X-Api-Key': key, 'Content-Type': 'application/json' }, body: JSON.stringify({ externalCustomerId: `load-${i}`, cardId }) });
      if (res.status !== 201) throw new Error(`enroll answered ${res.status}`);
      refs.push(`load-${i}`);
    }
    let stop = false;
    const quiet = apiLoad(url, key, refs, rate, () => stop);
    await new Promise((resolve) => setTimeout(resolve, 10_000));
    stop = true;
    const baseline = await quiet;

    const owner = new Session(url);
    const signInCsrf = await owner.csrf('/console/sign-in');
    const signIn = await owner.post('/console/sign-in', { _csrf: signInCsrf, email: ADMIN.email, password: ADMIN.password, next: '/console' });
    if (signIn.status !== 303) throw new Error(`sign-in answered ${signIn.status}`);
    const csrf = await owner.csrf('/console/customers/import');
    const text = customerFile(rows);
    const form = new FormData();
    form.set('card', cardId);
    form.set('file', new Blob([text]), 'customers.csv');
    const uploadStarted = performance.now();
    const upload = await owner.fetch(`/console/customers/import?_csrf=${encodeURIComponent(csrf)}`, { method: 'POST', body: form });
    if (upload.status !== 303) throw new Error(`upload answered ${upload.status}: ${await upload.text()}`);
    const job = upload.headers.get('location')!;
    const uploadMs = performance.now() - uploadStarted;
    const mapping = { _csrf: csrf, 'map.0': 'firstName', 'map.1': 'lastName', 'map.2': 'email', 'map.3': 'phone', 'map.4': 'balance' };

    child.send({ type: 'reset' });
    stop = false;
    const duringCheck = apiLoad(url, key, refs, rate, () => stop);
    const checkStarted = performance.now();
    const check = await owner.post(`${job}/check`, mapping);
    const checkText = await check.text();
    const checkMs = performance.now() - checkStarted;
    stop = true;
    const checkLatencies = await duringCheck;
    child.send({ type: 'stats' });
    const checkLoop = await message<{ maxDelayMs: number; longestHoldMs: number }>('stats');
    if (!checkText.includes(`Import ${rows.toLocaleString('en-GB')} customers`)) throw new Error('the dry run did not offer to import every row');

    child.send({ type: 'reset' });
    stop = false;
    const duringImport = apiLoad(url, key, refs, rate, () => stop);
    const importStarted = performance.now();
    const start = await owner.post(`${job}/start`, { _csrf: csrf });
    if (start.status !== 303) throw new Error(`start answered ${start.status}`);
    let progress = '';
    while (!progress.includes('Import finished')) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      progress = await (await owner.fetch(`${job}/progress`, { headers: { 'HX-Request': 'true' } })).text();
    }
    const importMs = performance.now() - importStarted;
    stop = true;
    const importLatencies = await duringImport;
    child.send({ type: 'stats' });
    const importLoop = await message<{ maxDelayMs: number; longestHoldMs: number; p99DelayMs: number }>('stats');
    const created = /id="figure-created"><dt>[^<]*<\/dt><dd class="stat">([\d,]+)</.exec(progress)?.[1];

    console.log(`\nImport of ${rows.toLocaleString('en')} rows (${(text.length / 1e6).toFixed(1)} MB), ${created} customers created`);
    console.log(`| step | time | longest event-loop hold | API during it (${rate} req/s, read + award) |`);
    console.log('|---|---|---|---|');
    console.log(`| no import (baseline) | 10 s | – | ${summary(baseline)} |`);
    console.log(`| upload (parse, store the draft) | ${(uploadMs / 1000).toFixed(1)} s | – | – |`);
    console.log(`| dry run | ${(checkMs / 1000).toFixed(1)} s | ${checkLoop.longestHoldMs.toFixed(0)} ms (histogram max ${checkLoop.maxDelayMs.toFixed(0)} ms) | ${summary(checkLatencies)} |`);
    console.log(`| import | ${(importMs / 1000).toFixed(1)} s | ${importLoop.longestHoldMs.toFixed(0)} ms (histogram max ${importLoop.maxDelayMs.toFixed(0)} ms, p99 ${importLoop.p99DelayMs.toFixed(0)} ms) | ${summary(importLatencies)} |`);
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    if (child.connected) child.send({ type: 'stop' });
    const kill = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(kill);
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
