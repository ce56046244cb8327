import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DRAWN_IMAGES_CACHE_SIZE, defaultPassImages } from '../../src/wallet/apple/default-images';
import { classLogoPng } from '../../src/wallet/google/class-logo';
import { startTestApp, type TestApp } from '../support/app';
import { getBytes } from '../support/wallet-app';

// GET /wallet/cards/:cardId/logo.png: the Google class logo, public and unauthenticated.

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

describe('the card logo URL', () => {
  let app: TestApp;
  let cardId: string;
  let teal: string;
  before(async () => {
    app = await startTestApp({ env: { RATE_LIMIT_ANONYMOUS: '3' } });
    const [org] = app.seed({
      orgs: [{ name: 'Logo Café', cards: [
        { ref: 'plain', name: 'Stamps', passType: 'stamp_card' },
        { ref: 'teal', name: 'Teal stamps', passType: 'stamp_card', design: { backgroundColor: '#008080', foregroundColor: 'rgb(255, 240, 200)' } },
      ] }],
    }).orgs;
    cardId = org!.cards.find((c) => c.ref === 'plain')!.cardId;
    teal = org!.cards.find((c) => c.ref === 'teal')!.cardId;
  });
  after(() => app.close());

  test('is the card’s PNG, cacheable; an unknown card is 404', async () => {
    const res = await getBytes(`${app.url}/wallet/cards/${cardId}/logo.png`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'image/png');
    assert.equal(res.headers.get('cache-control'), 'public, max-age=3600');
    assert.ok(res.bytes.subarray(0, 8).equals(PNG_SIGNATURE));
    const other = await getBytes(`${app.url}/wallet/cards/${teal}/logo.png`);
    assert.ok(!other.bytes.equals(res.bytes), 'drawn in each card’s own colours');
    assert.equal((await getBytes(`${app.url}/wallet/cards/card_unknown/logo.png`)).status, 404);
  });

  test('shares the anonymous per-address limit: 429 with the JSON error body past RATE_LIMIT_ANONYMOUS', async () => {
    app.clock.advance(1000); // a fresh second: the test above took from this address's budget
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await getBytes(`${app.url}/wallet/cards/${cardId}/logo.png`)).status);
    assert.deepEqual(statuses, [200, 200, 200]);
    const refused = await app.request('GET', `/wallet/cards/${cardId}/logo.png`);
    assert.equal(refused.status, 429);
    assert.match(refused.headers.get('content-type') ?? '', /^application\/json/);
    assert.equal(refused.body.error, 'RATE_LIMITED');
    assert.match(refused.body.message, /^RATE_LIMITED: .*\b3 requests per second/);
    assert.equal(refused.headers.get('retry-after'), '1');
    // Unknown cards count too: probing ids costs the same budget.
    assert.equal((await app.request('GET', '/wallet/cards/card_unknown/logo.png')).status, 429);
  });

  test('is drawn once per colour pair: later requests get the very same bytes', () => {
    const first = classLogoPng(app.db, cardId)!;
    assert.equal(classLogoPng(app.db, cardId), first, 'the same Buffer, not a second drawing');
  });
});

describe('defaultPassImages', () => {
  const colors = { background: [10, 20, 30] as const, foreground: [250, 240, 230] as const };
  const pair = () => ({ background: [...colors.background] as [number, number, number], foreground: [...colors.foreground] as [number, number, number] });

  test('draws each colour pair once and hands out that drawing', () => {
    const first = defaultPassImages(pair());
    const again = defaultPassImages(pair());
    assert.equal(again, first);
    assert.equal(again.icon['icon.png'], first.icon['icon.png']);
    assert.notEqual(defaultPassImages({ background: [10, 20, 31], foreground: [250, 240, 230] }), first, 'another pair is another drawing');
  });

  test(`keeps at most ${DRAWN_IMAGES_CACHE_SIZE} pairs, dropping the least recently used`, () => {
    const kept = defaultPassImages(pair());
    const evicted = defaultPassImages({ background: [1, 1, 1], foreground: [2, 2, 2] });
    for (let i = 0; i < DRAWN_IMAGES_CACHE_SIZE - 1; i++) {
      defaultPassImages({ background: [i % 256, Math.floor(i / 256), 200], foreground: [0, 0, 0] });
      // Used all along, so never the least recently used.
      assert.equal(defaultPassImages(pair()), kept);
    }
    assert.equal(defaultPassImages(pair()), kept);
    const redrawn = defaultPassImages({ background: [1, 1, 1], foreground: [2, 2, 2] });
    assert.notEqual(redrawn, evicted, 'dropped after 256 other pairs, so drawn again');
    assert.ok(redrawn.icon['icon.png']!.equals(evicted.icon['icon.png']!), 'and drawn the same');
  });
});
