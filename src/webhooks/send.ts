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

/**
 * One HTTP POST, settled by the first of: response headers, error, timeout, shutdown.
 *
 * node:http rather than fetch: it never follows redirects (a 3xx is simply the answer, and a
 * failure), and it takes a `lookup` hook, which is what lets WEBHOOK_BLOCK_PRIVATE judge the
 * address the socket really connects to instead of a separate, earlier DNS answer.
 */
export function postWebhook(request: SendRequest): Promise<SendOutcome> {
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
    const client = url.protocol === 'https:' ? https : http;
    const req = client.request(url, {
      method: 'POST',
      headers: { ...request.headers, 'Content-Length': String(Buffer.byteLength(request.body)) },
      // A fresh connection per attempt: no stale keep-alive socket can fail an attempt spuriously.
      agent: false,
      ...(request.blockPrivate ? { lookup: guardedLookup } : {}),
    });
    const settle = (outcome: Omit<SendOutcome, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request.signal.removeEventListener('abort', onAbort);
      resolve({ ...outcome, durationMs: elapsed() });
    };
    const timer = setTimeout(() => {
      settle({ succeeded: false, responseCode: null, error: `no response within ${request.timeoutMs} ms` });
      req.destroy();
    }, request.timeoutMs);
    const onAbort = () => {
      settle({ succeeded: false, responseCode: null, error: 'interrupted: the server shut down before the receiver answered' });
      req.destroy();
    };
    if (request.signal.aborted) onAbort();
    else request.signal.addEventListener('abort', onAbort, { once: true });

    req.on('response', (res) => {
      // The answer is the status line; the body is not needed, so close the one-off connection.
      settle(classify(res.statusCode ?? 0, res.headers.location));
      res.destroy();
    });
    req.on('error', (err: NodeJS.ErrnoException) => settle({ succeeded: false, responseCode: null, error: describe(err, host) }));
    req.end(request.body);
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
