import { isIP } from 'node:net';
import { performance } from 'node:perf_hooks';
import type { ConnectionOptions } from 'node:tls';
import { createHttp1Client, type Http1Exchange, type Http1Target } from './http1-client';
import { hostOf } from '../lib/url-host';
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
/** Idle connections kept per receiver origin: the worker sends at most PER_ENDPOINT (8) at once to an endpoint. */
const MAX_IDLE_PER_ORIGIN = 16;
/** Parsed webhook URLs kept; a longer list is dropped and parsed again. */
const MAX_TARGETS = 1_000;

export interface WebhookSender {
  post(request: SendRequest): Promise<SendOutcome>;
  /** Closes every kept connection (the worker stops). */
  close(): void;
}

/**
 * Sends attempts over kept-alive connections per receiver origin (http1-client.ts): at a steady
 * rate or through a backlog, an attempt is one request on an open socket (and for https, no new
 * TLS handshake) instead of a connection set up and torn down each time. The worker bounds how
 * many attempts go to one endpoint at once. An idle socket is dropped after 4 s, before a
 * receiver's own keep-alive timeout would close it under an attempt; should a receiver close it
 * anyway while the attempt was being written, the attempt is sent once more on a new connection
 * (the receiver may see it twice, as after any retry, and deduplicates on the event id).
 *
 * Redirects are never followed (a 3xx is simply the answer, and a failure), and with
 * WEBHOOK_BLOCK_PRIVATE the connection's own DNS lookup is vetted (guardedLookup), so the check
 * judges the address the socket really connects to, not a separate, earlier DNS answer.
 * `tls` adds TLS options (tests give their certificate authority).
 */
export function createWebhookSender(options: { tls?: ConnectionOptions } = {}): WebhookSender {
  const client = createHttp1Client({ idleMs: IDLE_SOCKET_MS, maxIdlePerOrigin: MAX_IDLE_PER_ORIGIN, tls: options.tls });
  const targets = new Map<string, Http1Target>();
  // Every attempt of the worker carries the same shutdown signal: one listener for it, not one per attempt.
  const watched = new WeakSet<AbortSignal>();
  const inFlight = new Map<Http1Exchange, AbortSignal>();

  function targetOf(url: string): Http1Target {
    let target = targets.get(url);
    if (!target) {
      const parsed = new URL(url);
      const secure = parsed.protocol === 'https:';
      target = {
        secure,
        hostname: hostOf(parsed),
        port: parsed.port === '' ? (secure ? 443 : 80) : Number(parsed.port),
        host: parsed.host,
        path: `${parsed.pathname}${parsed.search}`,
      };
      if (targets.size >= MAX_TARGETS) targets.clear();
      targets.set(url, target);
    }
    return target;
  }

  function watch(signal: AbortSignal) {
    if (watched.has(signal)) return;
    watched.add(signal);
    signal.addEventListener('abort', () => {
      for (const [exchange, of] of inFlight) if (of === signal) exchange.cancel();
    }, { once: true });
  }

  function post(request: SendRequest): Promise<SendOutcome> {
    const started = performance.now();
    const outcome = (result: Omit<SendOutcome, 'durationMs'>): SendOutcome => ({
      succeeded: result.succeeded,
      responseCode: result.responseCode,
      error: result.error,
      durationMs: Math.round(performance.now() - started),
    });
    if (request.signal.aborted) return Promise.resolve(outcome(INTERRUPTED));
    let target: Http1Target;
    let exchange: Http1Exchange;
    try {
      target = targetOf(request.url);
      // An IP literal is never looked up, so the lookup hook would not see it: check it here.
      if (request.blockPrivate && isIP(target.hostname) && blockedKind(target.hostname)) {
        return Promise.resolve(outcome(failure(new BlockedAddressError(target.hostname).message)));
      }
      exchange = client.post(target, request.headers, request.body, request.blockPrivate ? guardedLookup : undefined);
    } catch (err) {
      return Promise.resolve(outcome(failure((err as Error).message)));
    }
    watch(request.signal);
    inFlight.set(exchange, request.signal);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      exchange.cancel();
    }, request.timeoutMs);
    return exchange.response.then(
      (head) => outcome(classify(head.status, head.location)),
      (err: NodeJS.ErrnoException) => {
        if (timedOut) return outcome(failure(`no response within ${request.timeoutMs} ms`));
        if (request.signal.aborted) return outcome(INTERRUPTED);
        return outcome(failure(describe(err, target.hostname)));
      },
    ).finally(() => {
      clearTimeout(timer);
      inFlight.delete(exchange);
    });
  }

  return { post, close: () => client.close() };
}

const INTERRUPTED = failure('interrupted: the server shut down before the receiver answered');

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
