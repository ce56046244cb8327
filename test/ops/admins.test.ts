// Settings → Admins over HTTP: several admins per org with equal rights, never none;
// an admin's own login email changes only with their password. And where to turn when the password is lost.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { TestApp } from '../support/app';
import { ConsoleClient, seedConsoleOrg, startTestApp, type ConsoleOrg } from '../support/console';

let app: TestApp;
let org: ConsoleOrg;
let owner: ConsoleClient;

before(async () => {
  app = await startTestApp();
  org = await seedConsoleOrg(app, 'Admins Café', 'owner@admins.example');
  await seedConsoleOrg(app, 'Another shop on this server', 'boss@elsewhere.example');
  owner = new ConsoleClient(app);
  assert.equal((await owner.signIn(org.admin.email, org.admin.password)).status, 303);
});
after(() => app.close());

const post = async (client: ConsoleClient, path: string, form: Record<string, string>) =>
  client.request('POST', path, { form: { _csrf: await client.csrfFrom('/console/settings/admins'), ...form } });
const admins = () => (app.db.prepare('SELECT email FROM admins WHERE org_id = ? ORDER BY created_at, id').all(org.orgId) as { email: string }[]).map((a) => a.email);

describe('Settings → Admins', () => {
  it('the sign-in page says where to turn when the password is lost', async () => {
    const page = await app.request('GET', '/console/sign-in');
    assert.match(page.text, /Lost your password\?/);
    assert.match(page.text, /wallet-loyalty admin reset-password --email/);
  });

  it('lists the admins; the only admin cannot be removed', async () => {
    const page = await owner.request('GET', '/console/settings/admins');
    assert.equal(page.status, 200);
    assert.match(page.text, /owner@admins\.example<\/strong> <span class="badge">you<\/span>/);
    assert.match(page.text, /The only admin/);
    const me = app.db.prepare('SELECT id FROM admins WHERE email = ?').get('owner@admins.example') as { id: string };
    const res = await post(owner, `/console/settings/admins/${me.id}/remove`, {});
    assert.equal(res.status, 400);
    assert.match(res.text, /The last admin cannot be removed/);
    assert.deepEqual(admins(), ['owner@admins.example']);
  });

  it('adds an admin with a password shown once, who can sign in', async () => {
    const res = await post(owner, '/console/settings/admins', { email: ' Partner@Admins.example ' });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('cache-control'), 'no-store');
    const password = /<textarea id="new-admin-password"[^>]*>([^<]+)<\/textarea>/.exec(res.text)?.[1];
    assert.ok(password, 'the password is on the page');
    assert.deepEqual(admins(), ['owner@admins.example', 'partner@admins.example']);
    const partner = new ConsoleClient(app);
    assert.equal((await partner.signIn('partner@admins.example', password)).status, 303);
    assert.equal((await partner.request('GET', '/console/settings/admins')).status, 200);
    const again = await owner.request('GET', '/console/settings/admins');
    assert.doesNotMatch(again.text, new RegExp(password), 'shown only once');
  });

  const bad = [
    { name: 'an empty email', email: '  ', message: /Enter an email address/ },
    { name: 'not an email', email: 'partner', message: /partner is not an email address/ },
    { name: 'an email already an admin of this shop', email: 'OWNER@admins.example', message: /owner@admins\.example is already an admin of this shop\./ },
    // Whether an address is another org's login is not this owner's to know: the neutral answer.
    { name: 'the login of another org’s admin', email: 'Boss@Elsewhere.example', message: /boss@elsewhere\.example cannot be used for an admin login\. Choose another email address\./ },
  ];
  for (const c of bad) {
    it(`refuses to add ${c.name}: the form back with the message, nothing written`, async () => {
      const before = admins();
      const res = await post(owner, '/console/settings/admins', { email: c.email });
      assert.equal(res.status, 400);
      assert.match(res.text, c.message);
      assert.doesNotMatch(res.text, /already an admin login|another (org|shop)/);
      assert.match(res.text, /aria-invalid="true"/);
      assert.deepEqual(admins(), before);
    });
  }

  it('changes your own login email only with your password', async () => {
    const wrong = await post(owner, '/console/settings/admins/email', { email: 'new-owner@admins.example', password: 'not my password' });
    assert.equal(wrong.status, 400);
    assert.match(wrong.text, /This is not your password/);
    const taken = await post(owner, '/console/settings/admins/email', { email: 'partner@admins.example', password: org.admin.password });
    assert.equal(taken.status, 400);
    assert.match(taken.text, /partner@admins\.example is already an admin of this shop\./);
    const elsewhere = await post(owner, '/console/settings/admins/email', { email: 'boss@elsewhere.example', password: org.admin.password });
    assert.equal(elsewhere.status, 400);
    assert.match(elsewhere.text, /boss@elsewhere\.example cannot be used for an admin login\. Choose another email address\./);
    assert.deepEqual(admins(), ['owner@admins.example', 'partner@admins.example']);
    const ok = await post(owner, '/console/settings/admins/email', { email: 'New-Owner@admins.example', password: org.admin.password });
    assert.equal(ok.status, 303);
    assert.deepEqual(admins(), ['new-owner@admins.example', 'partner@admins.example']);
    const again = new ConsoleClient(app);
    assert.equal((await again.signIn('new-owner@admins.example', org.admin.password)).status, 303);
    assert.equal((await new ConsoleClient(app).signIn('owner@admins.example', org.admin.password)).status, 401);
  });

  it('removes another admin, whose browsers are signed out at once', async () => {
    const partnerRow = app.db.prepare('SELECT id FROM admins WHERE email = ?').get('partner@admins.example') as { id: string };
    const password = 'partner password 1';
    const { hashPassword } = await import('../../src/lib/password');
    app.db.prepare('UPDATE admins SET password_hash = ? WHERE id = ?').run(await hashPassword(password), partnerRow.id);
    const partner = new ConsoleClient(app);
    await partner.signIn('partner@admins.example', password);
    const res = await post(owner, `/console/settings/admins/${partnerRow.id}/remove`, {});
    assert.equal(res.status, 303);
    assert.deepEqual(admins(), ['new-owner@admins.example']);
    const after = await partner.request('GET', '/console/dashboard');
    assert.equal(after.status, 303, 'the removed admin is signed out');
  });

  it('an admin of another org cannot be removed from here', async () => {
    const other = await seedConsoleOrg(app, 'Other Café', 'other@admins.example');
    const otherId = (app.db.prepare('SELECT id FROM admins WHERE email = ?').get(other.admin.email) as { id: string }).id;
    await post(owner, '/console/settings/admins', { email: 'helper@admins.example' });
    const res = await post(owner, `/console/settings/admins/${otherId}/remove`, {});
    assert.equal(res.status, 400);
    assert.match(res.text, /no longer exists/);
    assert.ok(app.db.prepare('SELECT 1 FROM admins WHERE id = ?').get(otherId));
  });
});
