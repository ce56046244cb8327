// Refusals that come from the layers below the counter (the loyalty, card, mail and idempotency
// services, the form reader) in the API's English: over HTTP the counter shows each in the shop's
// language, in German and in French, and its replay too. A code nobody has worded yet names the
// code in the shop's language; the API's English never reaches the staff.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { ApiError } from '../../src/lib/errors';
import { writeOrgSettings } from '../../src/orgs/settings';
import type { Lang } from '../../src/i18n/langs';
import { counterMessage } from '../../src/counter/refusals';
import { startTestApp, type TestApp } from '../support/app';
import { CounterClient, messageOf } from './client';
import { apiCustomer, seedCounterOrg, STAFF, type CounterOrg } from './support';

let app: TestApp;

before(async () => {
  app = await startTestApp();
});
after(() => app?.close());

async function shop(name: string, language: Lang): Promise<{ org: CounterOrg; staff: CounterClient }> {
  const org = await seedCounterOrg(app, name);
  app.db.transaction(() => writeOrgSettings(app.db, org.orgId, { language, currency: 'EUR', timeZone: 'Europe/Berlin' }))();
  const staff = new CounterClient(app, org.orgId);
  assert.equal((await staff.unlock(STAFF[0]!.pin)).status, 303);
  return { org, staff };
}

/** Words of the API's English reasons: none may reach a German or French counter. */
const ENGLISH = /\b(does not apply|is not a reward|has no (spend rate|item values|reward)|must be|would pass|Idempotency-Key|bytes|not set up|SMTP_URL|stamp_card|is not)\b/;

function refusedWith(res: { status: number; text: string }, status: number, code: string, message: string): void {
  assert.equal(res.status, status, res.text);
  const body = messageOf(res);
  assert.deepEqual(body, { code, message });
  assert.doesNotMatch(body.message, ENGLISH);
}

describe('counter refusals from the layers below, in a German shop', () => {
  let org: CounterOrg;
  let staff: CounterClient;
  before(async () => ({ org, staff } = await shop('Café Sonne', 'de')));

  it('words the loyalty service’s refusals in German, and says the same words on a replay', async () => {
    const ben = await apiCustomer(app, org, { name: 'Ben Kurz', email: 'ben@example.com', initial: 3 });
    const key = randomUUID();
    const points = await staff.act('redeem', { customer: ben.passUserId, what: 'points', amount: '1' }, key);
    refusedWith(points, 400, 'UNSUPPORTED_FOR_CARD_TYPE', 'Das geht mit dieser Karte nicht (vielleicht hat der Inhaber sie geändert). Bitte die Seite neu laden.');
    const again = await staff.act('redeem', { customer: ben.passUserId, what: 'points', amount: '1' }, key);
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    refusedWith(again, 400, 'UNSUPPORTED_FOR_CARD_TYPE', 'Das geht mit dieser Karte nicht (vielleicht hat der Inhaber sie geändert). Bitte die Seite neu laden.');

    const spend = await staff.act('earn', { customer: ben.passUserId, what: 'spend', amount: '4,50' });
    refusedWith(spend, 400, 'ACCRUAL_RULE_NOT_CONFIGURED', 'So sammelt diese Karte nicht mehr: Der Inhaber hat sie geändert. Bitte die Seite neu laden.');
    const item = await staff.act('earn', { customer: ben.passUserId, what: 'items', item: 'brownie', quantity: '1' });
    refusedWith(item, 400, 'UNKNOWN_ITEM_KEYS', 'Dieser Artikel steht nicht mehr auf der Karte: brownie. Bitte die Seite neu laden.');

    const mail = await staff.act('send-card', { customer: ben.passUserId });
    refusedWith(mail, 409, 'MAIL_OFF', 'E-Mail ist auf diesem Server nicht eingerichtet, daher kann die Karte nicht verschickt werden. Zeigen Sie dem Kunden stattdessen den QR-Code der Karte.');
  });

  it('words a validation issue with an API field path by what it means, not by the path', async () => {
    const full = await apiCustomer(app, org, { name: 'Volle Karte', card: 'points', initial: 999_999_999 });
    const over = await staff.act('earn', { customer: full.passUserId, what: 'flat', amount: '2' });
    refusedWith(over, 400, 'VALIDATION_FAILED', 'Der Stand ginge über 1.000.000.000 hinaus, mehr fasst eine Karte nicht.');
    const nokey = await staff.act('earn', { customer: full.passUserId, what: 'flat', amount: '1' }, '');
    refusedWith(nokey, 400, 'VALIDATION_FAILED', 'Diese Seite ist abgelaufen. Bitte neu laden und noch einmal versuchen.');
  });

  it('words a refusal on the counter’s error pages in German too', async () => {
    const res = await fetch(`${app.url}/counter/${org.orgId}/unlock`, { method: 'POST', headers: { 'Content-Type': 'application/json', Origin: app.url }, body: '{"pin":"2468"}' });
    const page = await res.text();
    assert.equal(res.status, 415);
    assert.match(page, /<html lang="de">/);
    assert.match(page, /Die Anfrage konnte nicht gelesen werden\./);
    assert.doesNotMatch(page, /application\/x-www-form-urlencoded/);
  });

  it('words the form reader’s and the card service’s refusals in German', async () => {
    const huge = await staff.act('earn', { customer: 'x', what: 'flat', amount: '1', note: 'x'.repeat(70_000) });
    refusedWith(huge, 413, 'PAYLOAD_TOO_LARGE', 'Das ist mehr, als ein Formular senden kann (höchstens 64 KB). Bitte kürzen und noch einmal versuchen.');
    const gone = await staff.act('enroll', { card: 'crd_gone', name: 'Dora Neu' });
    refusedWith(gone, 404, 'CARD_NOT_FOUND', 'Diese Karte gibt es in diesem Geschäft nicht mehr. Bitte die Seite neu laden.');
  });
});

describe('counter refusals from the layers below, in a French shop', () => {
  let org: CounterOrg;
  let staff: CounterClient;
  before(async () => ({ org, staff } = await shop('Café du Coin', 'fr')));

  it('words them in French, with French typography', async () => {
    const luc = await apiCustomer(app, org, { name: 'Luc Martin', initial: 3 });
    const points = await staff.act('redeem', { customer: luc.passUserId, what: 'points', amount: '1' });
    refusedWith(points, 400, 'UNSUPPORTED_FOR_CARD_TYPE', 'Cette carte ne fonctionne pas ainsi (le responsable l’a peut-être modifiée). Rechargez la page.');
    const items = await staff.act('earn', { customer: luc.passUserId, what: 'items', item: 'brownie', quantity: '2' });
    refusedWith(items, 400, 'UNKNOWN_ITEM_KEYS', 'Cet article n’est plus sur la carte\u00a0: brownie. Rechargez la page.');
    const full = await apiCustomer(app, org, { name: 'Carte Pleine', card: 'points', initial: 999_999_999 });
    const over = await staff.act('earn', { customer: full.passUserId, what: 'flat', amount: '2' });
    refusedWith(over, 400, 'VALIDATION_FAILED', 'Le solde dépasserait 1\u202f000\u202f000\u202f000, le maximum qu’une carte peut contenir.');
  });
});

describe('a refusal code nobody has worded yet', () => {
  it('names its code in the shop’s language, never the English reason', () => {
    const future = new ApiError(409, 'SOMETHING_NEW', { detail: 'an English reason from a future service' });
    assert.equal(counterMessage('de', future), 'Das hat nicht geklappt (Code SOMETHING_NEW).');
    assert.equal(counterMessage('fr', future), 'Cela n’a pas fonctionné (code SOMETHING_NEW).');
    assert.equal(counterMessage('nl', future), 'Dat lukte niet (code SOMETHING_NEW).');
    const issue = new ApiError(400, 'VALIDATION_FAILED', { detail: 'quantity', extra: { issues: [{ path: 'items[0].quantity', message: 'a future English rule' }] } });
    assert.equal(counterMessage('de', issue), 'Die Artikel wurden nicht angenommen. Bitte die Seite neu laden und noch einmal versuchen.');
  });
});
