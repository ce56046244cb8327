import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as v from 'valibot';
import { CardConfig } from '../src/cards/schemas';
import { readColor } from '../src/lib/colors';
import { SeedError } from '../src/seed/service';
import { defaultPassImages } from '../src/wallet/apple/default-images';
import { buildLoyaltyClass } from '../src/wallet/google/objects';
import { cardCss } from '../src/customer-pages/pass/views';
import type { Card } from '../src/cards/model';
import { startTestApp, type TestApp } from './support/app';
import { createCustomer } from './support/wallet-app';

// One colour rule (lib/colors.ts): the card schema accepts exactly what the renderers read, so a
// design the seed file (or the console) accepts can never make a pass answer 500.

const accepted: { value: string; css: string; hex: string }[] = [
  { value: '#abc', css: 'rgb(170, 187, 204)', hex: '#aabbcc' },
  { value: '#ABC', css: 'rgb(170, 187, 204)', hex: '#aabbcc' },
  { value: '#abcdef', css: 'rgb(171, 205, 239)', hex: '#abcdef' },
  { value: '#ABCDEF', css: 'rgb(171, 205, 239)', hex: '#abcdef' },
  { value: '#aBcDeF', css: 'rgb(171, 205, 239)', hex: '#abcdef' },
  { value: '#000', css: 'rgb(0, 0, 0)', hex: '#000000' },
  { value: '#ffffff', css: 'rgb(255, 255, 255)', hex: '#ffffff' },
  { value: 'rgb(0,0,0)', css: 'rgb(0, 0, 0)', hex: '#000000' },
  { value: 'rgb(255, 255, 255)', css: 'rgb(255, 255, 255)', hex: '#ffffff' },
  { value: 'rgb( 12 ,34 , 56 )', css: 'rgb(12, 34, 56)', hex: '#0c2238' },
  { value: 'RGB(1, 2, 3)', css: 'rgb(1, 2, 3)', hex: '#010203' },
  { value: 'rgb(007, 0, 0)', css: 'rgb(7, 0, 0)', hex: '#070000' },
  { value: '  #abc  ', css: 'rgb(170, 187, 204)', hex: '#aabbcc' },
];

const refused: { name: string; value: string }[] = [
  { name: 'a channel above 255', value: 'rgb(256, 0, 0)' },
  { name: 'rgb(300, 0, 0)', value: 'rgb(300,0,0)' },
  { name: 'a negative channel', value: 'rgb(-1, 0, 0)' },
  { name: 'four digits', value: 'rgb(1000, 0, 0)' },
  { name: 'a fraction', value: 'rgb(1.5, 0, 0)' },
  { name: 'a percentage', value: 'rgb(100%, 0, 0)' },
  { name: 'two channels', value: 'rgb(1, 2)' },
  { name: 'four channels', value: 'rgb(1, 2, 3, 4)' },
  { name: 'rgba()', value: 'rgba(1, 2, 3, 1)' },
  { name: 'the CSS 4 space syntax', value: 'rgb(1 2 3)' },
  { name: 'hsl()', value: 'hsl(0, 100%, 50%)' },
  { name: '#rgba', value: '#abcd' },
  { name: 'five hex digits', value: '#abcde' },
  { name: '#rrggbbaa', value: '#aabbccdd' },
  { name: 'hex without #', value: 'abcdef' },
  { name: 'a letter past f', value: '#abg' },
  { name: 'a colour name', value: 'red' },
  { name: 'another colour name', value: 'teal' },
  { name: 'empty', value: '' },
  { name: 'CSS smuggled after a colour', value: '#abc;}body{display:none' },
  { name: 'text after rgb()', value: 'rgb(1,2,3)garbage' },
];

const card = (design: Record<string, unknown>) => ({ name: 'Coffee', passType: 'stamp_card', design });

describe('the colour rule', () => {
  for (const c of accepted) {
    it(`accepts ${JSON.stringify(c.value)} in the card schema, and every renderer reads it`, () => {
      for (const field of ['backgroundColor', 'foregroundColor', 'labelColor']) {
        assert.ok(v.safeParse(CardConfig, card({ [field]: c.value })).success, field);
      }
      const color = readColor(c.value);
      assert.deepEqual(color && { css: color.css, hex: color.hex }, { css: c.css, hex: c.hex });
      // The web pass's CSS, the Google class, the drawn icon and logo (also Apple's default images).
      assert.equal(cardCss({ design: { backgroundColor: c.value, foregroundColor: c.value } } as Card), `.card{--bg:${c.css};--fg:${c.css};}`);
      const googleClass = buildLoyaltyClass({ id: 'i.c', issuerName: 'Shop', programName: 'Coffee', programLogoUrl: 'https://x/logo.png', testMode: false, backgroundColor: c.value });
      assert.equal(googleClass.hexBackgroundColor, c.hex);
      assert.ok(defaultPassImages({ background: color!.rgb, foreground: color!.rgb }).icon['icon@3x.png']!.length > 0);
    });
  }

  for (const c of refused) {
    it(`refuses ${c.name} (${JSON.stringify(c.value)}) in the schema and in the parser`, () => {
      const result = v.safeParse(CardConfig, card({ backgroundColor: c.value }));
      assert.equal(result.success, false);
      assert.match(result.issues![0].message, /^must be #rgb, #rrggbb or rgb\(r, g, b\) with r, g and b from 0 to 255$/);
      assert.equal(readColor(c.value), null);
    });
  }
});

describe('card colours over HTTP', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp();
  });
  after(() => app.close());

  it('a seed file with rgb(300,0,0) is refused naming the field; nothing is written', () => {
    const cards = () => (app.db.prepare('SELECT count(*) AS n FROM cards').get() as { n: number }).n;
    const before = cards();
    assert.throws(
      () => app.seed({ orgs: [{ name: 'Shop', cards: [card({ foregroundColor: '#fff', backgroundColor: 'rgb(300,0,0)' })] }] }),
      (err: unknown) => err instanceof SeedError && err.message.startsWith('orgs[0].cards[0].design.backgroundColor: must be #rgb'),
    );
    assert.equal(cards(), before);
  });

  it('shorthand, upper-case and spaced colours render the web pass and the logo', async () => {
    const [org] = app.seed({ orgs: [{ name: 'Shop', cards: [card({ backgroundColor: '#ABC', foregroundColor: 'rgb( 0 , 255 , 0 )', labelColor: '#fed' })] }] }).orgs;
    const cardId = org!.cards[0]!.cardId;
    const customer = createCustomer(app, { orgId: org!.orgId, cardId });
    const pass = await app.request('GET', `/pass/${encodeURIComponent(customer.installCode)}`);
    assert.equal(pass.status, 200, pass.text);
    assert.match(pass.text, /--bg:rgb\(170, 187, 204\);--fg:rgb\(0, 255, 0\);/);
    const logo = await fetch(`${app.url}/wallet/cards/${cardId}/logo.png`);
    assert.equal(logo.status, 200);
    assert.equal(logo.headers.get('content-type'), 'image/png');
  });
});
