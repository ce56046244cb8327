// Apple Wallet pass update pushes: an empty-payload HTTP/2 POST per device token, authenticated by
// the pass certificate as TLS client certificate. A plain node:http2 client, because APNs
// libraries insist on APNs-environment OIDs that Pass Type ID certificates may not carry.
import http2, { type ClientHttp2Session, type ClientHttp2Stream, type OutgoingHttpHeaders } from 'node:http2';

export const APNS_PRODUCTION_URL = 'https://api.push.apple.com';

export interface ApnsClientOptions {
  /** Defaults to production: Wallet pass updates work against production only. */
  url?: string;
  /** Pass Type ID certificate and its key (PEM), the same as for signing passes. */
  cert: string | Buffer;
  key: string | Buffer;
  passphrase?: string;
  /** The pass type identifier. */
  topic: string;
  /** Sent as `apns-push-type` only when set: Apple does not document one for passes. */
  pushType?: string;
  /** How long one push may wait for its answer; default 10 s. */
  timeoutMs?: number;
  /** Extra trusted CAs, so tests can talk to a local fake; production uses the system store. */
  ca?: string | Buffer | Array<string | Buffer>;
}

export interface ApnsResult {
  status: number;
  /** APNs' reason for a non-200 answer, e.g. "Unregistered", "BadDeviceToken". */
  reason?: string;
  apnsId?: string;
}

export interface ApnsClient {
  /** Resolves with APNs' answer (any status); rejects on network failure or timeout (retry later). */
  push(pushToken: string): Promise<ApnsResult>;
  /** Closes the HTTP/2 session; pushes after this reject. */
  close(): Promise<void>;
}

/**
 * The registration behind this token is dead and should be deleted: 410 is APNs' "no longer
 * active for the topic"; 400 BadDeviceToken is a token that was never valid for production.
 */
export function isDeadRegistration(result: ApnsResult): boolean {
  return result.status === 410 || (result.status === 400 && result.reason === 'BadDeviceToken');
}

export function createApnsClient(options: ApnsClientOptions): ApnsClient {
  const url = options.url ?? APNS_PRODUCTION_URL;
  const timeoutMs = options.timeoutMs ?? 10_000;
  let session: ClientHttp2Session | undefined;
  let closed = false;

  // One session for all pushes (APNs asks for long-lived connections); a new one when APNs has
  // closed it (GOAWAY, idle timeout, network error).
  function currentSession(): ClientHttp2Session {
    if (session && !session.closed && !session.destroyed) return session;
    const fresh = http2.connect(url, {
      cert: options.cert,
      key: options.key,
      ...(options.passphrase !== undefined ? { passphrase: options.passphrase } : {}),
      ...(options.ca !== undefined ? { ca: options.ca } : {}),
    });
    const forget = () => {
      if (session === fresh) session = undefined;
    };
    // The error also reaches each open stream, which rejects its push; here it must only not crash.
    fresh.on('error', forget);
    fresh.on('goaway', forget);
    fresh.on('close', forget);
    session = fresh;
    return fresh;
  }

  function push(pushToken: string): Promise<ApnsResult> {
    if (closed) return Promise.reject(new Error('APNs client is closed'));
    const headers: OutgoingHttpHeaders = {
      ':method': 'POST',
      ':path': `/3/device/${encodeURIComponent(pushToken)}`,
      'apns-topic': options.topic,
      'content-type': 'application/json',
      ...(options.pushType ? { 'apns-push-type': options.pushType } : {}),
    };
    // APNs closes idle connections with GOAWAY; a push racing that is refused unprocessed
    // (REFUSED_STREAM, or a request on a session already going away), so one retry on a fresh
    // session is safe and spares the caller a pointless failure.
    return send(headers).catch((err: unknown) => {
      if (!(err instanceof RefusedError) || closed) throw err;
      session = undefined;
      return send(headers);
    });
  }

  function send(headers: OutgoingHttpHeaders): Promise<ApnsResult> {
    if (closed) throw new Error('APNs client is closed');
    return new Promise<ApnsResult>((resolve, reject) => {
      let stream: ClientHttp2Stream;
      try {
        stream = currentSession().request(headers);
      } catch (err) {
        // ERR_HTTP2_GOAWAY_SESSION / ERR_HTTP2_INVALID_SESSION: nothing was sent.
        reject(new RefusedError(`APNs session unusable: ${(err as Error).message}`));
        return;
      }
      let status: number | undefined;
      let apnsId: string | undefined;
      let body = '';
      const answered = (): boolean => {
        if (status === undefined) return false;
        resolve({ status, ...reasonOf(body), ...(apnsId ? { apnsId } : {}) });
        return true;
      };
      stream.setEncoding('utf8');
      stream.setTimeout(timeoutMs, () => {
        reject(new Error(`APNs did not answer within ${timeoutMs} ms`));
        stream.close(http2.constants.NGHTTP2_CANCEL);
      });
      stream.on('response', (h) => {
        status = Number(h[':status']);
        apnsId = typeof h['apns-id'] === 'string' ? h['apns-id'] : undefined;
      });
      stream.on('data', (chunk: string) => (body += chunk));
      stream.on('end', () => answered());
      stream.on('error', (err) => {
        if (stream.rstCode === http2.constants.NGHTTP2_REFUSED_STREAM) reject(new RefusedError(`APNs refused the stream: ${err.message}`));
        else reject(new Error(`APNs request failed: ${err.message}`, { cause: err }));
      });
      // Last event of every stream. A status already received counts as the answer; none means the
      // stream was reset or its session destroyed before APNs answered. (Later settles are no-ops.)
      stream.on('close', () => {
        if (!answered()) reject(new Error(`APNs stream closed without an answer (code ${stream.rstCode})`));
      });
      stream.end('{}');
    });
  }

  function close(): Promise<void> {
    closed = true;
    const open = session;
    session = undefined;
    if (!open || open.destroyed) return Promise.resolve();
    return new Promise((resolve) => open.close(() => resolve()));
  }

  return { push, close };
}

/** The request was certainly not processed by APNs, so sending it again is safe. */
class RefusedError extends Error {}

function reasonOf(body: string): { reason?: string } {
  if (!body) return {};
  try {
    const parsed = JSON.parse(body) as { reason?: unknown };
    return typeof parsed.reason === 'string' ? { reason: parsed.reason } : {};
  } catch {
    return { reason: body.slice(0, 200) };
  }
}
