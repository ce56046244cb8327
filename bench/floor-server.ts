// The stack's floor, measured in the same run as the server so the report can speak in ratios:
//   read:  bare Koa answering a small JSON object to a GET;
//   write: Koa reading a JSON body (a size limit, strict UTF-8, JSON.parse: what any body parser
//          does) and, in one better-sqlite3 transaction on a WAL database with synchronous=NORMAL
//          (the server's default), what a balance change is at least: one upsert of the customer's
//          balance and one insert of the body as a ledger row.
//   delivery: the write, plus what delivering each write to a webhook receiver costs at least, at
//          least once: an outbox row in the same transaction, after the commit one POST of the
//          event over a kept-alive node:http connection (IN_FLIGHT at once, the rest waiting in
//          order), and the row marked delivered in a transaction of its own. A reference for the earn with a
//          webhook endpoint, not a target: no signature, no retries, no attempt history.
// No router, no auth, no validation, no logging: what the server does beyond this is its own cost.
// Self-contained on purpose: the floor must not move when the server's code does.
// Usage (bundled by bench/processes.ts): node floor-server.mjs read|write <dataDir>
//                                         node floor-server.mjs delivery <dataDir> <receiverUrl>
// Prints {"url": …} as its first stdout line.
import { mkdirSync } from 'node:fs';
import http, { type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import Database from 'better-sqlite3';
import Koa from 'koa';

const [mode, dataDir, receiverUrl] = process.argv.slice(2);
if (!(mode === 'read' || mode === 'write' || (mode === 'delivery' && receiverUrl)) || !dataDir) throw new Error('usage: floor-server read|write <dataDir> | delivery <dataDir> <receiverUrl>');

const LIMIT = 64 * 1024;
/**
 * Deliveries at once in the delivery floor: as many as the load has connections, so they keep pace
 * with the writes. One that fell behind would leave its cost outside the measured run.
 */
const IN_FLIGHT = 50;
const utf8 = new TextDecoder('utf-8', { fatal: true });

function readJson(req: IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > LIMIT) reject(new Error('too large'));
      else chunks.push(chunk);
    });
    req.once('error', reject);
    req.once('end', () => {
      try {
        resolve(JSON.parse(utf8.decode(Buffer.concat(chunks, size))));
      } catch (err) {
        reject(err);
      }
    });
  });
}

const app = new Koa();
if (mode === 'read') {
  app.use((ctx) => {
    ctx.body = { object: 'floor', ok: true, at: Date.now() };
  });
} else {
  mkdirSync(dataDir, { recursive: true });
  const db = new Database(path.join(dataDir, 'floor.db'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec(`CREATE TABLE IF NOT EXISTS balances (customer TEXT PRIMARY KEY, amount REAL NOT NULL) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS writes (id INTEGER PRIMARY KEY, body TEXT NOT NULL, at INTEGER NOT NULL);
    CREATE TABLE IF NOT EXISTS deliveries (id INTEGER PRIMARY KEY, payload TEXT NOT NULL, status INTEGER)`);
  // The write floor never touches the deliveries table: its pages and frames are those of the write alone.
  const upsert = db.prepare('INSERT INTO balances (customer, amount) VALUES (?, ?) ON CONFLICT (customer) DO UPDATE SET amount = amount + excluded.amount');
  const insert = db.prepare('INSERT INTO writes (body, at) VALUES (?, ?)');
  const addDelivery = db.prepare('INSERT INTO deliveries (payload) VALUES (?)');
  const markDelivered = db.prepare('UPDATE deliveries SET status = ? WHERE id = ?');
  const write = db.transaction((body: { customer: string; amount: number }, at: number) => {
    upsert.run(String(body.customer), Number(body.amount));
    const id = Number(insert.run(JSON.stringify(body), at).lastInsertRowid);
    if (mode !== 'delivery') return { id, delivery: null };
    const payload = JSON.stringify({ id: `evt_${id}`, type: 'balance.updated', data: body });
    return { id, delivery: { id: Number(addDelivery.run(payload).lastInsertRowid), payload } };
  });
  const deliver = receiverUrl ? deliverer(new URL(receiverUrl), db.transaction((status: number, id: number) => markDelivered.run(status, id))) : null;
  app.use(async (ctx) => {
    const body = (await readJson(ctx.req)) as { customer: string; amount: number };
    const { id, delivery } = write(body, Date.now());
    if (delivery) deliver!(delivery);
    ctx.status = 201;
    ctx.body = { id };
  });
}

/** Posts each delivery to the receiver, IN_FLIGHT at once over kept-alive connections, and records its answer. */
function deliverer(url: URL, record: (status: number, id: number) => void) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: IN_FLIGHT });
  const waiting: { id: number; payload: string }[] = [];
  let inFlight = 0;
  const next = () => {
    const delivery = waiting.shift();
    if (!delivery) return;
    inFlight++;
    const done = (status: number) => {
      record(status, delivery.id);
      inFlight--;
      next();
    };
    const req = http.request(url, { method: 'POST', agent, headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(delivery.payload) } }, (res) => {
      res.resume();
      res.once('end', () => done(res.statusCode!));
    });
    req.once('error', () => done(0));
    req.end(delivery.payload);
  };
  return (delivery: { id: number; payload: string }) => {
    waiting.push(delivery);
    if (inFlight < IN_FLIGHT) next();
  };
}

const server = app.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` })}\n`);
});
process.on('SIGTERM', () => process.exit(0));
