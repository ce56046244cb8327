import { parseArgs } from 'node:util';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { ConfigError, loadConfig, type Config } from './config';
import { SchemaVersionError } from './db/migrate';
import { applyPragmas, DatabaseOpenError, openDatabase } from './db/open';
import { createApiKey } from './keys/service';
import { listApiKeys, revokeApiKey } from './keys/admin';
import { isScope, type Scope } from './keys/scopes';
import { systemClock } from './lib/clock';
import { changeHooks, startServer } from './main';
import { importCommand, ImportCommandError } from './import/cli';
import { createLogger } from './lib/log';
import { orgsRepo } from './orgs/repo';
import { customerExport } from './privacy/export';
import { resolveCustomer } from './customers/refs';
import { applySeed, hashSeedPasswords, parseSeedFile, SeedError } from './seed/service';
import type { DemoCredentials } from './seed/demo';
import { RestoreError, restoreDatabase } from './backups/restore';
import { writeCheckedCopy } from './backups/service';
import { addAdmin, AdminError, listAdminLogins, resetAdminPassword } from './admins/service';
import { VERSION } from './lib/version';
import { PRIVATE_DIR_MODE } from './lib/private-files';
import { KEPT_COPIES } from './db/file-names';

const HELP = `wallet-loyalty — self-hosted loyalty backend

Usage: wallet-loyalty [command] [options]

Commands:
  serve                      Run the server (the default). Options: --port, --host, --data
  seed <file.json>           Create the orgs, cards, admins and keys of a seed file; prints their ids and keys
  key create --org <orgId> --name <deviceName> [--mode live|test] [--scopes a,b] [--legacy]
  key list [--org <orgId>]   List keys (never the raw key: only its first characters)
  key revoke <keyId>         Revoke a key at once
  backup <file>              Copy the database to <file> (safe while the server runs)
  restore <file>             Put a backup in place of the database (the server must be stopped); the
                             database it replaces is kept as <data>/replaced-<time>.db
  admin list [--org <orgId>]                    The console logins (org and email), to find whose password to reset
  admin reset-password --email <email>          A new random password for a console login, printed once
  admin create --org <orgId> --email <email>    A new console admin of the org, password printed once
  --version                  The version
  import <file.csv> --card <cardId> [--mode live|test] [--dry-run]
                             Import customers from a CSV file; prints a JSON summary (--dry-run writes nothing)
  customer export <ref> --org <orgId> [--mode live|test]
                             Print everything kept about one customer as JSON (ref: pu_…, email:…, phone:… or external id)

Every command takes --data <dir> (default ./data, or DATA_DIR).
Settings (environment): PORT, HOST, DATA_DIR, PUBLIC_URL, INSTALL_BASE_URL, LOG_LEVEL,
  RATE_LIMIT_LIVE, RATE_LIMIT_TEST, RATE_LIMIT_ANONYMOUS, WEBHOOK_TIMEOUT_MS, WEBHOOK_RETRY_DELAYS_MS, WEBHOOK_BLOCK_PRIVATE,
  TRUST_PROXY, DB_SYNCHRONOUS (NORMAL or FULL), BACKUP_HOUR, BACKUP_DIR, BACKUP_KEEP, REPLICATION, SMTP_URL and MAIL_FROM (email),
  and the APPLE_*, APNS_* and GOOGLE_* wallet settings; every setting: docs/operator.md.
`;

class UsageError extends Error {}

function fail(message: string): never {
  process.stderr.write(`wallet-loyalty: ${message}\n`);
  process.exit(1);
}

function parse(argv: string[]) {
  return parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      help: { type: 'boolean', short: 'h' },
      version: { type: 'boolean' },
      email: { type: 'string' },
      port: { type: 'string' },
      host: { type: 'string' },
      data: { type: 'string' },
      org: { type: 'string' },
      name: { type: 'string' },
      mode: { type: 'string' },
      scopes: { type: 'string' },
      legacy: { type: 'boolean' },
      card: { type: 'string' },
      'dry-run': { type: 'boolean' },
    },
  });
}

function configFrom(values: ReturnType<typeof parse>['values']): Readonly<Config> {
  return loadConfig(process.env, { port: values.port, host: values.host, data: values.data });
}

function printDemo(demo: DemoCredentials, publicUrl: string, dataDir: string) {
  const lines = [
    '',
    'First start: created a demo org. Write these down: they are not shown again (the database keeps only hashes).',
    `  org            ${demo.orgId}`,
    ...demo.cards.map((c) => `  card           ${c.cardId}  (${c.name})`),
    `  test API key   ${demo.testKey}`,
    `  admin login    ${demo.admin.email} / ${demo.admin.password}`,
    '',
    `Console: ${publicUrl}/console (sign in with the admin login)`,
    `Lost the admin password? On this machine: npx wallet-loyalty admin reset-password --email ${demo.admin.email} --data ${dataDir}`,
    '',
    'Try it:',
    `  curl -s ${publicUrl}/api/v1/cards -H 'X-Api-Key: ${demo.testKey}'`,
    '',
    'Enroll a customer on the stamp card, then award a stamp:',
    `  curl -s -X POST ${publicUrl}/api/v1/customers -H 'X-Api-Key: ${demo.testKey}' -H 'Content-Type: application/json' \\`,
    `    -d '{"externalCustomerId":"demo-1","cardId":"${demo.cards[0]!.cardId}","email":"ada@example.com"}'`,
    `  curl -s -X POST ${publicUrl}/api/v1/customers/demo-1/earn -H 'X-Api-Key: ${demo.testKey}' -H 'Content-Type: application/json' \\`,
    `    -d '{"type":"stamps","amount":1}'`,
    '',
    `The enroll answer's installUrl is the customer's pass (web pass; Apple/Google Wallet once configured).`,
    `API reference: ${publicUrl}/api/openapi.json`,
    '',
  ];
  process.stdout.write(lines.join('\n') + '\n');
}

async function serve(config: Readonly<Config>) {
  const started = startServer(config).catch((err: NodeJS.ErrnoException) => {
    if (err.syscall === 'listen') throw new UsageError(`cannot listen on ${config.host}:${config.port}: ${err.code ?? err.message} (set --port / PORT or --host / HOST)`);
    throw err;
  });
  // Handlers go in before anything is printed: a supervisor that reacts to the first line must
  // not meet Node's default SIGTERM (an abrupt kill) in the moment before they exist.
  // The handlers stay for the whole shutdown: under `npm start` one Ctrl-C arrives twice (from the
  // terminal and forwarded by npm), and a second signal must not kill the process half-way.
  let shuttingDown = false;
  const shutdown = (signal: string) => {
    if (shuttingDown) return;
    shuttingDown = true;
    process.stdout.write(`${signal}: shutting down\n`);
    started
      .then((server) => server.stop())
      .then(
        () => process.exit(0),
        (err: unknown) => fail(`shutdown failed: ${String(err)}`),
      );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));

  const server = await started;
  process.stdout.write(`Wallet Loyalty listening on ${server.url} (data in ${config.dataDir})\n`);
  if (server.demo) printDemo(server.demo, config.publicUrl, config.dataDir);
}

async function seed(config: Readonly<Config>, file: string | undefined) {
  if (!file) throw new UsageError('seed needs a file: wallet-loyalty seed <file.json>');
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new SeedError(`cannot read ${file}: ${(err as Error).message}`);
  }
  const parsed = parseSeedFile(json);
  const hashes = await hashSeedPasswords(parsed);
  const db = openForCommand(config);
  try {
    const result = applySeed({ db, clock: systemClock }, parsed, hashes);
    process.stdout.write(JSON.stringify(result, null, 2) + '\n');
  } finally {
    db.close();
  }
}

function key(config: Readonly<Config>, positionals: string[], values: ReturnType<typeof parse>['values']) {
  const [action, arg] = positionals;
  const db = openExisting(config);
  const deps = { db, clock: systemClock };
  try {
    if (action === 'create') {
      if (!values.org || !values.name) throw new UsageError('key create needs --org <orgId> and --name <deviceName>');
      if (!orgsRepo(db).findOrg(values.org)) throw new UsageError(`no org ${values.org}`);
      if (values.mode !== undefined && values.mode !== 'live' && values.mode !== 'test') throw new UsageError('--mode is live or test');
      if (values.legacy && values.mode === 'test') throw new UsageError('a legacy key is always live');
      let scopes: Scope[] | undefined;
      if (values.scopes !== undefined) {
        const list = values.scopes.split(',').map((s) => s.trim()).filter(Boolean);
        const bad = list.filter((s) => !isScope(s));
        if (bad.length > 0 || list.length === 0) throw new UsageError(`unknown scope(s): ${bad.join(', ') || '(none given)'}`);
        scopes = list as Scope[];
      }
      const created = createApiKey(deps, { orgId: values.org, deviceName: values.name, mode: values.mode as 'live' | 'test' | undefined, scopes, legacy: values.legacy });
      process.stdout.write(JSON.stringify(created, null, 2) + '\n');
    } else if (action === 'list') {
      process.stdout.write(JSON.stringify(listApiKeys(deps, values.org), null, 2) + '\n');
    } else if (action === 'revoke') {
      if (!arg) throw new UsageError('key revoke needs a key id: wallet-loyalty key revoke <keyId>');
      revokeApiKey(deps, arg);
      process.stdout.write(`revoked ${arg}\n`);
    } else {
      throw new UsageError('key takes create, list or revoke');
    }
  } finally {
    db.close();
  }
}

function customer(config: Readonly<Config>, positionals: string[], values: ReturnType<typeof parse>['values']) {
  const [action, ref] = positionals;
  if (action !== 'export') throw new UsageError('customer takes export: wallet-loyalty customer export <ref> --org <orgId>');
  if (!ref || !values.org) throw new UsageError('customer export needs a customer and an org: wallet-loyalty customer export <ref> --org <orgId>');
  if (values.mode !== undefined && values.mode !== 'live' && values.mode !== 'test') throw new UsageError('--mode is live or test');
  const db = openExisting(config);
  try {
    if (!orgsRepo(db).findOrg(values.org)) throw new UsageError(`no org ${values.org}`);
    const found = resolveCustomer(db, { orgId: values.org, livemode: values.mode !== 'test' }, ref);
    process.stdout.write(`${JSON.stringify(customerExport({ db, config, clock: systemClock }, found), null, 2)}\n`);
  } finally {
    db.close();
  }
}

async function backup(config: Readonly<Config>, target: string | undefined) {
  if (!target) throw new UsageError('backup needs a target file: wallet-loyalty backup <file>');
  if (!existsSync(config.dbFile)) throw new UsageError(`no database at ${config.dbFile} (set --data or DATA_DIR)`);
  const file = path.resolve(target);
  if (file === config.dbFile) throw new UsageError('the backup target is the database itself');
  mkdirSync(path.dirname(file), { recursive: true, mode: PRIVATE_DIR_MODE });
  // A plain connection (no migration): the copy is the database as it is, checked as the server's
  // own backups are.
  const db = new Database(config.dbFile, { fileMustExist: true });
  applyPragmas(db);
  const partial = path.join(path.dirname(file), `.${path.basename(file)}.partial`);
  try {
    await writeCheckedCopy(db, partial, file);
  } catch (err) {
    rmSync(partial, { force: true });
    throw err;
  } finally {
    db.close();
  }
  process.stdout.write(`backed up ${config.dbFile} to ${file} (integrity checked)\n`);
}

function restore(config: Readonly<Config>, file: string | undefined) {
  if (!file) throw new UsageError('restore needs a backup file: wallet-loyalty restore <file> [--data DIR]');
  const result = restoreDatabase({ source: file, dbFile: config.dbFile, clock: systemClock });
  process.stdout.write(
    `restored ${path.resolve(file)} (schema version ${result.schemaVersion}) as ${result.dbFile}\n` +
      (result.replaced ? `the database it replaced is kept as ${result.replaced}\n` : '') +
      (result.removed.length ? `older replaced databases removed (the newest ${KEPT_COPIES} are kept): ${result.removed.join(', ')}\n` : '') +
      'start the server to use it\n',
  );
}

/** Messages about the database itself (a copy before a schema upgrade) go to stderr: stdout is the command's answer. */
const cliLog = { warn: (msg: string) => void process.stderr.write(`wallet-loyalty: ${msg}\n`) };

/** The data folder's database for a command that works on existing data: a mistyped --data creates nothing. */
function openExisting(config: Readonly<Config>) {
  if (!existsSync(config.dbFile)) throw new UsageError(`no database at ${config.dbFile} (set --data or DATA_DIR)`);
  return openForCommand(config);
}

function openForCommand(config: Readonly<Config>) {
  return openDatabase(config.dbFile, { synchronous: config.dbSynchronous, backupDir: config.backups.dir, log: cliLog });
}

/** Columns padded to their widest cell, two spaces apart. */
function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => [...r[i]!].length)));
  return rows.map((r) => r.map((cell, i) => (i === r.length - 1 ? cell : cell + ' '.repeat(widths[i]! - [...cell].length))).join('  ')).join('\n') + '\n';
}

function adminList(config: Readonly<Config>, orgId: string | undefined) {
  const db = openExisting(config);
  try {
    const { org, admins } = listAdminLogins(db, orgId);
    if (org && admins.length === 0) {
      process.stdout.write(`${org.name} (${org.id}) has no admin login: add one with wallet-loyalty admin create --org ${org.id} --email <email>\n`);
    } else if (admins.length === 0) {
      process.stdout.write('no admin logins yet: add one with wallet-loyalty admin create --org <orgId> --email <email>\n');
    } else {
      process.stdout.write(table([['ORG', 'ORG NAME', 'ADMIN EMAIL'], ...admins.map((a) => [a.orgId, a.orgName, a.email])]));
    }
  } finally {
    db.close();
  }
}

async function admin(config: Readonly<Config>, positionals: string[], values: ReturnType<typeof parse>['values']) {
  const [action] = positionals;
  if (action === 'list') return adminList(config, values.org);
  if (action !== 'reset-password' && action !== 'create') throw new UsageError('admin takes reset-password --email <email>, create --org <orgId> --email <email> or list [--org <orgId>]');
  if (!values.email) throw new UsageError(`admin ${action} needs --email <email>`);
  if (action === 'create' && !values.org) throw new UsageError('admin create needs --org <orgId>');
  const db = openExisting(config);
  try {
    const deps = { db, clock: systemClock };
    if (action === 'reset-password') {
      const result = await resetAdminPassword(deps, values.email);
      process.stdout.write(`new password for ${result.email}: ${result.password}\n(shown only now; every browser signed in as ${result.email} was signed out. Change it in the console under "Change password".)\n`);
    } else {
      const result = await addAdmin(deps, { orgId: values.org!, email: values.email });
      process.stdout.write(`created admin ${result.email} of ${values.org}, password: ${result.password}\n(shown only now; change it in the console under "Change password".)\n`);
    }
  } finally {
    db.close();
  }
}

async function importCustomers(config: Readonly<Config>, file: string | undefined, values: ReturnType<typeof parse>['values']) {
  if (!file || !values.card) throw new UsageError('import needs a file and a card: wallet-loyalty import <file.csv> --card <cardId> [--mode live|test] [--dry-run]');
  if (values.mode !== undefined && values.mode !== 'live' && values.mode !== 'test') throw new UsageError('--mode is live or test');
  const db = openExisting(config);
  const deps = { db, clock: systemClock, log: createLogger(config.logLevel), config, afterCommit: { eventsWritten() {}, passUpdatesQueued() {}, mailQueued() {} }, onChange: changeHooks() };
  try {
    const summary = await importCommand(deps, file, { cardId: values.card, livemode: values.mode !== 'test', dryRun: values['dry-run'] ?? false }, (line) => process.stderr.write(`${line}\n`));
    process.stdout.write(JSON.stringify(summary, null, 2) + '\n');
  } finally {
    db.close();
  }
}

export async function runCli(argv: string[]): Promise<void> {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (err) {
    fail(`${(err as Error).message}\n${HELP}`);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    process.stdout.write(HELP);
    return;
  }
  if (values.version) {
    process.stdout.write(`${VERSION}\n`);
    return;
  }
  const [command = 'serve', ...rest] = positionals;
  let config: Readonly<Config> | undefined;
  try {
    config = configFrom(values);
    if (command === 'serve') await serve(config);
    else if (command === 'seed') await seed(config, rest[0]);
    else if (command === 'key') key(config, rest, values);
    else if (command === 'backup') await backup(config, rest[0]);
    else if (command === 'restore') restore(config, rest[0]);
    else if (command === 'admin') await admin(config, rest, values);
    else if (command === 'import') await importCustomers(config, rest[0], values);
    else if (command === 'customer') customer(config, rest, values);
    else if (command === 'help') process.stdout.write(HELP);
    else throw new UsageError(`unknown command "${command}" (see --help)`);
  } catch (err) {
    if (err instanceof ConfigError || err instanceof SeedError || err instanceof UsageError || err instanceof SchemaVersionError || err instanceof RestoreError || err instanceof AdminError || err instanceof ImportCommandError) fail(err.message);
    if (err instanceof DatabaseOpenError) fail(`cannot use the data folder ${config?.dataDir} (--data / DATA_DIR): ${err.message}`);
    if (err instanceof Error && err.name === 'ApiError') fail(err.message);
    if (err instanceof Error && /no such file|SQLITE_CANTOPEN|unable to open/i.test(err.message)) fail(err.message);
    // A file-system refusal (no permission, a file where a folder should be): its own message is the one line.
    if (err instanceof Error && typeof (err as NodeJS.ErrnoException).syscall === 'string') fail(err.message);
    throw err;
  }
}

// An unexpected error ends the process with its stack and exit code 1.
await runCli(process.argv.slice(2));
