// Access tokens for the Wallet API by the service account's JWT-bearer grant, cached until shortly
// before they expire (Google issues them for an hour; one grant per balance change would be
// wasteful and rate-limited).
import pRetry from 'p-retry';
import { signRs256Jwt } from './jwt';
import type { GoogleServiceAccount } from './service-account';

export const WALLET_OBJECT_SCOPE = 'https://www.googleapis.com/auth/wallet_object.issuer';

export interface GoogleTokenSource {
  /** A valid access token, fetched only when none is cached or it is about to expire. */
  getToken(): Promise<string>;
  /** Forget the cached token (after a 401 from the API). */
  invalidate(): void;
}

export function createGoogleTokenSource(options: {
  serviceAccount: GoogleServiceAccount;
  scope?: string;
  /** Milliseconds since the epoch; tests move it instead of waiting an hour. */
  now?: () => number;
  /** Refresh this long before expiry, so a token never expires mid-request; default 60 s. */
  refreshMarginMs?: number;
  timeoutMs?: number;
  /** Retries of a grant that failed for a passing reason (network, 429, 5xx); default 2. */
  retries?: number;
  /** The first wait between those retries, doubling after; default 250 ms. */
  retryMinMs?: number;
}): GoogleTokenSource {
  const now = options.now ?? Date.now;
  const margin = options.refreshMarginMs ?? 60_000;
  let cached: { token: string; expiresAt: number } | undefined;
  let inFlight: Promise<string> | undefined;

  // A passing failure of the token endpoint is retried at once, in process, a couple of times: the
  // caller is a push run that would otherwise fail whole and wait for the durable queue's next
  // try. A refused grant (a 4xx such as invalid_grant) is a setting to fix, so it is not retried.
  const fetchToken = () =>
    pRetry(requestToken, {
      retries: options.retries ?? 2,
      minTimeout: options.retryMinMs ?? 250,
      factor: 2,
      randomize: true,
      shouldRetry: ({ error }) => !(error instanceof GrantRefused),
    });

  async function requestToken(): Promise<string> {
    const { serviceAccount } = options;
    const issuedAt = Math.floor(now() / 1000);
    const assertion = signRs256Jwt(
      {
        iss: serviceAccount.clientEmail,
        scope: options.scope ?? WALLET_OBJECT_SCOPE,
        aud: serviceAccount.tokenUri,
        iat: issuedAt,
        exp: issuedAt + 3600,
      },
      serviceAccount.privateKey,
      serviceAccount.privateKeyId,
    );
    const response = await fetch(serviceAccount.tokenUri, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion }).toString(),
      signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
    });
    const text = await response.text();
    let data: Record<string, unknown> = {};
    try {
      data = JSON.parse(text) as Record<string, unknown>;
    } catch {
      // reported below
    }
    if (!response.ok || typeof data.access_token !== 'string') {
      const why = [data.error, data.error_description].filter((v) => typeof v === 'string').join(': ') || text.slice(0, 200);
      const message = `Google token request failed (${response.status}): ${why}`;
      throw response.status === 429 || response.status >= 500 ? new Error(message) : new GrantRefused(message);
    }
    const lifetimeS = typeof data.expires_in === 'number' ? data.expires_in : 3600;
    cached = { token: data.access_token, expiresAt: now() + lifetimeS * 1000 };
    return data.access_token;
  }

  return {
    getToken() {
      if (cached && now() < cached.expiresAt - margin) return Promise.resolve(cached.token);
      // Concurrent callers share one grant; a failed grant is not cached, the next call retries.
      inFlight ??= fetchToken().finally(() => {
        inFlight = undefined;
      });
      return inFlight;
    },
    invalidate() {
      cached = undefined;
    },
  };
}

/** The token endpoint answered and refused: retrying the same grant cannot help. */
class GrantRefused extends Error {}
