import { isIP } from 'node:net';
import path from 'node:path';
import { isEmail } from './lib/contact';
import type { LogLevel } from './lib/log';

// Operator settings (docs/operator.md#settings). Read once from the environment and flags, validated, frozen.
// Nothing here runs at import: callers pass the env and flags they have.

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  dbFile: string;
  /** Base of public links (install pages, Apple web service). No trailing slash. */
  publicUrl: string;
  installBaseUrl: string;
  dbSynchronous: 'NORMAL' | 'FULL';
  logLevel: LogLevel;
  /** Behind a reverse proxy: take the client address from the last X-Forwarded-For entry (the one the proxy appended). */
  trustProxy: boolean;
  rateLimit: { live: number; test: number; anonymous: number };
  /** Daily backups: the hour in the shop's time zone (null: off), the folder, how many to keep. */
  backups: { hour: number | null; dir: string; keep: number };
  /**
   * What copies the database off the machine, as the operator declares it (REPLICATION): the
   * server cannot see Litestream, which runs beside it. Null: nothing does; the console warns.
   */
  replication: 'litestream' | null;
  webhooks: { timeoutMs: number; retryDelaysMs: number[]; blockPrivate: boolean };
  /** Outgoing mail (SMTP_URL and MAIL_FROM); null when not set up: mail features are then off. */
  mail: MailSettings | null;
  apple: {
    passTypeId?: string;
    teamId?: string;
    certFile?: string;
    keyFile?: string;
    keyPassphrase?: string;
    wwdrFile?: string;
    apnsUrl: string;
    apnsPushType?: string;
  };
  google: {
    issuerId?: string;
    serviceAccountFile?: string;
    saveUrlBase: string;
    objectsApiUrl: string;
    rootKeysUrl: string;
    callbackSenderId: string;
  };
}

export interface MailSettings {
  /**
   * smtp:// or smtps://, credentials included: never shown or logged whole (mailServerLabel).
   * Without our own `tls` parameter: the rest is nodemailer's (e.g. `?tls.rejectUnauthorized=false`).
   */
  smtpUrl: string;
  /**
   * True unless SMTP_URL says `?tls=off`: on smtp:// the connection must be upgraded with STARTTLS
   * before the password or a customer's email is sent; a server that offers no STARTTLS is refused.
   */
  tlsRequired: boolean;
  /** The From of every email: `shop@example.com` or `Shop name <shop@example.com>`. */
  from: string;
}

export class ConfigError extends Error {}

type Source = Record<string, string | undefined>;

/** Flags (`--port 8080`) win over the environment where both exist. */
export function loadConfig(env: Source, flags: Source = {}): Readonly<Config> {
  const read = (envName: string, flag?: string): string | undefined => {
    const fromFlag = flag ? flags[flag] : undefined;
    const raw = fromFlag ?? env[envName];
    return raw === undefined || raw.trim() === '' ? undefined : raw.trim();
  };
  const name = (envName: string, flag?: string) => (flag && flags[flag] !== undefined ? `--${flag}` : envName);

  const port = integer(read('PORT', 'port') ?? '3000', name('PORT', 'port'), 0, 65535);
  const host = hostName(read('HOST', 'host') ?? '127.0.0.1', name('HOST', 'host'));
  const dataDir = path.resolve(read('DATA_DIR', 'data') ?? './data');
  const publicUrl = url(read('PUBLIC_URL') ?? `http://localhost:${port}`, 'PUBLIC_URL');
  const installBaseUrl = url(read('INSTALL_BASE_URL') ?? publicUrl, 'INSTALL_BASE_URL');

  const backupHour = (read('BACKUP_HOUR') ?? '3').toLowerCase();

  const config: Config = {
    port,
    host,
    dataDir,
    dbFile: path.join(dataDir, 'wallet-loyalty.db'),
    publicUrl,
    installBaseUrl,
    dbSynchronous: oneOf(read('DB_SYNCHRONOUS') ?? 'NORMAL', 'DB_SYNCHRONOUS', ['NORMAL', 'FULL'] as const),
    logLevel: oneOf(read('LOG_LEVEL') ?? 'info', 'LOG_LEVEL', ['debug', 'info', 'warn', 'error', 'silent'] as const),
    trustProxy: boolean(read('TRUST_PROXY') ?? 'false', 'TRUST_PROXY'),
    rateLimit: {
      live: integer(read('RATE_LIMIT_LIVE') ?? '10', 'RATE_LIMIT_LIVE', 1, 100_000),
      test: integer(read('RATE_LIMIT_TEST') ?? '5', 'RATE_LIMIT_TEST', 1, 100_000),
      anonymous: integer(read('RATE_LIMIT_ANONYMOUS') ?? '20', 'RATE_LIMIT_ANONYMOUS', 1, 100_000),
    },
    backups: {
      hour: backupHour === 'off' ? null : integer(backupHour, 'BACKUP_HOUR', 0, 23, ' or off'),
      dir: path.resolve(read('BACKUP_DIR') ?? path.join(dataDir, 'backups')),
      keep: integer(read('BACKUP_KEEP') ?? '7', 'BACKUP_KEEP', 1, 1000),
    },
    replication: oneOf(read('REPLICATION') ?? 'off', 'REPLICATION', ['litestream', 'off'] as const) === 'litestream' ? 'litestream' : null,
    webhooks: {
      timeoutMs: integer(read('WEBHOOK_TIMEOUT_MS') ?? '5000', 'WEBHOOK_TIMEOUT_MS', 1, 600_000),
      retryDelaysMs: delays(read('WEBHOOK_RETRY_DELAYS_MS') ?? '10000,60000', 'WEBHOOK_RETRY_DELAYS_MS'),
      blockPrivate: boolean(read('WEBHOOK_BLOCK_PRIVATE') ?? 'false', 'WEBHOOK_BLOCK_PRIVATE'),
    },
    mail: mailSettings(read('SMTP_URL'), read('MAIL_FROM')),
    apple: {
      passTypeId: read('APPLE_PASS_TYPE_ID'),
      teamId: read('APPLE_TEAM_ID'),
      certFile: read('APPLE_PASS_CERT'),
      keyFile: read('APPLE_PASS_KEY'),
      keyPassphrase: env.APPLE_PASS_KEY_PASSPHRASE,
      wwdrFile: read('APPLE_WWDR_CERT'),
      apnsUrl: url(read('APNS_URL') ?? 'https://api.push.apple.com', 'APNS_URL'),
      apnsPushType: read('APNS_PUSH_TYPE'),
    },
    google: {
      issuerId: read('GOOGLE_ISSUER_ID'),
      serviceAccountFile: read('GOOGLE_SERVICE_ACCOUNT_FILE'),
      saveUrlBase: url(read('GOOGLE_SAVE_URL') ?? 'https://pay.google.com/gp/v/save', 'GOOGLE_SAVE_URL'),
      objectsApiUrl: url(read('GOOGLE_WALLET_API_URL') ?? 'https://walletobjects.googleapis.com/walletobjects/v1', 'GOOGLE_WALLET_API_URL'),
      rootKeysUrl: url(read('GOOGLE_ROOT_KEYS_URL') ?? 'https://pay.google.com/gp/m/issuer/keys', 'GOOGLE_ROOT_KEYS_URL'),
      callbackSenderId: read('GOOGLE_CALLBACK_SENDER_ID') ?? 'GooglePayPasses',
    },
  };
  return deepFreeze(config);
}

/** The bad value as one quoted line, so the error stays one line whatever the value holds. */
function shown(raw: string): string {
  return JSON.stringify(raw.length > 80 ? `${raw.slice(0, 80)}…` : raw);
}

function integer(raw: string, name: string, min: number, max: number, orElse = ''): number {
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigError(`Invalid setting ${name}: expected a whole number from ${min} to ${max}${orElse}, got ${shown(raw)}`);
  }
  return Number(raw);
}

function hostName(raw: string, name: string): string {
  if (isIP(raw) === 0 && !/^[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)*$/.test(raw)) {
    throw new ConfigError(`Invalid setting ${name}: expected an IP address or host name, got ${shown(raw)}`);
  }
  return raw;
}

function oneOf<T extends string>(raw: string, name: string, allowed: readonly T[]): T {
  const match = allowed.find((a) => a.toLowerCase() === raw.toLowerCase());
  if (!match) throw new ConfigError(`Invalid setting ${name}: expected one of ${allowed.join(', ')}, got ${shown(raw)}`);
  return match;
}

function boolean(raw: string, name: string): boolean {
  const value = raw.toLowerCase();
  if (['true', '1', 'yes', 'on'].includes(value)) return true;
  if (['false', '0', 'no', 'off'].includes(value)) return false;
  throw new ConfigError(`Invalid setting ${name}: expected true or false, got ${shown(raw)}`);
}

function url(raw: string, name: string): string {
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(`Invalid setting ${name}: expected an absolute http(s) URL, got ${shown(raw)}`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new ConfigError(`Invalid setting ${name}: expected an absolute http(s) URL, got ${shown(raw)}`);
  }
  return raw.replace(/\/+$/, '');
}

function delays(raw: string, name: string): number[] {
  const parts = raw.split(',').map((p) => p.trim());
  if (parts.length !== 2 || parts.some((p) => !/^\d+$/.test(p))) {
    throw new ConfigError(`Invalid setting ${name}: expected two waits in milliseconds like "10000,60000", got ${shown(raw)}`);
  }
  return parts.map(Number);
}

const HIDDEN = 'a value that is not shown (it may hold a password)';

/** SMTP_URL with its password replaced: what messages and the console may show. */
export function mailServerLabel(smtpUrl: string): string {
  // Through the URL parser: a password may itself hold an `@` or a `/` (written percent-encoded or not).
  const url = URL.canParse(smtpUrl) ? new URL(smtpUrl) : null;
  // A value that is not a URL with a host (`user:secret@host` parses as the scheme `user:`, a bare
  // password as nothing at all) may hold the password anywhere: none of it is shown.
  if (!url?.host) return HIDDEN;
  if (url.password) url.password = '***';
  return url.href.replace(/\/$/, '');
}

/** The end of an SMTP_URL error: the value as mailServerLabel shows it, quoted when it is shown at all. */
const gotSmtpUrl = (smtpUrl: string) => {
  const label = mailServerLabel(smtpUrl);
  return label === HIDDEN ? `got ${label}` : `got ${shown(label)}`;
};

/** Options of nodemailer's that would undo the TLS rule: `?tls=off` is the one way to relax it, and the console shows it. */
const TLS_OVERRIDES = ['secure', 'requireTLS', 'ignoreTLS', 'opportunisticTLS'];

function mailSettings(smtpUrl: string | undefined, from: string | undefined): MailSettings | null {
  if (smtpUrl === undefined) return null;
  let parsed: URL | undefined;
  try {
    parsed = new URL(smtpUrl);
  } catch {
    // Not echoed whole: the value may hold a password.
  }
  if (!parsed || (parsed.protocol !== 'smtp:' && parsed.protocol !== 'smtps:') || !parsed.hostname) {
    throw new ConfigError(`Invalid setting SMTP_URL: expected smtp://user:password@host:port or smtps://…, ${gotSmtpUrl(smtpUrl)}`);
  }
  const params = parsed.searchParams;
  const tls = params.getAll('tls');
  if (tls.length > 1 || (tls.length === 1 && tls[0] !== 'off')) {
    throw new ConfigError(`Invalid setting SMTP_URL: ?tls= takes only off (to allow a mail server without TLS), ${gotSmtpUrl(smtpUrl)}`);
  }
  if (tls.length === 1 && parsed.protocol === 'smtps:') {
    throw new ConfigError(`Invalid setting SMTP_URL: smtps:// is encrypted from the start, so ?tls=off does not apply, ${gotSmtpUrl(smtpUrl)}`);
  }
  const override = TLS_OVERRIDES.find((name) => params.has(name));
  if (override) {
    throw new ConfigError(`Invalid setting SMTP_URL: ?${override}= is not taken (the connection is encrypted unless ?tls=off says otherwise), ${gotSmtpUrl(smtpUrl)}`);
  }
  if (from === undefined) throw new ConfigError('Invalid setting MAIL_FROM: needed with SMTP_URL, e.g. "Your shop <shop@example.com>"');
  const address = /<([^<>]*)>\s*$/.exec(from)?.[1] ?? from;
  if (!isEmail(address)) throw new ConfigError(`Invalid setting MAIL_FROM: expected an address such as "Your shop <shop@example.com>", got ${shown(from)}`);
  if (tls.length === 0) return { smtpUrl, tlsRequired: true, from };
  // Our parameter, not nodemailer's (it would read `tls=off` as TLS options): the URL goes on without it.
  params.delete('tls');
  return { smtpUrl: parsed.href, tlsRequired: false, from };
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}
