import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { createMailWorker, type MailWorker } from '../../src/mail/worker';
import { startTestApp, type TestApp } from './app';

// A real SMTP server on 127.0.0.1, port 0 (smtp-server, by nodemailer's author), that receives
// what the mail worker sends and can refuse it on demand; and the test app wired to it as main.ts
// wires the mail worker (woken after every commit).

export interface ReceivedMail {
  from: string;
  to: string[];
  /** The whole message as it arrived (headers and MIME body). */
  raw: string;
  /** The authenticated user, when the client logged in. */
  user: string | undefined;
  /** Whether the session was encrypted (STARTTLS) when the message arrived. */
  secure: boolean;
}

export interface SmtpOutcome {
  /** An SMTP reply code and text to refuse the message with (451 is temporary, 550 permanent); absent to accept it. */
  refuse?: { code: number; message: string };
  /** The reply to the message's DATA waits for this: the client's send stays in flight until then. */
  hold?: Promise<unknown>;
}

export interface TestSmtpServer {
  port: number;
  /** Whether the server offers STARTTLS. */
  starttls: boolean;
  received: ReceivedMail[];
  /** Every AUTH the server saw, and whether the session was encrypted at that moment. */
  logins: { user: string; secure: boolean }[];
  /** How the next messages are answered. */
  answer(fn: (n: number) => SmtpOutcome): void;
  /** Resolves once `n` messages in all have arrived whole (their DATA ended), before they are answered. */
  dataReached(n: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * `starttls: true` (the default): the server offers STARTTLS with smtp-server's built-in
 * self-signed certificate (the client is told to accept it, startMailApp). `false`: a server that
 * offers no encryption at all, as some relays do; it still takes AUTH, so a test can see whether a
 * client sends its password in clear.
 */
export async function startSmtpServer(options: { starttls?: boolean } = {}): Promise<TestSmtpServer> {
  const starttls = options.starttls ?? true;
  const received: ReceivedMail[] = [];
  const logins: { user: string; secure: boolean }[] = [];
  let answerFn: (n: number) => SmtpOutcome = () => ({});
  let attempts = 0;
  let waiters: { n: number; resolve: () => void }[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: starttls ? [] : ['STARTTLS'],
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, session, callback) {
      logins.push({ user: auth.username ?? '', secure: session.secure });
      callback(null, { user: auth.username });
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', async () => {
        const outcome = answerFn(attempts++);
        for (const w of waiters.filter((w) => w.n <= attempts)) w.resolve();
        waiters = waiters.filter((w) => w.n > attempts);
        await outcome.hold;
        if (outcome.refuse) {
          const err = Object.assign(new Error(outcome.refuse.message), { responseCode: outcome.refuse.code });
          return callback(err);
        }
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
          user: typeof session.user === 'string' ? session.user : undefined,
          secure: session.secure,
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.server.address() as AddressInfo).port,
    starttls,
    received,
    logins,
    answer(fn) {
      answerFn = fn;
    },
    dataReached: (n) => (attempts >= n ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ n, resolve }))),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export interface MailTestApp extends TestApp {
  worker: MailWorker;
  /** Moves the fake clock, runs the mail job's sweep and waits for what it started. */
  advanceAndSweep(ms: number): Promise<number>;
}

/** SMTP_URL for a test server: its self-signed certificate accepted, or `?tls=off` for one without STARTTLS. */
export function testSmtpUrl(smtp: { port: number; starttls?: boolean }): string {
  return `smtp://shop-user:s3cret-pass@127.0.0.1:${smtp.port}${smtp.starttls === false ? '?tls=off' : '?tls.rejectUnauthorized=false'}`;
}

/** The test app sending through `smtp` (SMTP_URL with credentials, MAIL_FROM), its mail worker woken after commits. */
/** The settings that send through the test SMTP server: SMTP_URL with credentials, MAIL_FROM. */
export function mailEnv(smtp: { port: number; starttls?: boolean }): Record<string, string> {
  return { SMTP_URL: testSmtpUrl(smtp), MAIL_FROM: 'Test Café <cafe@example.com>' };
}

export async function startMailApp(smtp: { port: number; starttls?: boolean } | null, env: Record<string, string> = {}): Promise<MailTestApp> {
  let worker: MailWorker | undefined;
  const app = await startTestApp({ env: { ...(smtp ? mailEnv(smtp) : {}), ...env }, afterCommit: { mailQueued: () => worker?.wake() } });
  worker = createMailWorker(app.deps);
  const close = app.close;
  return Object.assign(app, {
    worker,
    async advanceAndSweep(ms: number) {
      app.clock.advance(ms);
      const started = worker!.sweep();
      await worker!.idle();
      return started;
    },
    async close() {
      await worker!.stop(1_000);
      await close();
    },
  });
}

/** A MIME message's header (unfolded, the first of its name), or undefined. */
export function header(raw: string, name: string): string | undefined {
  const head = raw.split(/\r?\n\r?\n/)[0]!.replace(/\r?\n[ \t]+/g, ' ');
  const line = head.split(/\r?\n/).find((l) => l.toLowerCase().startsWith(`${name.toLowerCase()}:`));
  return line?.slice(name.length + 1).trim();
}

/** An RFC 2047 encoded-word header (`=?UTF-8?Q?…?=` or `B`) as text. */
export function decodeHeader(value: string): string {
  return value.replace(/=\?([^?]+)\?([QqBb])\?([^?]*)\?=\s*/g, (_m, _charset: string, enc: string, text: string) =>
    enc.toUpperCase() === 'B' ? Buffer.from(text, 'base64').toString('utf8') : Buffer.from(text.replace(/_/g, ' ').replace(/=([0-9A-F]{2})/gi, (_x, h: string) => String.fromCharCode(parseInt(h, 16))), 'latin1').toString('utf8'),
  );
}

/**
 * The decoded body of each leaf part of a MIME message, by content type (text/plain, text/html,
 * image/png, …), enough to look into what the worker sent; not a general MIME parser.
 */
export function mimeParts(raw: string): { type: string; cid: string | undefined; body: Buffer }[] {
  const parts: { type: string; cid: string | undefined; body: Buffer }[] = [];
  const walk = (entity: string) => {
    const split = /\r?\n\r?\n/.exec(entity);
    const head = split ? entity.slice(0, split.index) : entity;
    const body = split ? entity.slice(split.index + split[0].length) : '';
    const type = (header(head, 'Content-Type') ?? 'text/plain').split(';')[0]!.trim().toLowerCase();
    if (type.startsWith('multipart/')) {
      const boundary = /boundary="?([^";]+)"?/i.exec(header(head, 'Content-Type')!)![1]!;
      for (const piece of body.split(`--${boundary}`).slice(1)) if (!piece.startsWith('--')) walk(piece.replace(/^\r?\n/, ''));
      return;
    }
    const encoding = (header(head, 'Content-Transfer-Encoding') ?? '7bit').toLowerCase();
    const bytes =
      encoding === 'base64'
        ? Buffer.from(body.replace(/\s/g, ''), 'base64')
        : encoding === 'quoted-printable'
          ? Buffer.from(body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_m, h: string) => String.fromCharCode(parseInt(h, 16))), 'latin1')
          : Buffer.from(body, 'utf8');
    parts.push({ type, cid: header(head, 'Content-ID')?.replace(/[<>]/g, ''), body: bytes });
  };
  walk(raw);
  return parts;
}
