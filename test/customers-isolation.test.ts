import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { seedStandardOrg, startTestApp, type StandardOrg, type TestApp } from './support/app';
import { enroll, snapshot } from './support/customers';

// Another org's key must get 404 / 403 on every customer endpoint and learn nothing: the answer
// carries no field of the customer, and is the same whether or not the customer exists.
describe('cross-org isolation of the customer endpoints', () => {
  let app: TestApp;
  let org: StandardOrg;
  let intruder: StandardOrg;
  let victim: any;
  before(async () => {
    app = await startTestApp();
    org = seedStandardOrg(app, 'Victim');
    intruder = seedStandardOrg(app, 'Intruder');
    for (const key of [org.keys.live, org.keys.test]) {
      const res = await enroll(app, key, { externalCustomerId: 'victim-1', cardId: org.cards.stamps, email: 'victim@example.com', phone: '+15555550199', customFields: { nickname: 'secret' } });
      if (key === org.keys.live) victim = res.body;
    }
  });
  after(() => app.close());

  const refs = () => ['victim-1', `pu_${victim.passUserId}`, 'email:victim@example.com', 'phone:%2B15555550199'];
  const absent = ['nobody-1', 'pu_doesNotExist', 'email:nobody@example.com', 'phone:%2B15555550100'];

  /** The body of a 404 for a ref, with the ref itself taken out: equal for an existing and an absent customer. */
  const shape = (body: any, ref: string) => ({ ...body, message: String(body.message).replace(decodeURIComponent(ref), '<ref>') });

  for (const mode of ['live', 'test'] as const) {
    it(`GET /v1/customers/{ref} with the intruder’s ${mode} key: 404 for every ref form, like a customer that does not exist`, async () => {
      for (const [i, ref] of refs().entries()) {
        const res = await app.request('GET', `/api/v1/customers/${ref}`, { key: intruder.keys[mode] });
        const none = await app.request('GET', `/api/v1/customers/${absent[i]}`, { key: intruder.keys[mode] });
        assert.equal(res.status, 404, ref);
        assert.deepEqual(shape(res.body, ref), shape(none.body, absent[i]!));
        assert.doesNotMatch(JSON.stringify(shape(res.body, ref)), /secret|victim|pending_install|get-pass/, 'only the ref it sent comes back');
      }
    });

    it(`PATCH /v1/customers/{ref} with the intruder’s ${mode} key: 404 for every ref form, nothing written`, async () => {
      for (const ref of refs()) {
        const before = snapshot(app.db);
        const res = await app.request('PATCH', `/api/v1/customers/${ref}`, { key: intruder.keys[mode], body: { externalCustomerId: 'stolen', customFields: { nickname: 'pwned' } } });
        assert.equal(res.status, 404, ref);
        assert.match(res.body.message, /^CUSTOMER_NOT_FOUND/);
        assert.deepEqual(snapshot(app.db), before);
      }
    });

    it(`GET /v1/customers/lookup with the intruder’s ${mode} key: 404`, async () => {
      for (const query of ['email=victim%40example.com', 'phone=%2B15555550199', 'email=victim%40example.com&phone=%2B15555550199']) {
        const res = await app.request('GET', `/api/v1/customers/lookup?${query}`, { key: intruder.keys[mode] });
        assert.equal(res.status, 404, query);
        assert.deepEqual(Object.keys(res.body).sort(), ['error', 'message', 'statusCode']);
      }
    });

    it(`POST /v1/customers on the victim’s card with the intruder’s ${mode} key: 403 CARD_NOT_IN_ORG, nothing written`, async () => {
      const before = snapshot(app.db);
      const res = await enroll(app, intruder.keys[mode], { externalCustomerId: 'victim-1', cardId: org.cards.stamps, email: 'victim@example.com' });
      assert.equal(res.status, 403);
      assert.match(res.body.message, /^CARD_NOT_IN_ORG/);
      assert.deepEqual(Object.keys(res.body).sort(), ['error', 'message', 'statusCode']);
      assert.deepEqual(snapshot(app.db), before);
    });

    it(`POST /v1/customers on its own card with the victim’s id, email and phone (${mode}): a new customer, no EXTERNAL_ID_ON_OTHER_CARD leak`, async () => {
      const res = await enroll(app, intruder.keys[mode], { externalCustomerId: 'victim-1', cardId: intruder.cards.points, email: 'victim@example.com', phone: '+15555550199' });
      assert.equal(res.status, 201, res.text);
      assert.equal(res.body.result, 'created');
      assert.notEqual(res.body.passUserId, victim.passUserId);
    });
  }

  it('the victim’s customer is untouched and still its own', async () => {
    const res = await app.request('GET', '/api/v1/customers/victim-1', { key: org.keys.live });
    assert.deepEqual([res.body.passUserId, res.body.externalCustomerId, res.body.customFields], [victim.passUserId, 'victim-1', { nickname: 'secret' }]);
  });
});
