// The stack's floor, measured in the same run as the app so the report can speak in ratios:
//   read:  bare Koa answering a small JSON object to a GET;
//   write: Koa reading a JSON body with the app's own reader (src/http/body.ts: size limit, strict
//          UTF-8 decoding, JSON.parse, the __proto__ check — what koa-bodyparser did before) and
//          writing it in one better-sqlite3 transaction on a WAL database with the app's pragmas
//          (applyPragmas of src/db/open.ts).
// No router, no auth, no logging: anything the app does beyond this is its own cost.
// Usage (bundled by bench/processes.ts): node floor-server.mjs read|write <dataDir>
// Prints {"url": …} as its first stdout line.
import { mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import Database from 'better-sqlite3';
import Koa from 'koa';
import { applyPragmas } from '../src/db/open';
import { readJsonBody } from '../src/http/body';

const [mode, dataDir] = process.argv.slice(2);
if ((mode !== 'read' && mode !== 'write') || !dataDir) throw new Error('usage: floor-server read|write <dataDir>');

const app = new Koa();
if (mode === 'read') {
  app.use((ctx) => {
    ctx.body = { object: 'floor', ok: true, at: Date.now() };
  });
} else {
  mkdirSync(dataDir, { recursive: true });
  const db = new Database(path.join(dataDir, 'floor.db'));
  applyPragmas(db);
  db.exec('CREATE TABLE IF NOT EXISTS writes (id INTEGER PRIMARY KEY, body TEXT NOT NULL, at INTEGER NOT NULL)');
  const insert = db.prepare('INSERT INTO writes (body, at) VALUES (?, ?)');
  const write = db.transaction((body: string, at: number) => Number(insert.run(body, at).lastInsertRowid));
  app.use(async (ctx) => {
    const body = await readJsonBody(ctx);
    ctx.status = 201;
    ctx.body = { id: write(JSON.stringify(body), Date.now()) };
  });
}

const server = app.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` })}\n`);
});
process.on('SIGTERM', () => process.exit(0));
