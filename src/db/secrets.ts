import { randomBytes } from 'node:crypto';
import type { Db } from './connection';
import { perConnection } from './per-connection';

// Secrets the server makes for itself on first use and keeps with its data (the staff PIN pepper).
// INSERT OR IGNORE then SELECT: two processes racing on first use agree on the one that won.
const secretsRepo = perConnection((db: Db) => {
  const insert = db.prepare('INSERT OR IGNORE INTO server_secrets (name, value, created_at) VALUES (@name, @value, @now)');
  const read = db.prepare<[string], { value: string }>('SELECT value FROM server_secrets WHERE name = ?');
  return {
    getOrCreate(name: string, now: number): Buffer {
      insert.run({ name, value: randomBytes(32).toString('base64'), now });
      return Buffer.from(read.get(name)!.value, 'base64');
    },
  };
});

const cache = new WeakMap<Db, Map<string, Buffer>>();

/** The named 32-byte secret of this database, created the first time it is asked for. */
export function serverSecret(db: Db, name: string, now: number): Buffer {
  let known = cache.get(db);
  if (!known) cache.set(db, (known = new Map()));
  let secret = known.get(name);
  if (!secret) known.set(name, (secret = secretsRepo(db).getOrCreate(name, now)));
  return secret;
}
