import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { performance } from 'node:perf_hooks';
import { BlockedAddressError, blockedKind, guardedLookup } from './address-guard';

export interface SendRequest {
  url: string;
  /** The exact bytes that were signed. */
  body: string;
  headers: Record<string, string>;
  timeoutMs: number;
  blockPrivate: boolean;
  /** Aborted when the server shuts down and stops waiting for this attempt. */
  signal: AbortSignal;
}

export interface SendOutcome {
  succeeded: boolean;
  /** null when no HTTP answer came: timeout, refused address, network error. */
  responseCode: number | null;
  error: string | null;
  durationMs: number;
}

/** How long an idle connection is kept for the next attempt: below the 5 s Node servers keep one open. */
const IDLE_SOCKET_MS = 4_000;
/** Agents not used for this long are closed when the map is looked at. */
const AGENT_IDLE_MS = 60_000;

export interface WebhookSender {
  post(request: SendRequest): Promise<SendOutcome>;
  /** Closes every kept connection (the worker stops). */
  close(): void;
}

/**
 * Sends attempts over kept-alive connections, one agent per receiver origin: at a steady rate or
 * through a backlog, an attempt is one request on an open socket (and for https, no new TLS
 * handshake) instead of a connection set up and torn down each time. The worker bounds how many
 * attempts go to one endpoint at once, so the agent does not. An idle socket is dropped after 4 s,
 * before a receiver's own keep-alive timeout would close it under an attempt; should a receiver
 * close it anyway while the attempt was being written, the attempt is sent once more on a new
 * connection (the receiver may see it twice, as after any retry, and deduplicates on the event id).
 */
export function createWebhookSender(): WebhookSender {
  const agents = new Map<string, { agent: http.Agent; usedAt: number }>();

  function agentFor(url: URL, blockPrivate: boolean): http.Agent {
    const key = `${url.protocol}//${url.host} ${blockPrivate}`;
    const now = performance.now();
    let entry = agents.get(key);
    if (!entry) {
      for (const [k, e] of agents) {
        if (now - e.usedAt > AGENT_IDLE_MS) {
          e.agent.destroy();
          agents.delete(k);
        }
      }
      const options = { keepAlive: true, maxFreeSockets: 16, timeout: IDLE_SOCKET_MS };
      entry = { agent: url.protocol === 'https:' ? new https.Agent(options) : new http.Agent(options), usedAt: now };
      agents.set(key, entry);
    }
    entry.usedAt = now;
    return entry.agent;
  }

  return {
    post: (request) => postWebhook(request, agentFor),
    close() {
      for (const { agent } of agents.values()) agent.destroy();
      agents.clear();
    },
  };
}

/**
 * One HTTP POST, settled by the first of: response headers, error, timeout, shutdown.
 *
 * node:http rather than fetch: it never follows redirects (a 3xx is simply the answer, and a
 * failure), and it takes a `lookup` hook, which is what lets WEBHOOK_BLOCK_PRIVATE judge the
 * address the socket really connects to instead of a separate, earlier DNS answer. Without
 * `agentFor`, each attempt has a connection of its own.
 */
export function postWebhook(request: SendRequest, agentFor?: (url: URL, blockPrivate: boolean) => http.Agent): Promise<SendOutcome> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const url = new URL(request.url);
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');

  // An IP literal is never looked up, so the hook would not see it: check it here.
  if (request.blockPrivate && isIP(host) && blockedKind(host)) {
    return Promise.resolve({ succeeded: false, responseCode: null, error: new BlockedAddressError(host).message, durationMs: elapsed() });
  }

  return new Promise((resolve) => {
    let settled = false;
    let req: http.ClientRequest;
    const client = url.protocol === 'https:' ? https : http;
    const settle = (outcome: Omit<SendOutcome, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request.signal.removeEventListener('abort', onAbort);
      resolve({ succeeded: outcome.succeeded, responseCode: outcome.responseCode, error: outcome.error, durationMs: elapsed() });
    };
    const timer = setTimeout(() => {
      settle({ succeeded: false, responseCode: null, error: `no response within ${request.timeoutMs} ms` });
      req.destroy();
    }, request.timeoutMs);
    const onAbort = () => {
      settle({ succeeded: false, responseCode: null, error: 'interrupted: the server shut down before the receiver answered' });
      req.destroy();
    };

    const send = (agent: http.Agent | false) => {
      req = client.request(url, {
        method: 'POST',
        // Not `{ ...request.headers, 'Content-Length': … }`: in Node 20's V8 a key added to an object
        // made by a spread takes a slow path, ~1 µs each time (issue 13).
        headers: { 'Content-Length': String(Buffer.byteLength(request.body)), ...request.headers },
        agent,
        ...(request.blockPrivate ? { lookup: guardedLookup } : {}),
      });
      req.on('response', (res) => {
        settle(classify(res.statusCode ?? 0, res.headers.location));
        // The answer is the status line; the body is read and dropped so a kept connection is free again.
        if (agent) res.resume();
        else res.destroy();
      });
      req.on('error', (err: NodeJS.ErrnoException) => {
        // A kept connection the receiver closed as the attempt was written: once more on a new one.
        if (!settled && req.reusedSocket && (err.code === 'ECONNRESET' || err.code === 'EPIPE')) send(false);
        else settle({ succeeded: false, responseCode: null, error: describe(err, host) });
      });
      req.end(request.body);
    };
    send(agentFor ? agentFor(url, request.blockPrivate) : false);
    if (request.signal.aborted) onAbort();
    else request.signal.addEventListener('abort', onAbort, { once: true });
  });
}

function classify(code: number, location: string | undefined): Omit<SendOutcome, 'durationMs'> {
  if (code >= 200 && code < 300) return { succeeded: true, responseCode: code, error: null };
  if (code >= 300 && code < 400) {
    return { succeeded: false, responseCode: code, error: `redirect${location ? ` to ${location}` : ''}; redirects are not followed, answer 2xx at the registered URL` };
  }
  if (code === 410) return { succeeded: false, responseCode: code, error: 'the receiver answered 410 Gone, so the endpoint was disabled' };
  return { succeeded: false, responseCode: code, error: `the receiver answered ${code}` };
}

function describe(err: NodeJS.ErrnoException, host: string): string {
  if (err instanceof BlockedAddressError) return err.message;
  if (err.code === 'ENOTFOUND' || err.code === 'EAI_AGAIN') return `could not resolve ${host} (${err.code})`;
  return err.code ? `${err.code}: ${err.message}` : err.message;
}
