import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { seedStandardOrg, startTestApp, type StandardOrg, type TestApp } from './support/app';

describe('cards API', () => {
  let app: TestApp;
  let org: StandardOrg;
  let other: StandardOrg;
  before(async () => {
    app = await startTestApp();
    org = seedStandardOrg(app);
    other = seedStandardOrg(app, 'Other shop');
  });
  after(() => app.close());

  it('lists the org’s cards with their questions and program, the same for test and live keys', async () => {
    const live = await app.request('GET', '/api/v1/cards', { key: org.keys.live });
    const test = await app.request('GET', '/api/v1/cards', { key: org.keys.test });
    assert.equal(live.status, 200);
    assert.deepEqual(live.body, test.body);
    assert.deepEqual(
      live.body.map((c: { cardId: string; passType: string }) => [c.cardId, c.passType]),
      [
        [org.cards.stamps, 'stamp_card'],
        [org.cards.points, 'point_card'],
        [org.cards.levels, 'level_card'],
        [org.cards.prepaid, 'prepaid_card'],
      ],
    );
    const stamps = live.body[0];
    assert.equal(stamps.name, 'Coffee stamps');
    assert.equal(stamps.dataCollectionEnabled, true);
    assert.deepEqual(stamps.reward, { name: 'Free coffee', cost: 10 });
    assert.deepEqual(stamps.questions[0], { key: 'memberNo', label: 'Member number', type: 'number', required: true, isIdentifier: false });
    assert.deepEqual(stamps.questions[1].options, [{ value: 'S', label: 'Small' }, { value: 'L', label: 'Large' }]);
    assert.deepEqual(live.body[2].levels, [{ name: 'Bronze', minPoints: 0 }, { name: 'Silver', minPoints: 100 }, { name: 'Gold', minPoints: 500 }]);
    assert.deepEqual(live.body[3].accrual, { spend: { currency: 'EUR', rate: 0.05 } });
  });

  it('never shows another org’s cards', async () => {
    const res = await app.request('GET', '/api/v1/cards', { key: other.keys.live });
    assert.ok(res.body.every((c: { cardId: string }) => !Object.values(org.cards).includes(c.cardId)));
  });

  const patchCases: { name: string; card?: (o: StandardOrg) => string; key?: (o: StandardOrg) => string; body: unknown; status: number; message?: RegExp }[] = [
    { name: 'sets a required number question', body: { identifierQuestionKey: 'memberNo' }, status: 200 },
    { name: 'matches the key case-insensitively', body: { identifierQuestionKey: 'ALTEMAIL' }, status: 200 },
    { name: 'clears with null', body: { identifierQuestionKey: null }, status: 200 },
    { name: 'refuses a test key', key: (o) => o.keys.test, body: { identifierQuestionKey: 'memberNo' }, status: 400, message: /^NOT_AVAILABLE_IN_TEST_MODE/ },
    { name: 'refuses an unknown question', body: { identifierQuestionKey: 'shoeSize' }, status: 400, message: /^UNKNOWN_QUESTION_KEY: shoeSize/ },
    { name: 'refuses an optional question', body: { identifierQuestionKey: 'nickname' }, status: 400, message: /^QUESTION_NOT_ELIGIBLE/ },
    { name: 'refuses a select question', body: { identifierQuestionKey: 'size' }, status: 400, message: /^QUESTION_NOT_ELIGIBLE/ },
    { name: 'needs the field', body: {}, status: 400, message: /^VALIDATION_FAILED: identifierQuestionKey/ },
    { name: 'refuses unknown fields', body: { identifierQuestionKey: null, name: 'x' }, status: 400, message: /^VALIDATION_FAILED: name/ },
    { name: 'refuses a number', body: { identifierQuestionKey: 5 }, status: 400, message: /^VALIDATION_FAILED/ },
    { name: 'unknown card is 404', card: () => 'card_nope', body: { identifierQuestionKey: null }, status: 404, message: /^CARD_NOT_FOUND/ },
    { name: 'another org’s card is 403', card: () => other.cards.stamps, body: { identifierQuestionKey: null }, status: 403, message: /^CARD_NOT_IN_ORG/ },
    { name: 'read-only key lacks the scope', key: (o) => o.keys.reader, body: { identifierQuestionKey: null }, status: 403, message: /^Missing scope\(s\): cards:write$/ },
  ];
  for (const c of patchCases) {
    it(`PATCH /v1/cards/{cardId}: ${c.name}`, async () => {
      const cardId = c.card ? c.card(org) : org.cards.stamps;
      const before = await app.request('GET', '/api/v1/cards', { key: org.keys.live });
      const res = await app.request('PATCH', `/api/v1/cards/${cardId}`, { key: (c.key ?? ((o) => o.keys.live))(org), body: c.body });
      assert.equal(res.status, c.status, res.text);
      if (c.message) {
        assert.match(res.body.message, c.message);
        const afterList = await app.request('GET', '/api/v1/cards', { key: org.keys.live });
        assert.deepEqual(afterList.body, before.body, 'a refused PATCH writes nothing');
      }
    });
  }

  it('PATCH replaces the previous identifier in the same write and answers the card', async () => {
    await app.request('PATCH', `/api/v1/cards/${org.cards.stamps}`, { key: org.keys.live, body: { identifierQuestionKey: 'memberNo' } });
    const res = await app.request('PATCH', `/api/v1/cards/${org.cards.stamps}`, { key: org.keys.live, body: { identifierQuestionKey: 'altEmail' } });
    assert.equal(res.status, 200);
    assert.equal(res.body.cardId, org.cards.stamps);
    const identifiers = res.body.questions.filter((q: { isIdentifier: boolean }) => q.isIdentifier).map((q: { key: string }) => q.key);
    assert.deepEqual(identifiers, ['altEmail']);
  });
});
