import type { TestApp } from '../support/app';
import { ConsoleClient } from '../support/console';

// The sign-up form over HTTP, as a browser without JavaScript sends it: GET sets the pre-session
// cookie and renders the hidden fields; POST repeats them with the answers.

/** Answers that pass every rule of the standard stamps card (all seven question types). */
export const GOOD_STAMPS_ANSWERS: Record<string, string> = {
  name: 'Ada Lovelace',
  email: 'ada@example.com',
  phone: '+44 20 7946 0958',
  'q.memberNo': '42',
  'q.size': 'L',
  'q.nickname': 'Countess',
  'q.birthday': '1815-12-10',
  'q.newsletter': 'true',
  'q.altEmail': 'ada@analytical.example',
  'q.altPhone': '+49 170 1234567',
  consent: 'yes',
};

export interface OpenedForm {
  status: number;
  text: string;
  csrf: string;
  submission: string;
}

export class SignupClient {
  readonly http: ConsoleClient;
  constructor(readonly app: TestApp) {
    this.http = new ConsoleClient(app);
  }

  async open(cardId: string): Promise<OpenedForm> {
    const res = await this.http.request('GET', `/get-pass/${cardId}`);
    const csrf = /name="_csrf" value="([^"]+)"/.exec(res.text)?.[1];
    const submission = /name="submission" value="([^"]+)"/.exec(res.text)?.[1];
    if (!csrf || !submission) throw new Error(`no sign-up form at /get-pass/${cardId} (status ${res.status})`);
    return { status: res.status, text: res.text, csrf, submission };
  }

  /** Opens the form and sends it with `answers` (the hidden fields filled in unless `answers` sets them). */
  async signUp(cardId: string, answers: Record<string, string>, options: { origin?: string | null } = {}) {
    const form = await this.open(cardId);
    return this.send(cardId, { _csrf: form.csrf, submission: form.submission, ...answers }, options);
  }

  send(cardId: string, fields: Record<string, string>, options: { origin?: string | null } = {}) {
    return this.http.request('POST', `/get-pass/${cardId}`, { form: fields, origin: options.origin });
  }
}

export const countCustomers = (app: TestApp, cardId?: string): number =>
  (cardId
    ? (app.db.prepare('SELECT count(*) AS n FROM customers WHERE card_id = ?').get(cardId) as { n: number })
    : (app.db.prepare('SELECT count(*) AS n FROM customers').get() as { n: number })
  ).n;

export const countEvents = (app: TestApp): number => (app.db.prepare('SELECT count(*) AS n FROM events').get() as { n: number }).n;

/** Everything the database holds that a refused sign-up must leave as it was. */
export function snapshot(app: TestApp): string {
  const rows = (sql: string) => JSON.stringify(app.db.prepare(sql).all());
  return [
    rows('SELECT * FROM customers ORDER BY id'),
    rows('SELECT id FROM events ORDER BY id'),
    rows('SELECT * FROM transactions ORDER BY id'),
    rows("SELECT key FROM idempotency_keys WHERE route LIKE 'signup:%' ORDER BY key"),
  ].join('\n');
}

/** The text of the element with `id` (the first), tags stripped: an inline message under its input. */
export function textOf(page: string, id: string): string | undefined {
  const match = new RegExp(`id="${id}"[^>]*>([^<]*)<`).exec(page);
  return match?.[1];
}

/** The opening tag of the input (or select) with `id`. */
export function tagOf(page: string, id: string): string | undefined {
  return new RegExp(`<(?:input|select|textarea)[^>]* id="${id}"[^>]*>|<(?:input|select|textarea) id="${id}"[^>]*>`).exec(page)?.[0];
}
