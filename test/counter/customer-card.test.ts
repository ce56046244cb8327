// An open customer's card at the counter, over HTTP: its install QR again (a lost pass, a new
// phone), "Send card by email" once per tap however often it is sent, and a removed card's code.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { customersRepo } from '../../src/customers/repo';
import { installUrl } from '../../src/customers/install-url';
import { qrSvg } from '../../src/wallet/qr';
import { startMailApp, startSmtpServer, type MailTestApp, type TestSmtpServer } from '../support/mail';
import { CounterClient, messageOf } from './client';
import { apiCustomer, seedCounterOrg, STAFF, type CounterOrg } from './support';

let app: MailTestApp;
let smtp: TestSmtpServer;
let org: CounterOrg;
let sam: CounterClient;
before(async () => {
  smtp = await startSmtpServer();
  app = await startMailApp(smtp);
  org = await seedCounterOrg(app);
  sam = new CounterClient(app, org.orgId);
  await sam.unlock(STAFF[0]!.pin);
});
after(async () => {
  await app?.close();
  await smtp?.close();
});

describe('counter: the customer’s card', () => {
  it('Show card QR answers the install link’s QR as a fragment; another org’s customer is not found', async () => {
    const c = await apiCustomer(app, org, { name: 'Quentin', email: 'quentin@example.org' });
    const panel = await sam.get(`/customers/${c.passUserId}`);
    assert.match(panel.text, /<button type="button" class="secondary" data-qr="[^"]+">Show card QR<\/button>/);
    const res = await sam.get(`/customers/${c.passUserId}/qr`);
    assert.equal(res.status, 200);
    const url = installUrl(app.config, customersRepo(app.db).findByPassUserId(c.passUserId)!);
    assert.ok(res.text.includes(await qrSvg(url, 'QR code of Quentin’s card: scan it with the phone’s camera')));
    assert.match(res.text, /<h2 id="qr-heading">Quentin’s card<\/h2>/);

    const other = await seedCounterOrg(app, 'Other Café');
    const stranger = await apiCustomer(app, other, { name: 'Sven' });
    const refused = await sam.get(`/customers/${stranger.passUserId}/qr`);
    assert.equal(refused.status, 404);
    assert.match(messageOf(refused).message, /This customer no longer exists here/);
  });

  it('Send card by email queues one email per tap: a repeat of the tap is a replay; no address, no button', async () => {
    const c = await apiCustomer(app, org, { name: 'Erin', email: 'erin@example.org' });
    const key = randomUUID();
    const first = await sam.act('send-card', { customer: c.passUserId }, key);
    assert.equal(first.status, 200, first.text);
    assert.match(first.text, /✓ Card emailed to e\*\*\*n@example\.org/);
    const again = await sam.act('send-card', { customer: c.passUserId }, key);
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    await app.worker.idle();
    assert.equal(smtp.received.filter((m) => m.to[0] === 'erin@example.org').length, 1);
    const rows = app.db.prepare('SELECT requested_via, status FROM mail_sends WHERE customer_id = ?').all(c.passUserId);
    assert.deepEqual(rows, [{ requested_via: 'scan', status: 'sent' }]);

    const silent = await apiCustomer(app, org, { name: 'Nora No-Email' });
    assert.doesNotMatch((await sam.get(`/customers/${silent.passUserId}`)).text, /Send card by email/);
    const refused = await sam.act('send-card', { customer: silent.passUserId });
    assert.equal(refused.status, 400);
    assert.equal(messageOf(refused).message, 'There is no email address for this customer.');
  });

  it('a removed card’s code says the card was removed', async () => {
    const c = await apiCustomer(app, org, { name: 'Remy Removed' });
    assert.equal((await app.request('DELETE', `/api/v1/customers/pu_${c.passUserId}`, { key: org.keys.live })).status, 200);
    const res = await sam.scan(c.scanCode);
    assert.equal(res.status, 404);
    assert.deepEqual(messageOf(res), { code: 'CARD_REMOVED', message: 'This card was removed: the customer’s personal data was deleted at their request. Enroll them again if they want a new card.' });
    assert.equal((await sam.get(`/customers/${c.passUserId}`)).status, 404);
    assert.match((await sam.get('/find?q=Remy')).text, /Nobody matches/);
  });
});
