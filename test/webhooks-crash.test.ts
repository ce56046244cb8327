import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { cliArgv } from './support/cli';
import { eventually, startReceiver, verifySignature, type Receiver } from './support/receiver';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

// Short settings so recovery is quick: an expired lease (timeout + 2 s) is the longest wait.
const ENV = { ...process.env, LOG_LEVEL: 'error', WEBHOOK_TIMEOUT_MS: '1000', WEBHOOK_RETRY_DELAYS_MS: '100,100', RATE_LIMIT_TEST: '1000' };

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

interface Served {
  child: ChildProcess;
  url: string;
  output(): string;
}

/** The real command, as an operator runs it; resolves once `ready` shows in its output. */
async function serve(dataDir: string, ready: RegExp): Promise<Served> {
  const port = await freePort();
  const child = spawn(process.execPath, cliArgv(['serve', '--data', dataDir, '--port', String(port)]), { cwd: ROOT, env: ENV, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  try {
    await eventually(() => ready.test(output) || child.exitCode !== null, 'the server to listen');
  } catch (err) {
    // A server that never became ready must not outlive the test and keep its process running.
    child.kill('SIGKILL');
    throw err;
  }
  if (child.exitCode !== null) throw new Error(`the server exited: ${output}`);
  return { child, url: `http://127.0.0.1:${port}`, output: () => output };
}

const exited = (child: ChildProcess) => new Promise<number | null>((resolve) => (child.exitCode !== null ? resolve(child.exitCode) : child.once('exit', (code) => resolve(code))));

async function produce(dbFile: string, orgId: string, cardId: string, count: number): Promise<string[]> {
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'test/support/produce-events.ts', dbFile, orgId, cardId, String(count)], { cwd: ROOT, env: ENV });
  return JSON.parse(stdout) as string[];
}

describe('webhook delivery survives kill -9', () => {
  let dataDir: string;
  let receiver: Receiver;
  const children: ChildProcess[] = [];
  before(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'wl-crash-'));
    receiver = await startReceiver();
  });
  after(async () => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await receiver.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('delivers every event at least once, with its attempts recorded, after a SIGKILL mid-stream and a restart', async () => {
    // On an empty folder the server prints the demo org's ids and test key once (after it listens).
    const first = await serve(dataDir, /admin login/);
    children.push(first.child);
    const key = /test API key\s+(psk_test_\S+)/.exec(first.output())![1]!;
    const orgId = /org\s+(org_\S+)/.exec(first.output())![1]!;
    const cardId = /card\s+(card_\S+)/.exec(first.output())![1]!;
    const dbFile = path.join(dataDir, 'wallet-loyalty.db');

    const created = await fetch(`${first.url}/api/v1/webhooks`, { method: 'POST', headers: { 'X-Api-Key': key, 'Content-Type': 'application/json' }, body: JSON.stringify({ url: receiver.url, events: ['*'] }) });
    assert.equal(created.status, 201);
    const endpoint = (await created.json()) as { id: string; secret: string };

    // A slow receiver keeps attempts in flight; the kill lands while some are sent, some leased, some waiting.
    receiver.answer(() => ({ status: 200, delayMs: 150 }));
    const before = await produce(dbFile, orgId, cardId, 40);
    await receiver.waitFor(8);
    first.child.kill('SIGKILL');
    await exited(first.child);
    assert.ok(receiver.requests.length < before.length, 'the server died before it had sent everything');

    // Events written while the server is down wait in the database too.
    const whileDown = await produce(dbFile, orgId, cardId, 10);
    const all = [...before, ...whileDown];

    const second = await serve(dataDir, /listening on/);
    children.push(second.child);
    const deliveries = async () => {
      const res = await fetch(`${second.url}/api/v1/webhooks/${endpoint.id}/deliveries?limit=100`, { headers: { 'X-Api-Key': key } });
      return (await res.json()) as { eventId: string; status: string; attempts: { status: string; responseCode: number | null }[] }[];
    };
    await eventually(async () => (await deliveries()).filter((d) => d.status === 'succeeded').length === all.length, 'every delivery to succeed');

    const list = await deliveries();
    assert.deepEqual(list.map((d) => d.eventId).sort(), [...all].sort(), 'one delivery per event');
    for (const d of list) assert.ok(d.attempts.some((a) => a.status === 'succeeded' && a.responseCode === 200), `${d.eventId} has its successful attempt recorded`);
    const received = new Set(receiver.eventIds());
    for (const id of all) assert.ok(received.has(id), `${id} reached the receiver`);
    const now = Math.floor(Date.now() / 1000);
    for (const r of receiver.requests) assert.ok(verifySignature(endpoint.secret, String(r.headers['x-loyalty-signature']), r.body, now));

    // The SIGTERM path: a clean exit once the worker has nothing in flight.
    second.child.kill('SIGTERM');
    assert.equal(await exited(second.child), 0);
  });
});
