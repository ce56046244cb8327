import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import http from 'node:http';
import net from 'node:net';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { latestVersion } from '../src/db/migrate';
import { cliEnv, freePort, ROOT, runCli, ServeProcess, tempDir } from './support/cli';

// The operator CLI, run as the real command in a child process (docs/operator.md#commands).

const EXAMPLE = path.join(ROOT, 'test', 'fixtures', 'seed-example.json');

function countRows(dbFile: string, table: string): number {
  const db = new Database(dbFile, { readonly: true, fileMustExist: true });
  try {
    return (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
  } finally {
    db.close();
  }
}

/** stderr is exactly one line (plus its newline). */
function oneLine(stderr: string): string {
  assert.match(stderr, /^[^\n]+\n$/, `expected one line on stderr, got ${JSON.stringify(stderr)}`);
  return stderr.trim();
}

// Child processes: a generous per-suite limit turns a hung process into a failure, not a stuck CI.
describe('wallet-loyalty CLI', () => {
  const dir = tempDir();
  const dbFile = path.join(dir, 'wallet-loyalty.db');
  let seeded: { orgs: { orgId: string; cards: { ref: string; cardId: string }[]; keys: { deviceName: string; mode: string; key: string }[] }[] };
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('npx wallet-loyalty --help prints the commands (the package.json bin)', async () => {
    const res = await runCli(['--help'], { npx: true });
    assert.equal(res.code, 0);
    for (const command of ['serve', 'seed <file.json>', 'key create', 'key list', 'key revoke', 'backup <file>']) assert.ok(res.stdout.includes(command), command);
  });

  // The other tests run the bundle of the sources (test/support/cli.ts); a developer may run them directly.
  it('runs from the sources through tsx as from the bundle: the same help', async () => {
    const [fromSources, fromBundle] = await Promise.all([runCli(['--help'], { source: true }), runCli(['--help'])]);
    assert.equal(fromSources.code, 0, fromSources.stderr);
    assert.match(fromSources.stdout, /^wallet-loyalty — self-hosted loyalty backend$/m);
    assert.equal(fromSources.stdout, fromBundle.stdout);
  });

  it('--help names every setting of the README’s and docs/operator.md’s settings tables, each of which the program reads', async () => {
    const settingsOf = (file: string, heading: string, minimum: number) => {
      const text = readFileSync(path.join(ROOT, file), 'utf8');
      const start = text.indexOf(heading);
      assert.ok(start >= 0, `${file} has ${heading.trim()}`);
      const table = text.slice(start, text.indexOf('\n## ', start + heading.length));
      const names = [...table.matchAll(/^\| `([A-Z_]+)`(?:, `[A-Z_]+`)* \|/gm)].flatMap((m) => [...m[0].matchAll(/`([A-Z_]+)`/g)].map((n) => n[1]!));
      assert.ok(names.length >= minimum, `found the table of ${file}: ${names.join(', ')}`);
      return names;
    };
    const readme = settingsOf('README.md', '\n### Settings\n', 10);
    const all = settingsOf(path.join('docs', 'operator.md'), '\n## Settings\n', 30);
    for (const name of readme) assert.ok(all.includes(name), `${name} of the README is in docs/operator.md too`);
    // Settings are read in src/config.ts, the wallet's in src/wallet/ (each family checked there).
    const sources = [path.join(ROOT, 'src', 'config.ts'), ...readdirSync(path.join(ROOT, 'src', 'wallet'), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts')).map((f) => path.join(ROOT, 'src', 'wallet', f))];
    const code = sources.map((file) => readFileSync(file, 'utf8')).join('\n');
    const help = (await runCli(['--help'])).stdout;
    for (const name of all) {
      assert.ok(new RegExp(`\\b${name}\\b`).test(code), `${name} is read by the program`);
      // The wallet settings are named by their families (APPLE_*, APNS_*, GOOGLE_*).
      const family = /^(APPLE|APNS|GOOGLE)_/.exec(name)?.[1];
      assert.ok(help.includes(family ? `${family}_*` : name), `${name} is named by --help`);
    }
  });

  it('seed accepts the documented example file and prints the documented output', async () => {
    const res = await runCli(['seed', EXAMPLE, '--data', dir]);
    assert.equal(res.code, 0, res.stderr);
    assert.equal(res.stderr, '');
    seeded = JSON.parse(res.stdout);
    assert.deepEqual(Object.keys(seeded), ['orgs']);
    const [org] = seeded.orgs;
    assert.deepEqual(Object.keys(org!), ['orgId', 'cards', 'keys']);
    assert.deepEqual(org!.cards.map((c) => [Object.keys(c), c.ref]), [[['ref', 'cardId'], 'coffee']]);
    assert.deepEqual(org!.keys.map((k) => [Object.keys(k).join(','), k.deviceName, k.mode]), [
      ['deviceName,mode,key', 'pos-1', 'test'],
      ['deviceName,mode,key', 'reader', 'live'],
      ['deviceName,mode,key', 'old-pos', 'live'],
    ]);
    assert.match(org!.keys[0]!.key, /^psk_test_/);
    assert.match(org!.keys[2]!.key, /^psk_[0-9a-f]{40}$/);
    assert.equal(countRows(dbFile, 'orgs'), 1);
  });

  const badSeeds: { name: string; file: () => string; field: RegExp }[] = [
    { name: 'a bad field', file: () => JSON.stringify({ orgs: [{ name: 'X', cards: [{ name: 'C', passType: 'coupon' }] }] }), field: /^wallet-loyalty: orgs\[0\]\.cards\[0\]\.passType: / },
    { name: 'an admin the database already has', file: () => readFileSync(EXAMPLE, 'utf8'), field: /^wallet-loyalty: orgs\[0\]\.admins\[0\]\.email: owner@example\.com is already/ },
    { name: 'malformed JSON', file: () => '{ "orgs": [', field: /^wallet-loyalty: cannot read .*seed\.json: / },
  ];
  for (const c of badSeeds) {
    it(`seed refuses ${c.name}: exit 1, one line naming it, nothing written`, async () => {
      const file = path.join(dir, 'seed.json');
      writeFileSync(file, c.file());
      const orgsBefore = countRows(dbFile, 'orgs');
      const res = await runCli(['seed', file, '--data', dir]);
      assert.equal(res.code, 1);
      assert.equal(res.stdout, '');
      assert.match(oneLine(res.stderr), c.field);
      assert.equal(countRows(dbFile, 'orgs'), orgsBefore);
    });
  }

  it('seed with a bad file creates no database in an empty data folder', async () => {
    const empty = tempDir();
    const file = path.join(empty, 'seed.json');
    writeFileSync(file, JSON.stringify({ orgs: [{ cards: [] }] }));
    const res = await runCli(['seed', file, '--data', path.join(empty, 'data')]);
    assert.equal(res.code, 1);
    assert.match(oneLine(res.stderr), /orgs\[0\]\.name: required/);
    assert.equal(existsSync(path.join(empty, 'data')), false);
    rmSync(empty, { recursive: true, force: true });
  });

  let kept: { id: string; key: string };
  let revoked: { id: string; key: string };
  let readOnly: { id: string; key: string };
  it('key create makes live, test and narrowed keys and shows each raw key once', async () => {
    const orgId = seeded.orgs[0]!.orgId;
    const create = async (...args: string[]) => {
      const res = await runCli(['key', 'create', '--org', orgId, '--data', dir, ...args]);
      assert.equal(res.code, 0, res.stderr);
      return JSON.parse(res.stdout);
    };
    kept = await create('--name', 'till 2');
    revoked = await create('--name', 'lost till', '--mode', 'test');
    readOnly = await create('--name', 'dashboard', '--scopes', 'cards:read');
    assert.match(kept.key, /^psk_live_/);
    assert.match(revoked.key, /^psk_test_/);
    assert.deepEqual((readOnly as unknown as { scopes: string[] }).scopes, ['cards:read']);
  });

  const badKeyCommands: { name: string; args: () => string[]; message: RegExp }[] = [
    { name: 'an unknown org', args: () => ['key', 'create', '--org', 'org_nope', '--name', 'x'], message: /no org org_nope/ },
    { name: 'no name', args: () => ['key', 'create', '--org', seeded.orgs[0]!.orgId], message: /--name/ },
    { name: 'an unknown scope', args: () => ['key', 'create', '--org', seeded.orgs[0]!.orgId, '--name', 'x', '--scopes', 'cards:read,all'], message: /unknown scope\(s\): all/ },
    { name: 'a bad mode', args: () => ['key', 'create', '--org', seeded.orgs[0]!.orgId, '--name', 'x', '--mode', 'sandbox'], message: /--mode/ },
    { name: 'an unknown key id', args: () => ['key', 'revoke', 'key_nope'], message: /KEY_NOT_FOUND/ },
    { name: 'an unknown action', args: () => ['key', 'rotate'], message: /create, list or revoke/ },
  ];
  for (const c of badKeyCommands) {
    it(`key refuses ${c.name} with one line`, async () => {
      const keysBefore = countRows(dbFile, 'api_keys');
      const res = await runCli([...c.args(), '--data', dir]);
      assert.equal(res.code, 1);
      assert.match(oneLine(res.stderr), c.message);
      assert.equal(countRows(dbFile, 'api_keys'), keysBefore);
    });
  }

  it('key revoke revokes once; key list shows hints, never raw keys', async () => {
    const res = await runCli(['key', 'revoke', revoked.id, '--data', dir]);
    assert.equal(res.code, 0, res.stderr);
    const again = await runCli(['key', 'revoke', revoked.id, '--data', dir]);
    assert.equal(again.code, 1);
    assert.match(oneLine(again.stderr), /KEY_ALREADY_REVOKED/);

    const list = await runCli(['key', 'list', '--org', seeded.orgs[0]!.orgId, '--data', dir]);
    assert.equal(list.code, 0, list.stderr);
    const keys = JSON.parse(list.stdout) as { id: string; deviceName: string; mode: string; hint: string; revokedAt: string | null }[];
    assert.deepEqual(keys.map((k) => k.deviceName), ['pos-1', 'reader', 'old-pos', 'till 2', 'lost till', 'dashboard']);
    assert.notEqual(keys.find((k) => k.id === revoked.id)!.revokedAt, null);
    assert.equal(keys.find((k) => k.id === kept.id)!.revokedAt, null);
    for (const raw of [kept.key, revoked.key, readOnly.key, ...seeded.orgs[0]!.keys.map((k) => k.key)]) assert.ok(!list.stdout.includes(raw), 'a raw key in the listing');
    assert.ok(keys.every((k) => k.hint.endsWith('…')));
  });

  it('serve uses the keys; backup copies the database while the server serves and writes; SIGTERM stops it cleanly', async () => {
    const port = await freePort();
    const server = new ServeProcess(['--data', dir, '--port', String(port)], { env: { RATE_LIMIT_LIVE: '100000', RATE_LIMIT_TEST: '100000' } });
    try {
      const base = await server.listening();
      assert.doesNotMatch(server.stdout, /First start/, 'an existing database gets no demo org');
      const get = (key: string) => fetch(`${base}/api/v1/cards`, { headers: { 'X-Api-Key': key } });
      const seededKeys = seeded.orgs[0]!.keys;
      assert.equal((await get(seededKeys[0]!.key)).status, 200, 'seeded test key');
      assert.equal((await get(seededKeys[1]!.key)).status, 403, 'seeded key narrowed to customers:read');
      assert.equal((await get(kept.key)).status, 200, 'key made by key create');
      assert.equal((await get(readOnly.key)).status, 200, 'key narrowed to cards:read reads …');
      const cardId = seeded.orgs[0]!.cards[0]!.cardId;
      const patch = (key: string, identifierQuestionKey: string | null) =>
        fetch(`${base}/api/v1/cards/${cardId}`, { method: 'PATCH', headers: { 'X-Api-Key': key, 'Content-Type': 'application/json' }, body: JSON.stringify({ identifierQuestionKey }) });
      assert.equal((await patch(readOnly.key, null)).status, 403, '… but may not write');
      const refused = await get(revoked.key);
      assert.equal(refused.status, 401, 'the revoked key is refused');
      assert.deepEqual(await refused.json(), { statusCode: 401, error: 'Unauthorized', message: 'INVALID_API_KEY' });

      // A writer keeps changing the card (with the legacy live key) while the backup runs.
      let writes = 0;
      let stopWriting = false;
      let writerDone = false;
      const writer = (async () => {
        try {
          for (let i = 0; !stopWriting && i < 100_000; i++) {
            const res = await patch(seededKeys[2]!.key, i % 2 === 0 ? 'memberNo' : null);
            assert.equal(res.status, 200);
            await res.arrayBuffer();
            writes++;
          }
        } finally {
          writerDone = true;
        }
      })();
      const writesReach = async (n: number) => {
        while (writes < n && !writerDone) await new Promise((resolve) => setImmediate(resolve));
      };
      await writesReach(20);
      const writesAtStart = writes;
      const target = path.join(dir, 'copy', 'backup.db');
      const backup = await runCli(['backup', target, '--data', dir]);
      const writesAtEnd = writes;
      await writesReach(writesAtEnd + 20);
      stopWriting = true;
      await writer;
      assert.ok(writes >= writesAtEnd + 20, 'the server went on writing after the backup');
      assert.equal(backup.code, 0, backup.stderr);
      assert.match(backup.stdout, /backed up .* to .*backup\.db/);
      assert.ok(writesAtEnd > writesAtStart, 'the server kept writing while the backup ran');

      const copy = new Database(target, { readonly: true, fileMustExist: true });
      try {
        assert.equal(copy.pragma('integrity_check', { simple: true }), 'ok');
        assert.equal(copy.pragma('user_version', { simple: true }), latestVersion());
        assert.deepEqual(copy.prepare('SELECT id, name FROM orgs').all(), [{ id: seeded.orgs[0]!.orgId, name: 'Demo Coffee' }]);
        const card = copy.prepare('SELECT questions FROM cards WHERE id = ?').get(cardId) as { questions: string };
        assert.equal(JSON.parse(card.questions).length, 2);
        assert.equal((copy.prepare('SELECT count(*) AS n FROM api_keys').get() as { n: number }).n, 6);
      } finally {
        copy.close();
      }

      const stopped = await server.stop('SIGTERM');
      assert.deepEqual(stopped, { code: 0, signal: null });
      assert.match(server.stdout, /SIGTERM: shutting down/);
    } finally {
      await server.stop('SIGKILL');
    }
  });

  // A mistyped --data must not leave a new, empty database behind.
  for (const args of [['backup', 'b.db'], ['key', 'list'], ['import', 'customers.csv', '--card', 'card_x'], ['customer', 'export', 'x', '--org', 'org_x'], ['admin', 'create', '--org', 'org_x', '--email', 'a@example.com']]) {
    it(`${args.slice(0, 2).join(' ')} refuses a data folder without a database, in one line, creating nothing`, async () => {
      const empty = tempDir();
      const res = await runCli([...args.map((a) => (a.endsWith('.db') || a.endsWith('.csv') ? path.join(empty, a) : a)), '--data', path.join(empty, 'none')]);
      assert.equal(res.code, 1);
      assert.match(oneLine(res.stderr), /no database at/);
      assert.deepEqual(readdirSync(empty), []);
      rmSync(empty, { recursive: true, force: true });
    });
  }

  it('backup writes a checked copy, and refuses a target it cannot write with one line', async () => {
    const target = tempDir();
    writeFileSync(path.join(target, 'a-file'), '');
    const refused = await runCli(['backup', path.join(target, 'a-file', 'b.db'), '--data', dir]);
    assert.equal(refused.code, 1);
    assert.match(oneLine(refused.stderr), /EEXIST|ENOTDIR/);
    const res = await runCli(['backup', path.join(target, 'b.db'), '--data', dir]);
    assert.equal(res.code, 0, res.stderr);
    assert.match(res.stdout, /integrity checked/);
    assert.deepEqual(readdirSync(target).sort(), ['a-file', 'b.db'], 'no partial file left');
    rmSync(target, { recursive: true, force: true });
  });
});

describe('wallet-loyalty serve on an empty data folder', () => {
  const dir = tempDir();
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('creates the demo org, prints its credentials and a curl that works, once; SIGTERM exits 0', async () => {
    const port = await freePort();
    const server = new ServeProcess(['--data', dir, '--port', String(port)]);
    try {
      const [, url, key] = await server.waitFor(/curl -s (\S+) -H 'X-Api-Key: (psk_test_\w+)'/);
      assert.equal(url, `http://localhost:${port}/api/v1/cards`);
      assert.match(server.stdout, /^ {2}org +org_\w+$/m);
      assert.match(server.stdout, /^ {2}test API key +psk_test_\w+$/m);
      const [, email, password] = /^ {2}admin login +(\S+@\S+) \/ (\S+)$/m.exec(server.stdout)!;
      const consoleUrl = /^Console: (\S+) /m.exec(server.stdout)![1]!;
      assert.equal(consoleUrl, `http://localhost:${port}/console`);
      // The printed login opens the printed console: the sign-in form's token, then the form.
      const signInPage = await fetch(`${consoleUrl}/sign-in`);
      const formCookie = signInPage.headers.getSetCookie()[0]!.split(';')[0]!;
      const csrf = /name="_csrf" value="([^"]+)"/.exec(await signInPage.text())![1]!;
      const signedIn = await fetch(`${consoleUrl}/sign-in`, {
        method: 'POST',
        redirect: 'manual',
        headers: { Cookie: formCookie, Origin: `http://localhost:${port}`, 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ _csrf: csrf, email: email!, password: password!, next: '/console' }).toString(),
      });
      assert.equal(signedIn.status, 303, 'the printed admin login signs in');
      assert.ok(signedIn.headers.getSetCookie().some((c) => c.startsWith('wl_console=')));

      // Run the printed request exactly as curl would.
      const res = await fetch(url!, { headers: { 'X-Api-Key': key! } });
      assert.equal(res.status, 200);
      const cards = (await res.json()) as { passType: string }[];
      assert.deepEqual(cards.map((c) => c.passType), ['stamp_card', 'point_card']);

      assert.deepEqual(await server.stop('SIGTERM'), { code: 0, signal: null });
    } finally {
      await server.stop('SIGKILL');
    }

    // Second start, as the bare command: serve is the default.
    const again = new ServeProcess(['--data', dir, '--port', String(await freePort())], { defaultCommand: true });
    try {
      await again.listening();
      assert.deepEqual(await again.stop('SIGTERM'), { code: 0, signal: null });
      assert.doesNotMatch(again.stdout, /First start|psk_test_|admin login/, 'credentials are printed only once');
    } finally {
      await again.stop('SIGKILL');
    }
  });

  const refusals: { name: string; args: string[]; env?: Record<string, string>; names: RegExp }[] = [
    { name: 'a bad setting in the environment', args: [], env: { RATE_LIMIT_LIVE: 'lots' }, names: /Invalid setting RATE_LIMIT_LIVE: / },
    { name: 'a bad flag value', args: ['--port', 'http'], names: /Invalid setting --port: / },
    { name: 'an unknown command', args: ['launch'], names: /unknown command "launch"/ },
  ];
  for (const c of refusals) {
    it(`refuses ${c.name} with one line and exit 1, writing nothing`, async () => {
      const empty = tempDir();
      const res = await runCli([...c.args, '--data', path.join(empty, 'data')], { env: c.env });
      assert.equal(res.code, 1);
      assert.match(oneLine(res.stderr), c.names);
      assert.equal(existsSync(path.join(empty, 'data')), false);
      rmSync(empty, { recursive: true, force: true });
    });
  }

  it('refuses a data folder it cannot use (a file) with one line naming the setting', async () => {
    const empty = tempDir();
    const file = path.join(empty, 'not-a-folder');
    writeFileSync(file, 'x');
    for (const args of [['serve', '--data', file], ['key', 'list', '--data', file]]) {
      const res = await runCli(args);
      assert.equal(res.code, 1, args.join(' '));
      assert.match(oneLine(res.stderr), /--data (\/|or) DATA_DIR/);
    }
    rmSync(empty, { recursive: true, force: true });
  });

  it('refuses a database newer than the program with one line, leaving it untouched', async () => {
    const empty = tempDir();
    const db = new Database(path.join(empty, 'wallet-loyalty.db'));
    db.pragma(`user_version = ${latestVersion() + 1}`);
    db.close();
    for (const args of [['serve'], ['key', 'list'], ['seed', EXAMPLE]]) {
      const res = await runCli([...args, '--data', empty, '--port', String(await freePort())]);
      assert.equal(res.code, 1, args.join(' '));
      assert.match(oneLine(res.stderr), /schema version \d+, newer than this wallet-loyalty knows \(\d+\); nothing was changed\. .*wallet-loyalty restore .*before-schema-/);
    }
    const after = new Database(path.join(empty, 'wallet-loyalty.db'), { readonly: true });
    assert.equal(after.pragma('user_version', { simple: true }), latestVersion() + 1);
    after.close();
    rmSync(empty, { recursive: true, force: true });
  });

  it('refuses a port in use with one line, and creates no demo org it could not show', async () => {
    const empty = tempDir();
    const holder = new ServeProcess(['--data', path.join(empty, 'first'), '--port', String(await freePort())]);
    try {
      const base = await holder.listening();
      const port = new URL(base).port;
      const res = await runCli(['serve', '--data', path.join(empty, 'second'), '--port', port]);
      assert.equal(res.code, 1);
      assert.match(oneLine(res.stderr), new RegExp(`cannot listen on 127\\.0\\.0\\.1:${port}: EADDRINUSE`));
      assert.equal(countRows(path.join(empty, 'second', 'wallet-loyalty.db'), 'orgs'), 0);
    } finally {
      await holder.stop('SIGKILL');
      rmSync(empty, { recursive: true, force: true });
    }
  });
});

describe('npm start', () => {
  const dir = tempDir();
  after(() => rmSync(dir, { recursive: true, force: true }));

  // A supervisor (docker stop, systemd with KillMode=process, a CI runner) signals the process it
  // started — here npm — and nothing else. The server must get that signal and stop cleanly.
  it('SIGTERM to the npm process stops the server cleanly and npm exits 0', async () => {
    const port = await freePort();
    // Its own process group, so whatever is left over can be cleaned up whatever happens.
    const child = spawn('npm', ['start'], { cwd: ROOT, env: cliEnv({ PORT: String(port), DATA_DIR: dir }), stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let stdout = '';
    child.stdout!.on('data', (d: Buffer) => (stdout += d));
    child.stderr!.on('data', () => {});
    // 'exit', not 'close': a server left behind would hold the pipes open for ever.
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
    try {
      while (!/listening on http:\/\//.test(stdout)) {
        if (child.exitCode !== null) assert.fail(`npm start ended early:\n${stdout}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const base = `http://127.0.0.1:${port}`;
      assert.equal((await fetch(`${base}/api/openapi.json`)).status, 200);

      child.kill('SIGTERM');
      assert.deepEqual(await exited, { code: 0, signal: null });
      assert.match(stdout, /SIGTERM: shutting down/);
      await assert.rejects(fetch(`${base}/api/openapi.json`, { signal: AbortSignal.timeout(2000) }), 'the server is gone, not orphaned');
      assert.deepEqual(readdirSync(dir).sort(), ['wallet-loyalty.db'], 'the database was closed (no -wal or -shm left)');
    } finally {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // the group is already gone
      }
    }
  });
});

describe('serve shutdown', () => {
  const dir = tempDir();
  after(() => rmSync(dir, { recursive: true, force: true }));

  // A client that stalls mid-upload must not hold the server up: a supervisor would SIGKILL it,
  // leaving the database unclosed and attempts unrecorded.
  it('a stalled upload does not hold the shutdown beyond a short grace period', async () => {
    const own = tempDir();
    const server = new ServeProcess(['--data', own, '--port', String(await freePort())]);
    try {
      const [, cardsUrl, key] = await server.waitFor(/curl -s (\S+) -H 'X-Api-Key: (psk_test_\w+)'/);
      const { port } = new URL(cardsUrl!);
      const stalled = net.connect(Number(port), '127.0.0.1');
      stalled.on('error', () => {});
      await new Promise<void>((resolve) => stalled.once('connect', () => resolve()));
      stalled.write(`POST /api/v1/customers HTTP/1.1\r\nHost: x\r\nX-Api-Key: ${key}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"a":`);
      // The request is in and its body never completes. A request on another connection answered
      // after it shows the server read what came before (an event, not a pause).
      assert.equal((await fetch(`http://127.0.0.1:${port}/healthz`)).status, 200);

      const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => server.child.once('exit', (code, signal) => resolve({ code, signal })));
      server.child.kill('SIGTERM');
      // Without the grace period's cut the server would wait for the body for minutes (Node's
      // requestTimeout): a guard far above the 5 s grace, so a loaded machine never trips it.
      const guard = setTimeout(() => server.child.kill('SIGKILL'), 120_000);
      const outcome = await exited.finally(() => clearTimeout(guard));
      assert.deepEqual(outcome, { code: 0, signal: null }, 'it stopped by itself, not by the guard');
      stalled.destroy();
      assert.deepEqual(readdirSync(own).filter((f) => f.startsWith('wallet-loyalty.db')), ['wallet-loyalty.db'], 'the database was closed');
    } finally {
      await server.stop('SIGKILL');
      rmSync(own, { recursive: true, force: true });
    }
  });

  // Ctrl-C under `npm start` reaches the server twice (from the terminal and forwarded by npm),
  // and an impatient operator presses it again: a second signal must not cut the shutdown short.
  it('waits for a webhook attempt in flight, and a second signal meanwhile does not kill it', async () => {
    const hanging = http.createServer(() => {}); // takes the delivery and never answers
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
    const received = new Promise<void>((resolve) => hanging.once('request', () => resolve()));
    const server = new ServeProcess(['--data', dir, '--port', String(await freePort())], { env: { WEBHOOK_TIMEOUT_MS: '3000' } });
    try {
      const [, cardsUrl, key] = await server.waitFor(/curl -s (\S+) -H 'X-Api-Key: (psk_test_\w+)'/);
      const base = cardsUrl!.replace('/api/v1/cards', '');
      const headers = { 'X-Api-Key': key!, 'Content-Type': 'application/json' };
      const hook = await fetch(`${base}/api/v1/webhooks`, { method: 'POST', headers, body: JSON.stringify({ url: `http://127.0.0.1:${(hanging.address() as { port: number }).port}/hook`, events: ['*'] }) });
      assert.equal(hook.status, 201);
      const cards = (await (await fetch(cardsUrl!, { headers })).json()) as { cardId: string }[];
      const enrolled = await fetch(`${base}/api/v1/customers`, { method: 'POST', headers, body: JSON.stringify({ externalCustomerId: 'c-1', cardId: cards[0]!.cardId }) });
      assert.equal(enrolled.status, 201);
      await received; // the attempt is in flight

      const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => server.child.once('exit', (code, signal) => resolve({ code, signal })));
      server.child.kill('SIGTERM');
      await server.waitFor(/SIGTERM: shutting down/);
      server.child.kill('SIGTERM');
      server.child.kill('SIGINT');
      assert.deepEqual(await exited, { code: 0, signal: null });
    } finally {
      await server.stop('SIGKILL');
      hanging.closeAllConnections();
      hanging.close();
    }
  });
});

describe('requests Node refuses before the app sees them', () => {
  const dir = tempDir();
  after(() => rmSync(dir, { recursive: true, force: true }));

  /** Writes raw bytes and reads until the server closes the connection. */
  function rawRequest(port: number, bytes: string): Promise<string> {
    return new Promise((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1', () => socket.end(bytes));
      let answer = '';
      socket.on('data', (d: Buffer) => (answer += d));
      socket.on('error', reject);
      socket.on('close', () => resolve(answer));
    });
  }

  // Every error body is { statusCode, error, message }, also for a request the
  // HTTP parser throws out: Node alone answers those with an empty body.
  it('oversized headers and a malformed request get the JSON error body', async () => {
    const port = await freePort();
    const server = new ServeProcess(['--data', dir, '--port', String(port)]);
    try {
      await server.listening();
      const cases = [
        { bytes: `GET /api/v1/cards HTTP/1.1\r\nHost: x\r\nX-Api-Key: ${'k'.repeat(20_000)}\r\n\r\n`, status: 431, code: 'REQUEST_HEADER_FIELDS_TOO_LARGE' },
        { bytes: 'GET /api/v1/cards HTTP/1.1\r\nHost: x\r\nNot a header\r\n\r\n', status: 400, code: 'BAD_REQUEST' },
      ];
      for (const c of cases) {
        const answer = await rawRequest(port, c.bytes);
        const [head, body] = answer.split('\r\n\r\n');
        assert.match(head!, new RegExp(`^HTTP/1\\.1 ${c.status} `), answer);
        assert.match(head!, /\r\ncontent-type: application\/json/i, answer);
        const parsed = JSON.parse(body!);
        assert.equal(parsed.statusCode, c.status);
        assert.equal(typeof parsed.error, 'string');
        assert.match(parsed.message, new RegExp(`^${c.code}`));
      }
    } finally {
      await server.stop('SIGKILL');
    }
  });
});
