// The counter over HTTP with a cookie jar: what its page sends, without a browser.
import { ConsoleClient } from '../support/console';
import type { TestApp } from '../support/app';
import { randomUUID } from 'node:crypto';

export class CounterClient extends ConsoleClient {
  csrf = '';
  /** Behind a proxy (TRUST_PROXY): the client address every request of this browser comes from. */
  forwardedFor?: string;
  constructor(
    app: TestApp,
    readonly orgId: string,
    readonly mode: 'live' | 'test' = 'live',
  ) {
    super(app);
  }

  override request(method: string, path: string, options: Parameters<ConsoleClient['request']>[2] = {}) {
    return super.request(method, path, this.forwardedFor ? { ...options, headers: { 'X-Forwarded-For': this.forwardedFor, ...options.headers } } : options);
  }

  get base(): string {
    return `/counter/${this.orgId}`;
  }

  /** Shows the PIN screen and sends the PIN; returns the unlock answer. */
  async unlock(pin: string) {
    const token = await this.csrfFrom(this.base);
    const res = await this.request('POST', `${this.base}/unlock`, { form: { _csrf: token, pin, mode: this.mode } });
    if (res.status === 303) {
      const page = await this.request('GET', this.base);
      this.csrf = /data-csrf="([^"]+)"/.exec(page.text)?.[1] ?? '';
    }
    return res;
  }

  get(path: string) {
    return this.request('GET', `${this.base}${path}${path.includes('?') ? '&' : '?'}mode=${this.mode}`);
  }

  /** A tap: the form fields with a fresh key (or the given one), the session's token in the header. */
  act(action: string, fields: Record<string, string>, key: string = randomUUID()) {
    return this.request('POST', `${this.base}/${action}`, { form: { mode: this.mode, key, ...fields }, headers: { 'X-CSRF-Token': this.csrf } });
  }

  scan(code: string) {
    return this.get(`/scan?code=${encodeURIComponent(code)}`);
  }
}

export const messageOf = (res: { text: string }) => (JSON.parse(res.text) as { code: string; message: string });
