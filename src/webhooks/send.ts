import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { performance } from 'node:perf_hooks';
import type { ConnectionOptions } from 'node:tls';
import { InFlightList } from '../lib/in-flight-list';
import { hostOf } from '../lib/url-host';
import { BlockedAddressError, blockedKind, guardedLookup } from './address-guard';

export interface SendRequest {
  url: string;
  /** The exact bytes that were signed. */
  body: string;
  /** Sent as they are, after a Content-Length of body's bytes. */
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

export interface WebhookSender {
  post(request: SendRequest): Promise<SendOutcome>;
  /** Closes every kept connection and ends the attempts still waiting (the worker stops). */
  close(): void;
}

/**
 * How long an idle connection is kept for the next attempt: below the 5 s Node servers (and many
 * others) keep one open, so we drop it before the receiver does. A receiver that announces a
 * shorter `Keep-Alive: timeout=` is heeded by the agent itself.
 */
const IDLE_SOCKET_MS = 4_000;
/**
 * Connections per receiver origin: the worker sends at most PER_ENDPOINT (8) attempts at once to
 * an endpoint; the rest leaves room for a few endpoints on one origin, and for sockets still
 * skipping an answer's body after the attempt was recorded.
 */
const MAX_SOCKETS_PER_ORIGIN = 16;
/** An answer's body is read and dropped up to this size, so the connection can carry the next attempt; past it, the connection goes instead. */
export const MAX_SKIPPED_BODY_BYTES = 64 * 1024;

const AGENT_OPTIONS = { keepAlive: true, maxSockets: MAX_SOCKETS_PER_ORIGIN, timeout: IDLE_SOCKET_MS };

/**
 * Sends attempts with node:http / node:https over kept-alive connections: at a steady rate or
 * through a backlog, an attempt is one request on an open socket (for https, no new handshake).
 *
 * - The attempt's outcome is the answer's status; its body is skipped, never kept. The timeout
 *   (timeoutMs) covers the whole exchange: an answer in time whose body is still arriving when it
 *   expires costs its connection, as does a body over MAX_SKIPPED_BODY_BYTES.
 * - Redirects are never followed (node:http does not): a 3xx is the answer, and a failure.
 * - With WEBHOOK_BLOCK_PRIVATE the connection's own DNS lookup is vetted (guardedLookup), so the
 *   check judges the address the socket really connects to, not a separate, earlier DNS answer.
 *   Guarded connections have agents of their own: the agents pool sockets by origin, not by
 *   lookup, and a socket made without the guard must never carry a guarded attempt.
 * - A kept connection the receiver closed just as an attempt went out on it (ECONNRESET before
 *   any answer) is a race of keep-alive, not the receiver's verdict, and node:http does not retry a
 *   POST: the attempt is sent once more on a new connection. The receiver may see it twice, as
 *   after any retry, and deduplicates on the event id.
 *
 * `tls` adds TLS options (tests give their certificate authority).
 */
export function createWebhookSender(options: { tls?: ConnectionOptions } = {}): WebhookSender {
  const agents = new Map<string, http.Agent>();
  /** Requests not yet closed, those an agent still queues included (destroying an agent ends only its sockets). */
  const live = new InFlightList<http.ClientRequest>();
  let closed = false;

  function agentFor(secure: boolean, guarded: boolean): http.Agent {
    const key = `${secure ? 'https' : 'http'} ${guarded ? 'guarded' : 'open'}`;
    let agent = agents.get(key);
    if (!agent) {
      agent = secure ? new https.Agent(AGENT_OPTIONS) : new http.Agent(AGENT_OPTIONS);
      agents.set(key, agent);
    }
    return agent;
  }

  function post(request: SendRequest): Promise<SendOutcome> {
    const started = performance.now();
    const outcome = (result: Omit<SendOutcome, 'durationMs'>): SendOutcome => ({ durationMs: Math.round(performance.now() - started), ...result });
    if (request.signal.aborted) return Promise.resolve(outcome(INTERRUPTED));
    if (closed) return Promise.resolve(outcome(CLOSED));
    let url: URL;
    try {
      url = new URL(request.url);
    } catch (err) {
      return Promise.resolve(outcome(failure((err as Error).message)));
    }
    const host = hostOf(url);
    // An IP literal is never looked up, so the lookup hook would not see it: check it here.
    if (request.blockPrivate && isIP(host) && blockedKind(host)) {
      return Promise.resolve(outcome(failure(new BlockedAddressError(host).message)));
    }
    const secure = url.protocol === 'https:';

    return new Promise((resolve) => {
      let settled = false;
      let current: http.ClientRequest | undefined;
      // Listening only until the attempt's outcome (not through the body skip) keeps the shared
      // shutdown signal's listeners at one per attempt in flight; close() ends the rest.
      const onAbort = () => {
        finish(INTERRUPTED);
        current?.destroy();
      };
      const finish = (result: Omit<SendOutcome, 'durationMs'>) => {
        if (settled) return;
        settled = true;
        request.signal.removeEventListener('abort', onAbort);
        resolve(outcome(result));
      };
      request.signal.addEventListener('abort', onAbort, { once: true });
      const timer = setTimeout(() => {
        finish(failure(`no response within ${request.timeoutMs} ms`));
        current?.destroy();
      }, request.timeoutMs);

      const send = (fresh: boolean) => {
        let req: http.ClientRequest;
        try {
          req = (secure ? https : http).request(url, {
            method: 'POST',
            headers: { 'Content-Length': Buffer.byteLength(request.body), ...request.headers },
            // The retry's fresh connection is its own, closed after its answer.
            agent: fresh ? false : agentFor(secure, request.blockPrivate),
            lookup: request.blockPrivate ? guardedLookup : undefined,
            ...(secure ? options.tls : undefined),
          });
        } catch (err) {
          // A header node:http refuses (a line break would split the request): nothing was sent.
          clearTimeout(timer);
          finish(failure(describe(err as NodeJS.ErrnoException, host)));
          return;
        }
        current = req;
        live.add(req);
        req.on('response', (res) => {
          finish(classify(res.statusCode!, res.headers.location));
          let skipped = 0;
          res.on('data', (chunk: Buffer) => {
            skipped += chunk.length;
            if (skipped > MAX_SKIPPED_BODY_BYTES) req.destroy();
          });
        });
        req.on('error', (err: NodeJS.ErrnoException) => {
          if (!settled && !closed && !fresh && req.reusedSocket && (err.code === 'ECONNRESET' || err.code === 'EPIPE')) {
            send(true);
            return;
          }
          if (closed) finish(CLOSED);
          else finish(failure(describe(err, host)));
        });
        // The exchange is over (answered and its body skipped, or failed): nothing left to bound.
        req.on('close', () => {
          live.delete(req);
          if (current === req) clearTimeout(timer);
        });
        req.end(request.body);
      };
      send(false);
    });
  }

  return {
    post,
    close() {
      closed = true;
      for (const req of live) req.destroy();
      live.clear();
      for (const agent of agents.values()) agent.destroy();
      agents.clear();
    },
  };
}

const INTERRUPTED = failure('interrupted: the server shut down before the receiver answered');
const CLOSED = failure('the sender was closed');

function failure(error: string): Omit<SendOutcome, 'durationMs'> {
  return { succeeded: false, responseCode: null, error };
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
