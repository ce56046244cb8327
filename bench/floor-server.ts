// The stack's floor, measured in the same run as the server so the report can speak in ratios:
//   read:  bare Koa answering a small JSON object to a GET;
//   write: Koa reading a JSON body (a size limit, strict UTF-8, JSON.parse: what any body parser
//          does) and, in one better-sqlite3 transaction on a WAL database with synchronous=NORMAL
//          (the server's default), what a balance change is at least: one upsert of the customer's
//          balance and one insert of the body as a ledger row.
// No router, no auth, no validation, no logging: what the server does beyond this is its own cost.
// Self-contained on purpose: the floor must not move when the server's code does.
// Usage (bundled by bench/processes.ts): node floor-server.mjs read|write <dataDir>
// Prints {"url": …} as its first stdout line.
import { mkdirSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import Database from 'better-sqlite3';
import Koa from 'koa';

const [mode, dataDir] = process.argv.slice(2);
if ((mode !== 'read' && mode !== 'write') || !dataDir) throw new Error('usage: floor-server read|write <dataDir>');

const LIMIT = 64 * 1024;
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
    CREATE TABLE IF NOT EXISTS writes (id INTEGER PRIMARY KEY, body TEXT NOT NULL, at INTEGER NOT NULL)`);
  const upsert = db.prepare('INSERT INTO balances (customer, amount) VALUES (?, ?) ON CONFLICT (customer) DO UPDATE SET amount = amount + excluded.amount');
  const insert = db.prepare('INSERT INTO writes (body, at) VALUES (?, ?)');
  const write = db.transaction((body: { customer: string; amount: number }, at: number) => {
    upsert.run(String(body.customer), Number(body.amount));
    return Number(insert.run(JSON.stringify(body), at).lastInsertRowid);
  });
  app.use(async (ctx) => {
    const body = (await readJson(ctx.req)) as { customer: string; amount: number };
    ctx.status = 201;
    ctx.body = { id: write(body, Date.now()) };
  });
}

const server = app.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` })}\n`);
});
process.on('SIGTERM', () => process.exit(0));
