// The merchant pages take web forms (application/x-www-form-urlencoded). Another body — JSON,
// multipart to a page without an upload, plain text — with a valid CSRF token is refused with
// 415 and a page saying so, nothing written; the upload pages keep taking multipart.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { TestApp } from '../support/app';
import { ADMIN_PASSWORD, ConsoleClient, seedConsoleOrg, startTestApp, type ConsoleOrg } from '../support/console';
import { CounterClient } from '../counter/client';
import { seedCounterOrg, STAFF } from '../counter/support';

let app: TestApp;
let org: ConsoleOrg;
let owner: ConsoleClient;
let csrf: string;

before(async () => {
  app = await startTestApp();
  org = await seedConsoleOrg(app, 'Body Café');
  owner = new ConsoleClient(app);
  assert.equal((await owner.signIn(org.admin.email, ADMIN_PASSWORD)).status, 303);
  csrf = await owner.csrfFrom('/console/settings');
});
after(() => app.close());

const count = (sql: string, ...params: unknown[]) => (app.db.prepare(sql).get(...params) as { n: number }).n;
/** Everything the posts below could write, in one figure each. */
const written = () => ({
  orgName: (app.db.prepare('SELECT name FROM orgs WHERE id = ?').get(org.orgId) as { name: string }).name,
  staff: count('SELECT count(*) AS n FROM staff WHERE org_id = ?', org.orgId),
  keys: count('SELECT count(*) AS n FROM api_keys WHERE org_id = ?', org.orgId),
  admins: count('SELECT count(*) AS n FROM admins WHERE org_id = ?', org.orgId),
  webhooks: count('SELECT count(*) AS n FROM webhooks WHERE org_id = ?', org.orgId),
});

type Body = { name: string; headers: Record<string, string>; body: () => string | FormData };
const bodies: Body[] = [
  { name: 'JSON', headers: { 'Content-Type': 'application/json' }, body: () => JSON.stringify({ name: 'Hijacked', pin: '9999', deviceName: 'x', email: 'x@example.com', url: 'https://example.com/hook' }) },
  { name: 'multipart', headers: {}, body: () => formData({ name: 'Hijacked', pin: '9999', deviceName: 'x', email: 'x@example.com' }) },
  { name: 'plain text', headers: { 'Content-Type': 'text/plain' }, body: () => 'name=Hijacked' },
];
function formData(fields: Record<string, string>): FormData {
  const data = new FormData();
  for (const [k, v] of Object.entries(fields)) data.set(k, v);
  return data;
}

const paths = ['/console/settings', '/console/staff', '/console/keys', '/console/settings/admins', '/console/webhooks', '/console/mode', '/console/settings/email/test'];

async function post(path: string, body: Body) {
  // The token as the page's scripts send it (header), and for multipart also as plain upload forms do (query).
  const query = body.name === 'multipart' ? `?_csrf=${encodeURIComponent(csrf)}` : '';
  const res = await fetch(`${app.url}${path}${query}`, {
    method: 'POST',
    redirect: 'manual',
    headers: { Cookie: owner.cookieHeader(), Origin: app.url, 'X-CSRF-Token': csrf, ...body.headers },
    body: body.body(),
  });
  return { status: res.status, text: await res.text() };
}

describe('console forms sent as another kind of body', () => {
  for (const body of bodies) {
    for (const path of paths) {
      it(`${body.name} to ${path}: 415, a page that says so, nothing written`, async () => {
        const before = written();
        const res = await post(path, body);
        assert.equal(res.status, 415, res.text.slice(0, 300));
        assert.match(res.text, /This page takes its form as a web form \(application\/x-www-form-urlencoded\), as the page itself sends it; nothing was changed/);
        assert.deepEqual(written(), before);
      });
    }
  }

  it('without a valid token, another body is still refused as a forged form (403)', async () => {
    const res = await fetch(`${app.url}/console/settings`, { method: 'POST', redirect: 'manual', headers: { Cookie: owner.cookieHeader(), Origin: app.url, 'Content-Type': 'application/json' }, body: '{}' });
    assert.equal(res.status, 403);
  });

  it('a POST with no body at all is an empty form: the live/test switch stays as it is', async () => {
    const res = await fetch(`${app.url}/console/mode`, { method: 'POST', redirect: 'manual', headers: { Cookie: owner.cookieHeader(), Origin: app.url, 'X-CSRF-Token': csrf } });
    assert.equal(res.status, 303);
  });

  it('the import page still takes its upload as multipart', async () => {
    const data = new FormData();
    data.set('card', org.cards.stamps);
    data.set('file', new Blob(['name,email\nAnna,anna@example.com\n'], { type: 'text/csv' }), 'customers.csv');
    const res = await fetch(`${app.url}/console/customers/import?_csrf=${encodeURIComponent(csrf)}`, { method: 'POST', redirect: 'manual', headers: { Cookie: owner.cookieHeader(), Origin: app.url }, body: data });
    assert.equal(res.status, 303);
    assert.match(res.headers.get('location')!, /^\/console\/customers\/import\/[^/?]+$/);
  });
});

describe('pages outside the console take web forms only as well', () => {
  it('sign-in and the counter’s PIN answer JSON with 415 and a page', async () => {
    const counterOrg = await seedCounterOrg(app, 'Body Counter');
    const counter = new CounterClient(app, counterOrg.orgId);
    const pinToken = await counter.csrfFrom(counter.base);
    const signIn = new ConsoleClient(app);
    const signInToken = await signIn.csrfFrom('/console/sign-in');
    const cases = [
      { client: signIn, path: '/console/sign-in', body: { _csrf: signInToken, email: org.admin.email, password: ADMIN_PASSWORD } },
      { client: counter, path: `${counter.base}/unlock`, body: { _csrf: pinToken, pin: STAFF[0]!.pin } },
    ];
    for (const c of cases) {
      const res = await fetch(app.url + c.path, { method: 'POST', redirect: 'manual', headers: { Cookie: c.client.cookieHeader(), Origin: app.url, 'Content-Type': 'application/json' }, body: JSON.stringify(c.body) });
      assert.equal(res.status, 415, c.path);
      assert.match(res.headers.get('content-type')!, /^text\/html/);
      assert.match(await res.text(), /application\/x-www-form-urlencoded/);
    }
    assert.equal(signIn.cookie('wl_console'), undefined);
  });
});
