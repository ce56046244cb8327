// The console's sessions, sign-in throttling and CSRF rules, over HTTP: sessions expire, failed
// sign-ins are limited per address and per account, and every write needs its Origin and the
// session's token.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { runJob } from '../../src/jobs/jobs';
import { embeddedAsset } from '../../src/lib/embedded-assets';
import { serverJobs } from '../../src/jobs/list';
import { silentLogger } from '../support/fakes';
import { NO_WORKERS, type TestApp } from '../support/app';
import { ADMIN_PASSWORD, ConsoleClient, seedConsoleOrg, startTestApp, type ConsoleOrg } from '../support/console';

const HOUR = 3_600_000;
let app: TestApp;
let org: ConsoleOrg;

before(async () => {
  app = await startTestApp();
  org = await seedConsoleOrg(app);
});
after(() => app.close());

const orgName = () => (app.db.prepare('SELECT name FROM orgs WHERE id = ?').get(org.orgId) as { name: string }).name;

describe('signing in', () => {
  it('/ leads to the console, and the console to its sign-in page', async () => {
    const client = new ConsoleClient(app);
    const root = await client.request('GET', '/');
    assert.equal(root.status, 302);
    assert.equal(root.headers.get('location'), '/console');
    const consolePage = await client.request('GET', '/console/settings');
    assert.equal(consolePage.status, 303);
    assert.equal(consolePage.headers.get('location'), '/console/sign-in?next=%2Fconsole%2Fsettings');
  });

  it('sets an HttpOnly, SameSite=Strict session cookie scoped to /console, and stores only its hash', async () => {
    const client = new ConsoleClient(app);
    const res = await client.signIn(org.admin.email, ADMIN_PASSWORD);
    assert.equal(res.status, 303);
    assert.equal(res.location, '/console/settings');
    const token = client.cookie('wl_console')!;
    assert.ok(token && token.length >= 40);
    const stored = app.db.prepare('SELECT id FROM sessions').all() as { id: string }[];
    assert.ok(stored.every((s) => s.id !== token && /^[0-9a-f]{64}$/.test(s.id)), 'the database holds the token hash, never the token');
    const line = (await new ConsoleClient(app).request('POST', '/console/sign-in', { form: {} })).setCookies; // no cookie on a refused form
    assert.deepEqual(line, []);
  });

  it('the cookie carries Secure when PUBLIC_URL is https', async () => {
    const secureApp = await startTestApp({ env: { PUBLIC_URL: 'https://loyalty.example.com' } });
    try {
      const secureOrg = await seedConsoleOrg(secureApp);
      const client = new ConsoleClient(secureApp);
      const csrf = await client.csrfFrom('/console/sign-in');
      const res = await client.request('POST', '/console/sign-in', { form: { _csrf: csrf, email: secureOrg.admin.email, password: ADMIN_PASSWORD, next: '/console' } });
      assert.equal(res.status, 303);
      const cookie = res.setCookies.find((c) => c.startsWith('wl_console='))!;
      assert.match(cookie, /; Path=\/console; HttpOnly; SameSite=Strict; Max-Age=604800; Secure$/);
    } finally {
      await secureApp.close();
    }
  });

  it('takes the email in any case, and an international domain in either spelling', async () => {
    const idn = await seedConsoleOrg(app, 'Bücherei', 'chefin@bücher.de');
    for (const typed of ['Chefin@Bücher.de', 'chefin@xn--bcher-kva.de', '  CHEFIN@bücher.DE ']) {
      assert.equal((await new ConsoleClient(app).signIn(typed, ADMIN_PASSWORD)).status, 303, typed);
    }
    assert.ok(idn.orgId);
  });

  it('answers an unknown email exactly like a wrong password', async () => {
    const wrong = await new ConsoleClient(app).signIn(org.admin.email, 'not the password');
    const unknown = await new ConsoleClient(app).signIn('nobody@example.com', 'not the password');
    assert.equal(wrong.status, 401);
    assert.equal(unknown.status, 401);
    const message = (text: string) => /<div class="notice error" role="alert"><p>([^<]+)<\/p>/.exec(text)?.[1];
    assert.equal(message(wrong.text), 'The email or the password is not right. Check both and try again.');
    assert.equal(message(unknown.text), message(wrong.text));
  });

  it('locks an account after five failures, whoever tries, and lets it in again after 15 minutes', async () => {
    const locked = await seedConsoleOrg(app, 'Locked Café');
    for (let i = 0; i < 5; i++) assert.equal((await new ConsoleClient(app).signIn(locked.admin.email, `guess ${i}`)).status, 401);
    const sixth = await new ConsoleClient(app).signIn(locked.admin.email, 'guess 6');
    assert.equal(sixth.status, 429);
    assert.match(sixth.text, /Too many failed sign-ins\. For your safety, signing in is paused: try again in 15 minutes\./);
    const right = await new ConsoleClient(app).signIn(locked.admin.email, ADMIN_PASSWORD);
    assert.equal(right.status, 429, 'even the right password is refused while locked');
    app.clock.advance(15 * 60_000 + 1000);
    assert.equal((await new ConsoleClient(app).signIn(locked.admin.email, ADMIN_PASSWORD)).status, 303);
  });

  it('locks a client address after twenty failures across accounts', async () => {
    const local = await startTestApp();
    try {
      const target = await seedConsoleOrg(local);
      for (let i = 0; i < 20; i++) assert.equal((await new ConsoleClient(local).signIn(`someone-${i}@example.com`, 'x')).status, 401);
      assert.equal((await new ConsoleClient(local).signIn('someone-21@example.com', 'x')).status, 429, 'the 21st failure locks the address');
      const next = await new ConsoleClient(local).signIn(target.admin.email, ADMIN_PASSWORD);
      assert.equal(next.status, 429, 'the address is locked, whichever account it tries');
    } finally {
      await local.close();
    }
  });
});

describe('sessions', () => {
  it('end after 12 hours without a request', async () => {
    const client = new ConsoleClient(app);
    await client.signIn(org.admin.email, ADMIN_PASSWORD);
    app.clock.advance(11 * HOUR);
    assert.equal((await client.request('GET', '/console/settings')).status, 200, 'still in use after 11 h');
    app.clock.advance(11.9 * HOUR);
    assert.equal((await client.request('GET', '/console/settings')).status, 200, '11.9 h after the last request');
    app.clock.advance(12 * HOUR);
    const res = await client.request('GET', '/console/settings');
    assert.equal(res.status, 303);
    assert.match(res.headers.get('location')!, /^\/console\/sign-in/);
  });

  it('end 7 days after sign-in however busy', async () => {
    const client = new ConsoleClient(app);
    await client.signIn(org.admin.email, ADMIN_PASSWORD);
    for (let h = 0; h < 7 * 24 - 10; h += 10) {
      app.clock.advance(10 * HOUR);
      assert.equal((await client.request('GET', '/console/settings')).status, 200, `busy at hour ${h + 10}`);
    }
    app.clock.advance(10 * HOUR);
    assert.equal((await client.request('GET', '/console/settings')).status, 303);
  });

  it('sign-out ends the session on the server: the old cookie no longer works', async () => {
    const client = new ConsoleClient(app);
    await client.signIn(org.admin.email, ADMIN_PASSWORD);
    const token = client.cookie('wl_console')!;
    const csrf = await client.csrfFrom('/console/settings');
    const out = await client.request('POST', '/console/sign-out', { form: { _csrf: csrf } });
    assert.equal(out.status, 303);
    assert.equal(out.headers.get('location'), '/console/sign-in?signedOut=1');
    const replay = new ConsoleClient(app);
    replay.setCookie('wl_console', token);
    assert.equal((await replay.request('GET', '/console/settings')).status, 303);
  });
  it('the hourly sweep removes ended sessions and stale failure counts', async () => {
    await new ConsoleClient(app).signIn(org.admin.email, ADMIN_PASSWORD);
    await new ConsoleClient(app).signIn('nobody@example.com', 'wrong');
    const count = (table: string) => (app.db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
    assert.ok(count('sessions') > 0 && count('auth_failures') > 0);
    app.clock.advance(8 * 24 * HOUR);
    await runJob(serverJobs(app.deps, NO_WORKERS).find((j) => j.name === 'session-sweep')!, silentLogger);
    assert.equal(count('sessions'), 0);
    assert.equal(count('auth_failures'), 0);
  });
});

describe("CSRF: a write needs the page's own Origin and the session's token", () => {
  async function signedIn(): Promise<{ client: ConsoleClient; csrf: string }> {
    const client = new ConsoleClient(app);
    await client.signIn(org.admin.email, ADMIN_PASSWORD);
    return { client, csrf: await client.csrfFrom('/console/settings') };
  }
  const cases: { name: string; origin?: string | null; token: (csrf: string) => string | undefined }[] = [
    { name: 'a POST from another site, with a valid token', origin: 'https://evil.example', token: (t) => t },
    { name: 'a POST without an Origin header', origin: null, token: (t) => t },
    { name: 'a same-origin POST without the token', token: () => undefined },
    { name: 'a same-origin POST with a wrong token', token: (t) => `${t.slice(0, -1)}${t.endsWith('a') ? 'b' : 'a'}` },
  ];
  for (const c of cases) {
    it(`refuses ${c.name} with 403, writing nothing`, async () => {
      const { client, csrf } = await signedIn();
      const before = orgName();
      const token = c.token(csrf);
      const res = await client.request('POST', '/console/settings', { origin: c.origin, form: { ...(token ? { _csrf: token } : {}), name: 'Hijacked', brandColor: '#000000' } });
      assert.equal(res.status, 403);
      assert.match(res.text, /This form has expired or was sent from another site/);
      assert.equal(orgName(), before);
    });
  }

  it('refuses a sign-in form posted from another site', async () => {
    const client = new ConsoleClient(app);
    const csrf = await client.csrfFrom('/console/sign-in');
    const res = await client.request('POST', '/console/sign-in', { origin: 'https://evil.example', form: { _csrf: csrf, email: org.admin.email, password: ADMIN_PASSWORD } });
    assert.equal(res.status, 403);
    assert.equal(client.cookie('wl_console'), undefined);
  });

  it('takes the token from the X-CSRF-Token header (htmx)', async () => {
    const { client, csrf } = await signedIn();
    const res = await client.request('POST', '/console/settings', { headers: { 'X-CSRF-Token': csrf }, form: { name: 'Header Café', brandColor: '#123456', timeZone: 'Europe/Berlin' } });
    assert.equal(res.status, 303);
    assert.equal(orgName(), 'Header Café');
    assert.equal(JSON.parse((app.db.prepare('SELECT settings FROM orgs WHERE id = ?').get(org.orgId) as { settings: string }).settings).timeZone, 'Europe/Berlin');
    const bad = await client.request('POST', '/console/settings', { headers: { 'X-CSRF-Token': csrf }, form: { name: 'Other', brandColor: '#123456', timeZone: 'Mars/Olympus' } });
    assert.equal(bad.status, 400);
    assert.match(bad.text, /Pick the time zone of your shop from the list/);
    assert.equal(orgName(), 'Header Café', 'nothing written');
  });
});

describe('page headers and assets', () => {
  it('every console page carries a nonce CSP, frame-ancestors none, nosniff and no-store', async () => {
    const client = new ConsoleClient(app);
    await client.signIn(org.admin.email, ADMIN_PASSWORD);
    for (const path of ['/console/sign-in', '/console/settings', '/console/password']) {
      const res = await (path === '/console/sign-in' ? new ConsoleClient(app) : client).request('GET', path);
      const csp = res.headers.get('content-security-policy')!;
      assert.match(csp, /script-src 'self' 'nonce-[A-Za-z0-9+/=]{24}'/, path);
      assert.match(csp, /frame-ancestors 'none'/, path);
      assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/, path);
      assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
      assert.equal(res.headers.get('cache-control'), 'no-store');
      const nonce = /'nonce-([^']+)'/.exec(csp)![1]!;
      for (const tag of res.text.match(/<(script|style)\b[^>]*>/g) ?? []) {
        if (/<script\b[^>]*\bsrc="\/assets\//.test(tag)) continue;
        assert.ok(tag.includes(`nonce="${nonce}"`), `${path}: ${tag} carries the nonce`);
      }
    }
  });

  it('serves each asset under its content hash, cacheable for a year; anything else is 404', async () => {
    const client = new ConsoleClient(app);
    const page = await client.request('GET', '/console/sign-in');
    const paths = [...page.text.matchAll(/(?:href|src)="(\/assets\/[^"]+)"/g)].map((m) => m[1]!);
    assert.ok(paths.some((p) => /^\/assets\/app\.[0-9a-f]{16}\.css$/.test(p)), paths.join(', '));
    for (const path of paths) {
      const res = await client.request('GET', path);
      assert.equal(res.status, 200, path);
      assert.equal(res.headers.get('cache-control'), 'public, max-age=31536000, immutable');
      assert.equal((await client.request('GET', path, { headers: { 'If-None-Match': res.headers.get('etag')! } })).status, 304);
    }
    assert.equal((await client.request('GET', '/assets/app.0000000000000000.css')).status, 404);
  });

  it('the style sheet is well formed: every block closed, so no rule lands inside another', async () => {
    const css = embeddedAsset('app.css').text().replace(/\/\*[\s\S]*?\*\//g, '');
    let depth = 0;
    for (const ch of css) {
      depth += ch === '{' ? 1 : ch === '}' ? -1 : 0;
      assert.ok(depth >= 0 && depth <= 2, 'blocks nest at most two deep (@media { rule { } })');
    }
    assert.equal(depth, 0);
  });

  it('an unknown page is a 404 page, not JSON', async () => {
    const res = await new ConsoleClient(app).request('GET', '/no-such-page');
    assert.equal(res.status, 404);
    assert.match(res.headers.get('content-type')!, /^text\/html/);
    assert.match(res.text, /There is no page at this address/);
  });
});
