import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { PRODUCTION_HASH_COST, setHashCostForTests, verifyPassword } from '../src/lib/password';
import { readOrgSettings } from '../src/orgs/settings';
import { applySeed, hashSeedPasswords, parseSeedFile, SeedError } from '../src/seed/service';
import { pinHash } from '../src/staff/pin';
import { startTestApp, type TestApp } from './support/app';

// The production cost of a password hash, which test/support/app.ts lowers for the other tests.
setHashCostForTests(PRODUCTION_HASH_COST);

// The seed file: the exact example of docs/operator.md#seed-file is accepted and answered in the documented
// shape with working keys; every kind of bad file is one line naming the field, and writes nothing.

/** The example of docs/operator.md#seed-file, byte for byte. */
const EXAMPLE_SEED_TEXT = readFileSync(new URL('./fixtures/seed-example.json', import.meta.url), 'utf8');
const example = () => JSON.parse(EXAMPLE_SEED_TEXT) as any;

describe('seed', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp();
  });
  after(() => app.close());

  const counts = () =>
    Object.fromEntries(['orgs', 'admins', 'cards', 'api_keys'].map((t) => [t, (app.db.prepare(`SELECT count(*) AS n FROM ${t}`).get() as { n: number }).n]));

  it('applies the documented example seed file and answers exactly the documented shape', async () => {
    const file = parseSeedFile(example());
    const result = applySeed(app.deps, file, await hashSeedPasswords(file));

    assert.equal(result.orgs.length, 1);
    const [org] = result.orgs;
    assert.deepEqual(Object.keys(result), ['orgs']);
    assert.deepEqual(Object.keys(org!), ['orgId', 'cards', 'keys']);
    assert.match(org!.orgId, /^org_[0-9A-Za-z]{20}$/);
    assert.equal(org!.cards.length, 1);
    assert.deepEqual(Object.keys(org!.cards[0]!), ['ref', 'cardId']);
    assert.equal(org!.cards[0]!.ref, 'coffee');
    assert.match(org!.cards[0]!.cardId, /^card_[0-9A-Za-z]{20}$/);
    assert.deepEqual(org!.keys.map((k) => Object.keys(k)), [['deviceName', 'mode', 'key'], ['deviceName', 'mode', 'key'], ['deviceName', 'mode', 'key']]);
    assert.deepEqual(org!.keys.map((k) => [k.deviceName, k.mode]), [['pos-1', 'test'], ['reader', 'live'], ['old-pos', 'live']]);
    const [test, reader, legacy] = org!.keys.map((k) => k.key);
    assert.match(test!, /^psk_test_[0-9A-Za-z]{32}$/);
    assert.match(reader!, /^psk_live_[0-9A-Za-z]{32}$/);
    assert.match(legacy!, /^psk_[0-9a-f]{40}$/);

    // The keys work, with their modes and scopes.
    const cards = await app.request('GET', '/api/v1/cards', { key: test });
    assert.equal(cards.status, 200);
    const rewardId = cards.body[0].rewards[0].id;
    assert.match(rewardId, /^rw_[0-9A-Za-z]{20}$/, 'the one-reward form becomes a one-entry list with an id');
    assert.deepEqual(cards.body, [
      {
        cardId: org!.cards[0]!.cardId,
        name: 'Coffee stamps',
        passType: 'stamp_card',
        archived: false,
        dataCollectionEnabled: true,
        signupFields: { name: 'required', email: 'required', phone: 'optional' },
        questions: [
          { key: 'memberNo', label: 'Member number', type: 'number', required: true, isIdentifier: false },
          { key: 'size', label: 'Cup size', type: 'select', required: false, isIdentifier: false, options: [{ value: 'S', label: 'Small' }] },
        ],
        reward: { name: 'Free coffee', cost: 10 },
        rewards: [{ id: rewardId, name: 'Free coffee', cost: 10 }],
        levels: [{ name: 'Bronze', minPoints: 0 }, { name: 'Gold', minPoints: 500 }],
        accrual: { spend: { currency: 'EUR', rate: 0.2 }, items: { latte: 1 } },
        earningLimits: { waitSeconds: 0, maxPerAward: 5, period: 'day', maxPerPeriod: 20 },
        flagAwardsPerDay: 6,
        unitValue: null,
        expiry: null,
        birthday: null,
      },
    ]);
    const readerRes = await app.request('GET', '/api/v1/cards', { key: reader });
    assert.deepEqual(readerRes.body, { statusCode: 403, error: 'Forbidden', message: 'Missing scope(s): cards:read' });
    const legacyRes = await app.request('PATCH', `/api/v1/cards/${org!.cards[0]!.cardId}`, { key: legacy, body: { identifierQuestionKey: 'memberNo' } });
    assert.equal(legacyRes.status, 200, 'the legacy key is live and has every scope');

    const admin = app.db.prepare('SELECT org_id, password_hash FROM admins WHERE email = ?').get('owner@example.com') as { org_id: string; password_hash: string };
    assert.equal(admin.org_id, org!.orgId);
    assert.ok(await verifyPassword('…', admin.password_hash), 'the admin can log in with the given password');
    assert.match(admin.password_hash, /^scrypt\$131072\$8\$1\$/, 'scrypt at N=2^17, r=8, p=1');
    assert.ok(!admin.password_hash.includes('…'));
  });

  it('takes which contact fields the sign-up form asks, each required, optional or off', async () => {
    const [org] = app.seed({ orgs: [{ name: 'Asks', cards: [{ name: 'Phone only', passType: 'stamp_card', signupFields: { name: 'optional', email: 'off', phone: 'required' } }], keys: [{ deviceName: 'k' }] }] }).orgs;
    const cards = await app.request('GET', '/api/v1/cards', { key: org!.keys[0]!.key });
    assert.deepEqual(cards.body[0].signupFields, { name: 'optional', email: 'off', phone: 'required' });
  });

  it('takes a card’s reward list, watch-list threshold and unit value', async () => {
    const rewards = [{ name: 'Free coffee', cost: 10, description: 'Any size' }, { name: 'Cake', cost: 6 }];
    const [org] = app.seed({
      orgs: [{ name: 'Rewards', cards: [{ name: 'Stamps', passType: 'stamp_card', rewards, flagAwardsPerDay: 3, unitValue: 0.3 }], keys: [{ deviceName: 'k' }] }],
    }).orgs;
    const [card] = (await app.request('GET', '/api/v1/cards', { key: org!.keys[0]!.key })).body;
    assert.deepEqual(card.rewards.map(({ id: _id, ...r }: { id: string }) => r), rewards, 'in the order given');
    assert.ok(card.rewards.every((r: { id: string }) => /^rw_[0-9A-Za-z]{20}$/.test(r.id)));
    assert.deepEqual(card.reward, { name: 'Free coffee', cost: 10 }, 'reward is the first entry');
    assert.deepEqual([card.flagAwardsPerDay, card.unitValue], [3, 0.3]);
  });

  it('takes the org’s settings: language, country, time zone and currency', () => {
    const settings = { language: 'de', country: 'DE', timeZone: 'Europe/Berlin', currency: 'EUR' };
    const [org] = applySeed(app.deps, parseSeedFile({ orgs: [{ name: 'Café Hamburg', settings }] })).orgs;
    const stored = readOrgSettings(app.db, org!.orgId);
    assert.deepEqual({ language: stored.language, country: stored.country, timeZone: stored.timeZone, currency: stored.currency }, settings);
    const [bare] = applySeed(app.deps, parseSeedFile({ orgs: [{ name: 'No settings' }] })).orgs;
    assert.deepEqual([readOrgSettings(app.db, bare!.orgId).language, readOrgSettings(app.db, bare!.orgId).currency], ['en', null], 'English and no currency by default');
  });

  it('needs only the names and passType', () => {
    const result = applySeed(app.deps, parseSeedFile({ orgs: [{ name: 'Bare', cards: [{ name: 'Plain', passType: 'point_card' }], keys: [{}] }] }));
    assert.deepEqual(result.orgs[0]!.cards.map((c) => c.ref), [null]);
    assert.deepEqual(result.orgs[0]!.keys.map((k) => [k.deviceName, k.mode]), [['key-1', 'live']]);
  });

  it('takes the org’s shop locations, so a sandbox starts with them', () => {
    const locations = [
      { name: 'Main Street', latitude: 52.520008, longitude: 13.404954 },
      { name: 'Station', latitude: 52.525, longitude: 13.369, relevantText: 'Coffee to go' },
    ];
    const result = applySeed(app.deps, parseSeedFile({ orgs: [{ name: 'Located', settings: { locations } }] }));
    assert.deepEqual(readOrgSettings(app.db, result.orgs[0]!.orgId).locations, locations);
  });

  const location = { name: 'Shop', latitude: 50, longitude: 8 };
  const bad: { name: string; file: (f: any) => unknown; field: string }[] = [
    { name: 'an unknown org setting', file: (f) => ((f.orgs[0].settings = { colour: 'red' }), f), field: 'orgs[0].settings.colour' },
    { name: 'a location past the pole', file: (f) => ((f.orgs[0].settings = { locations: [{ ...location, latitude: 95 }] }), f), field: 'orgs[0].settings.locations[0].latitude' },
    { name: 'a location without a name', file: (f) => ((f.orgs[0].settings = { locations: [{ ...location, name: ' ' }] }), f), field: 'orgs[0].settings.locations[0].name' },
    { name: 'eleven locations', file: (f) => ((f.orgs[0].settings = { locations: Array.from({ length: 11 }, () => location) }), f), field: 'orgs[0].settings.locations' },
    { name: 'not an object', file: () => 'orgs', field: 'seed file' },
    { name: 'a list instead of the object', file: (f) => f.orgs, field: 'orgs' },
    { name: 'no orgs', file: () => ({}), field: 'orgs' },
    { name: 'an empty org list', file: () => ({ orgs: [] }), field: 'orgs' },
    { name: 'an unknown top-level field', file: (f) => ({ ...f, users: [] }), field: 'users' },
    { name: 'an org without a name', file: (f) => (delete f.orgs[0].name, f), field: 'orgs[0].name' },
    { name: 'a blank org name', file: (f) => ((f.orgs[0].name = '  '), f), field: 'orgs[0].name' },
    { name: 'a card without passType', file: (f) => (delete f.orgs[0].cards[0].passType, f), field: 'orgs[0].cards[0].passType' },
    { name: 'an unknown passType', file: (f) => ((f.orgs[0].cards[0].passType = 'coupon'), f), field: 'orgs[0].cards[0].passType' },
    { name: 'an unknown card field', file: (f) => ((f.orgs[0].cards[0].colour = 'red'), f), field: 'orgs[0].cards[0].colour' },
    { name: 'a fractional reward on a stamp card', file: (f) => ((f.orgs[0].cards[0].reward.cost = 2.5), f), field: 'orgs[0].cards[0].reward.cost' },
    { name: 'a negative reward', file: (f) => ((f.orgs[0].cards[0].reward.cost = -1), f), field: 'orgs[0].cards[0].reward.cost' },
    { name: 'reward and rewards together', file: (f) => ((f.orgs[0].cards[0].rewards = [{ name: 'Cake', cost: 5 }]), f), field: 'orgs[0].cards[0].rewards' },
    { name: 'rewards on a level card', file: (f) => (f.orgs[0].cards.push({ name: 'Club', passType: 'level_card', rewards: [{ name: 'Cake', cost: 5 }] }), f), field: 'orgs[0].cards[1].rewards' },
    { name: 'an empty reward list', file: (f) => (delete f.orgs[0].cards[0].reward, (f.orgs[0].cards[0].rewards = []), f), field: 'orgs[0].cards[0].rewards' },
    { name: '21 rewards', file: (f) => (delete f.orgs[0].cards[0].reward, (f.orgs[0].cards[0].rewards = Array.from({ length: 21 }, (_, i) => ({ name: `R${i}`, cost: i + 1 }))), f), field: 'orgs[0].cards[0].rewards' },
    { name: 'two rewards of one name', file: (f) => (delete f.orgs[0].cards[0].reward, (f.orgs[0].cards[0].rewards = [{ name: 'Cake', cost: 5 }, { name: 'cake ', cost: 8 }]), f), field: 'orgs[0].cards[0].rewards' },
    { name: 'a fractional reward cost in the list', file: (f) => (delete f.orgs[0].cards[0].reward, (f.orgs[0].cards[0].rewards = [{ name: 'Cake', cost: 2.5 }]), f), field: 'orgs[0].cards[0].rewards[0].cost' },
    { name: 'a reward id on a new card', file: (f) => (delete f.orgs[0].cards[0].reward, (f.orgs[0].cards[0].rewards = [{ id: 'rw_0000000000aaaaaaaaaa', name: 'Cake', cost: 5 }]), f), field: 'orgs[0].cards[0].rewards[0].id' },
    { name: 'a reward description over 300 characters', file: (f) => (delete f.orgs[0].cards[0].reward, (f.orgs[0].cards[0].rewards = [{ name: 'Cake', cost: 5, description: 'x'.repeat(301) }]), f), field: 'orgs[0].cards[0].rewards[0].description' },
    { name: 'flagAwardsPerDay 0', file: (f) => ((f.orgs[0].cards[0].flagAwardsPerDay = 0), f), field: 'orgs[0].cards[0].flagAwardsPerDay' },
    { name: 'a unitValue with 5 decimals', file: (f) => ((f.orgs[0].cards[0].unitValue = 0.00001), f), field: 'orgs[0].cards[0].unitValue' },
    { name: 'a unitValue on a prepaid card', file: (f) => (f.orgs[0].cards.push({ name: 'Gift', passType: 'prepaid_card', unitValue: 1 }), f), field: 'orgs[0].cards[1].unitValue' },
    { name: 'levels not starting at 0', file: (f) => ((f.orgs[0].cards[0].levels[0].minPoints = 10), f), field: 'orgs[0].cards[0].levels' },
    { name: 'a lowercase currency', file: (f) => ((f.orgs[0].cards[0].accrual.spend.currency = 'eur'), f), field: 'orgs[0].cards[0].accrual.spend.currency' },
    { name: 'an unknown org setting', file: (f) => ((f.orgs[0].settings = { lang: 'de' }), f), field: 'orgs[0].settings.lang' },
    { name: 'a language we do not speak', file: (f) => ((f.orgs[0].settings = { language: 'pt' }), f), field: 'orgs[0].settings.language' },
    { name: 'a currency that is not ISO 4217', file: (f) => ((f.orgs[0].settings = { currency: 'EURO' }), f), field: 'orgs[0].settings.currency' },
    { name: 'a lowercase org currency', file: (f) => ((f.orgs[0].settings = { currency: 'eur' }), f), field: 'orgs[0].settings.currency' },
    { name: 'an unknown time zone', file: (f) => ((f.orgs[0].settings = { timeZone: 'Europe/Atlantis' }), f), field: 'orgs[0].settings.timeZone' },
    { name: 'a period without maxPerPeriod', file: (f) => (delete f.orgs[0].cards[0].earningLimits.maxPerPeriod, f), field: 'orgs[0].cards[0].earningLimits.maxPerPeriod' },
    { name: 'a select question without options', file: (f) => (delete f.orgs[0].cards[0].questions[1].options, f), field: 'orgs[0].cards[0].questions[1].options' },
    { name: 'an unknown question type', file: (f) => ((f.orgs[0].cards[0].questions[0].type = 'colour'), f), field: 'orgs[0].cards[0].questions[0].type' },
    { name: 'a reserved question key', file: (f) => ((f.orgs[0].cards[0].questions[0].key = 'Email'), f), field: 'orgs[0].cards[0].questions[0].key' },
    { name: 'an optional identifier question', file: (f) => ((f.orgs[0].cards[0].questions[0] = { ...f.orgs[0].cards[0].questions[0], required: false, isIdentifier: true }), f), field: 'orgs[0].cards[0].questions[0].isIdentifier' },
    { name: 'an unknown key mode', file: (f) => ((f.orgs[0].keys[0].mode = 'sandbox'), f), field: 'orgs[0].keys[0].mode' },
    { name: 'a legacy test key', file: (f) => ((f.orgs[0].keys[2].mode = 'test'), f), field: 'orgs[0].keys[2].mode' },
    { name: 'an unknown scope', file: (f) => ((f.orgs[0].keys[1].scopes = ['customers:read', 'everything']), f), field: 'orgs[0].keys[1].scopes[1]' },
    { name: 'an admin email that is no email', file: (f) => ((f.orgs[0].admins[0].email = 'owner'), f), field: 'orgs[0].admins[0].email' },
    { name: 'an empty admin password', file: (f) => ((f.orgs[0].admins[0].password = ''), f), field: 'orgs[0].admins[0].password' },
    { name: 'a card ref used twice in an org', file: (f) => (f.orgs[0].cards.push({ ref: 'coffee', name: 'Second', passType: 'point_card' }), f), field: 'orgs[0].cards[1].ref' },
    { name: 'a sign-up field mode that does not exist', file: (f) => ((f.orgs[0].cards[0].signupFields = { phone: 'maybe' }), f), field: 'orgs[0].cards[0].signupFields.phone' },
    { name: 'a sign-up field that does not exist', file: (f) => ((f.orgs[0].cards[0].signupFields = { birthday: 'required' }), f), field: 'orgs[0].cards[0].signupFields.birthday' },
    { name: 'a staff PIN of three digits', file: (f) => ((f.orgs[0].staff = [{ name: 'Sam', pin: '123' }]), f), field: 'orgs[0].staff[0].pin' },
    { name: 'a staff PIN with letters', file: (f) => ((f.orgs[0].staff = [{ name: 'Sam', pin: '12a4' }]), f), field: 'orgs[0].staff[0].pin' },
    { name: 'a staff member without a name', file: (f) => ((f.orgs[0].staff = [{ name: ' ', pin: '1234' }]), f), field: 'orgs[0].staff[0].name' },
    { name: 'one PIN for two staff members', file: (f) => ((f.orgs[0].staff = [{ name: 'Sam', pin: '1234' }, { name: 'Kim', pin: '1234' }]), f), field: 'orgs[0].staff[1].pin' },
    { name: 'an admin email given twice', file: (f) => (f.orgs.push({ name: 'Second shop', admins: [{ email: 'OWNER@example.com', password: 'x' }] }), f), field: 'orgs[1].admins[0].email' },
  ];
  for (const c of bad) {
    it(`refuses ${c.name}: one line naming ${c.field}, nothing written`, () => {
      const before = counts();
      assert.throws(
        () => applySeed(app.deps, parseSeedFile(c.file(example()))),
        (err: unknown) => {
          assert.ok(err instanceof SeedError, String(err));
          assert.ok(!err.message.includes('\n'), 'one line');
          assert.ok(err.message.startsWith(`${c.field}: `), err.message);
          return true;
        },
      );
      assert.deepEqual(counts(), before);
    });
  }

  it('refuses an admin email the database already has, and rolls back the orgs before it', async () => {
    const first = parseSeedFile({ orgs: [{ name: 'First', admins: [{ email: 'taken@example.com', password: 'pw' }] }] });
    applySeed(app.deps, first, await hashSeedPasswords(first));
    const before = counts();
    const file = parseSeedFile({ orgs: [{ name: 'Would be written first', cards: [{ name: 'C', passType: 'stamp_card' }], keys: [{ deviceName: 'k' }] }, { name: 'Clash', admins: [{ email: 'Taken@Example.com', password: 'pw' }] }] });
    const hashes = await hashSeedPasswords(file);
    assert.throws(() => applySeed(app.deps, file, hashes), (err: unknown) => err instanceof SeedError && err.message.startsWith('orgs[1].admins[0].email: '));
    assert.deepEqual(counts(), before);
  });

  it('creates the staff of each org with their PINs, stored only as a keyed hash', () => {
    const [org] = app.seed({ orgs: [{ name: 'Staffed', staff: [{ name: 'Sam', pin: '2468' }, { name: 'Kim', pin: '13579135' }] }] }).orgs;
    const rows = app.db.prepare('SELECT name, pin_hash, status FROM staff WHERE org_id = ? ORDER BY name').all(org!.orgId) as { name: string; pin_hash: string; status: string }[];
    assert.deepEqual(rows.map((r) => [r.name, r.status]), [['Kim', 'active'], ['Sam', 'active']]);
    const pins: Record<string, string> = { Sam: '2468', Kim: '13579135' };
    for (const row of rows) {
      const pin = pins[row.name]!;
      assert.match(row.pin_hash, /^[0-9a-f]{64}$/);
      // Compared whole: a random 64-digit hash contains a 4-digit PIN about once in a thousand.
      assert.equal(row.pin_hash, pinHash(app.db, app.clock.now(), org!.orgId, pin), "the database's keyed hash of the org and the PIN");
      assert.notEqual(row.pin_hash, createHash('sha256').update(`${org!.orgId}\n${pin}`).digest('hex'), 'not a hash anyone could compute without the key');
    }
    // The same PIN in another org is another org's business.
    assert.doesNotThrow(() => app.seed({ orgs: [{ name: 'Other', staff: [{ name: 'Sam', pin: '2468' }] }] }));
  });
});

describe('the cost of a password hash', () => {
  // test/support/app.ts lowers it for the tests; nothing the program runs may.
  it('is lowered by no module of the program: only tests call setHashCostForTests', () => {
    const src = new URL('../src/', import.meta.url);
    const callers = readdirSync(src, { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.ts') && file !== path.join('lib', 'password.ts'))
      .filter((file) => readFileSync(new URL(file, src), 'utf8').includes('setHashCostForTests'));
    assert.deepEqual(callers, []);
  });
});
