// The counter poster in real headless Chromium: it renders on screen and on A4 and A6
// paper, and its QR code — on the poster, printed, and as PNG and SVG downloads — decodes to the
// card's sign-up link. Also the settings panel for the form's consent text and privacy link.
import { DEFAULT_CONSENT_TEXT } from '../../src/orgs/settings';
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import jsQR from 'jsqr';
import type { Browser, Page } from 'playwright-core';
import { PNG } from 'pngjs';
import type { TestApp } from '../support/app';
import { launchBrowser } from '../support/browser';
import { ConsoleClient, seedConsoleOrg, signedInPage, startTestApp, STANDARD_SEED, type ConsoleOrg } from '../support/console';
import { pngImage } from '../console/cards-support';
import { cardsRepo } from '../../src/cards/repo';
import { setCardLogo } from '../../src/cards/service';
import { prepareLogo } from '../../src/cards/logo';
import { readOrgSettings } from '../../src/orgs/settings';

let app: TestApp;
let org: ConsoleOrg;
let other: ConsoleOrg;
/** A bakery whose cards have long names, and a logo: the most a poster has to fit. */
let bakery: ConsoleOrg;
const LONG_NAMES = { twoLines: 'Morning coffee stamps', longest: `The Old Harbour Bakery and Coffee House Loyalty Programme for Friends of Good Bread and Fine Coffee!` };
let longCards: { twoLines: string; longest: string };
let browser: Browser;

before(async () => {
  // Install links on their own address: the poster must carry that one, not the console's.
  app = await startTestApp({ env: { INSTALL_BASE_URL: 'https://cards.example.com' } });
  org = await seedConsoleOrg(app, 'Corner Café');
  other = await seedConsoleOrg(app, 'Other Shop');
  bakery = await seedConsoleOrg(app, 'Bäckerei und Konditorei am Alten Marktplatz', undefined, {
    cards: [
      ...STANDARD_SEED.orgs[0]!.cards,
      { ref: 'twoLines', name: LONG_NAMES.twoLines, passType: 'stamp_card', dataCollectionEnabled: true, reward: { name: 'Free coffee', cost: 10 } },
      { ref: 'longest', name: LONG_NAMES.longest, passType: 'stamp_card', dataCollectionEnabled: true, reward: { name: 'A large cappuccino with oat milk and a slice of cake', cost: 10 } },
    ],
  });
  const cardNamed = (name: string) => cardsRepo(app.db).listForOrg(bakery.orgId).find((c) => c.name === name)!.id;
  longCards = { twoLines: cardNamed(LONG_NAMES.twoLines), longest: cardNamed(LONG_NAMES.longest) };
  for (const cardId of Object.values(longCards)) setCardLogo(app.deps, bakery.orgId, cardId, prepareLogo(pngImage(300, 120, [200, 120, 40])));
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await app?.close();
});

const posterPath = (cardId: string) => `/console/cards/${cardId}/poster`;
const signupLink = (cardId: string) => `https://cards.example.com/get-pass/${cardId}`;

/** The text of the QR code in a PNG, read from its pixels. */
function decodePng(bytes: Buffer): string | undefined {
  const png = PNG.sync.read(bytes);
  return jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data;
}

/** Page size (points) and page count of a PDF Chromium printed. */
function pdfPages(pdf: Buffer): { count: number; width: number; height: number } {
  const text = pdf.toString('latin1');
  const box = /\/MediaBox \[0 0 ([\d.]+) ([\d.]+)\]/.exec(text)!;
  return { count: Number(/\/Type \/Pages[^>]*\/Count (\d+)/.exec(text)?.[1] ?? /\/Count (\d+)/.exec(text)![1]), width: Number(box[1]), height: Number(box[2]) };
}

const PAPERS = [
  { size: 'a4', width: 595.28, height: 841.89 },
  { size: 'a5', width: 419.53, height: 595.28 },
  { size: 'a6', width: 297.64, height: 419.53 },
] as const;

/**
 * In print: how many lines the card's name takes, which parts of the poster reach beyond the sheet
 * (clipped on paper), and by how much the poster's content and its title overflow their boxes.
 */
const PRINT_FIT = `(() => {
  const sheet = document.querySelector('.poster').getBoundingClientRect();
  const title = document.querySelector('.poster-title');
  const inner = document.querySelector('.poster-inner');
  const outside = [...inner.children].filter((el) => {
    const r = el.getBoundingClientRect();
    return r.top < sheet.top - 0.5 || r.bottom > sheet.bottom + 0.5 || r.left < sheet.left - 0.5 || r.right > sheet.right + 0.5;
  }).map((el) => el.className);
  return {
    lines: Math.round(title.getBoundingClientRect().height / parseFloat(getComputedStyle(title).lineHeight)),
    outside,
    overflow: inner.scrollHeight - inner.clientHeight,
    titleOverflow: title.scrollHeight - title.clientHeight,
  };
})()`;

async function poster(width: number, size?: 'a4' | 'a5' | 'a6'): Promise<Page> {
  const { page } = await signedInPage(browser, app, org, { width, next: `${posterPath(org.cards.stamps)}${size ? `?size=${size}` : ''}` });
  return page;
}

describe('counter poster', () => {
  it('is one click from the cards list and from the card editor', async () => {
    const { page } = await signedInPage(browser, app, org, { width: 1280, next: '/console/cards' });
    await page.getByRole('row', { name: /Coffee stamps/ }).getByRole('link', { name: 'Poster' }).click();
    await page.waitForURL(`**${posterPath(org.cards.stamps)}`);
    await page.goto(`${app.url}/console/cards/${org.cards.stamps}`);
    await page.getByRole('link', { name: 'Counter poster' }).click();
    await page.waitForURL(`**${posterPath(org.cards.stamps)}`);
    await page.context().close();
  });

  it('shows the card, the sign-up QR and one line of instructions; the QR on screen decodes to the sign-up link', async () => {
    const page = await poster(390);
    assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Counter poster: Coffee stamps');
    const sheet = page.getByRole('article', { name: 'Poster' });
    assert.equal(await sheet.getByRole('heading', { name: 'Coffee stamps' }).count(), 1);
    assert.match((await sheet.innerText())!, /Scan with your phone's camera to get your loyalty card/);
    assert.match((await sheet.innerText())!, new RegExp(signupLink(org.cards.stamps)));
    assert.equal(await page.getByRole('link', { name: 'Cards', exact: true }).getAttribute('aria-current'), 'page');
    const qr = sheet.getByRole('img', { name: 'QR code of the sign-up link' });
    assert.equal(decodePng(await qr.screenshot()), signupLink(org.cards.stamps));
    await page.context().close();
  });

  for (const { size, width, height } of PAPERS) {
    it(`prints on one ${size.toUpperCase()} page, only the poster, in the card's colours, and the printed QR decodes`, async () => {
      const page = await poster(1280, size);
      assert.equal(await page.getByRole('link', { name: size.toUpperCase(), exact: true }).getAttribute('aria-current'), 'page');
      const pdf = pdfPages(await page.pdf({ preferCSSPageSize: true, printBackground: true }));
      assert.equal(pdf.count, 1);
      assert.ok(Math.abs(pdf.width - width) < 1.5 && Math.abs(pdf.height - height) < 1.5, `${pdf.width} x ${pdf.height} pt`);

      await page.emulateMedia({ media: 'print' });
      assert.equal(await page.getByRole('navigation', { name: 'Console sections' }).isVisible(), false);
      assert.equal(await page.getByRole('link', { name: 'Download QR code (PNG)' }).isVisible(), false);
      const box = (await page.getByRole('article', { name: 'Poster' }).boundingBox())!;
      const mm = 96 / 25.4;
      assert.ok(Math.abs(box.width - { a4: 210, a5: 148, a6: 105 }[size] * mm) < 2, `poster ${box.width}px wide`);
      assert.equal(await page.evaluate("getComputedStyle(document.querySelector('.poster')).backgroundColor"), 'rgb(31, 78, 140)', 'the org colour of a card without its own');
      assert.equal(decodePng(await page.getByRole('img', { name: 'QR code of the sign-up link' }).screenshot()), signupLink(org.cards.stamps));
      await page.context().close();
    });
  }

  for (const { card, sizes, lines } of [
    { card: 'twoLines', sizes: PAPERS, lines: (n: number) => n === 2 },
    { card: 'longest', sizes: PAPERS.filter((p) => p.size === 'a6'), lines: (n: number) => n >= 3 },
  ] as const) {
    for (const { size, width, height } of sizes) {
      it(`fits ${card === 'twoLines' ? 'a two-line card name' : 'a 100-character card name'}, the logo and the reward on one ${size.toUpperCase()} sheet; the printed QR still decodes`, async () => {
        const cardId = longCards[card];
        const { context, page } = await signedInPage(browser, app, bakery, { width: 1280, next: `${posterPath(cardId)}?size=${size}` });
        const pdf = pdfPages(await page.pdf({ preferCSSPageSize: true, printBackground: true }));
        assert.equal(pdf.count, 1);
        assert.ok(Math.abs(pdf.width - width) < 1.5 && Math.abs(pdf.height - height) < 1.5, `${pdf.width} x ${pdf.height} pt`);
        await page.emulateMedia({ media: 'print' });
        const fit = (await page.evaluate(PRINT_FIT)) as { lines: number; outside: string[]; overflow: number; titleOverflow: number };
        assert.ok(lines(fit.lines), `the name takes ${fit.lines} lines`);
        assert.deepEqual(fit.outside, [], 'nothing reaches beyond the sheet');
        assert.ok(fit.overflow <= 1, `the poster's content overflows by ${fit.overflow}px`);
        assert.ok(fit.titleOverflow <= 1, `the name overflows its box by ${fit.titleOverflow}px`);
        assert.equal(await page.getByRole('article', { name: 'Poster' }).getByRole('heading', { level: 2 }).textContent(), LONG_NAMES[card]);
        assert.equal(decodePng(await page.getByRole('img', { name: 'QR code of the sign-up link' }).screenshot()), signupLink(cardId));
        await context.close();
      });
    }
  }

  it('ticks the start checklist only when the owner marks the poster printed, not when the page is opened', async () => {
    const owner = await seedConsoleOrg(app, 'Print Shop Café');
    const { context, page } = await signedInPage(browser, app, owner, { width: 390, next: posterPath(owner.cards.stamps) });
    const printedAt = () => readOrgSettings(app.db, owner.orgId).started.posterPrintedAt;
    assert.equal(printedAt(), null, 'opening the poster is not printing it');
    await page.goto(`${app.url}/console/dashboard`);
    assert.match(await page.getByRole('listitem').filter({ hasText: 'Print the poster' }).innerText(), /to do/);

    await page.goto(`${app.url}${posterPath(owner.cards.stamps)}?size=a5`);
    const now = app.clock.now();
    await page.getByRole('button', { name: 'Printed — mark done' }).click();
    await page.getByRole('status').filter({ hasText: 'Marked as printed' }).waitFor();
    assert.equal(new URL(page.url()).searchParams.get('size'), 'a5', 'back on the paper size it was printed on');
    assert.equal(printedAt(), now);
    await page.goto(`${app.url}/console/dashboard`);
    assert.match(await page.getByRole('listitem').filter({ hasText: 'Print the poster' }).innerText(), /\(done\)/);
    await page.goto(`${app.url}${posterPath(owner.cards.stamps)}`);
    assert.equal(await page.getByRole('button', { name: 'Printed — mark done' }).count(), 0, 'asked once');
    await context.close();
  });

  it('the PNG and SVG downloads decode to the sign-up link', async () => {
    const page = await poster(1280);
    const png = await page.request.get(`${app.url}${posterPath(org.cards.stamps)}/qr.png`);
    assert.equal(png.status(), 200);
    assert.equal(png.headers()['content-type'], 'image/png');
    assert.equal(png.headers()['content-disposition'], 'attachment; filename="Coffee-stamps-sign-up-QR.png"');
    const bytes = await png.body();
    assert.equal(PNG.sync.read(bytes).width, 1024);
    assert.equal(decodePng(bytes), signupLink(org.cards.stamps));

    const svg = await page.request.get(`${app.url}${posterPath(org.cards.stamps)}/qr.svg`);
    assert.equal(svg.headers()['content-type'], 'image/svg+xml');
    assert.match(svg.headers()['content-disposition']!, /filename="Coffee-stamps-sign-up-QR\.svg"/);
    // Drawn by the browser from the downloaded file itself, then read from its pixels.
    const view = await page.context().newPage();
    await view.setViewportSize({ width: 1100, height: 1100 });
    await view.setContent(`<body style="margin:0;background:#fff">${await svg.text()}</body>`);
    assert.equal(decodePng(await view.locator('svg').screenshot()), signupLink(org.cards.stamps));
    await page.context().close();
  });

  it('a card without data collection explains that its sign-up is off, and has no QR to download', async () => {
    const { context, page } = await signedInPage(browser, app, org, { next: posterPath(org.cards.points) });
    assert.match((await page.getByRole('status').innerText())!, /Online sign-up is off for this card/);
    assert.equal(await page.getByRole('img').count(), 0);
    const png = await page.request.get(`${app.url}${posterPath(org.cards.points)}/qr.png`);
    assert.equal(png.status(), 409);
    assert.match(await png.text(), /Online sign-up is off for Points/);
    await context.close();
  });

  it("another org's card and an unknown card are not found; without a session it is the sign-in page", async () => {
    const client = new ConsoleClient(app);
    const anonymous = await client.request('GET', posterPath(org.cards.stamps));
    assert.equal(anonymous.status, 303);
    assert.match(anonymous.headers.get('location')!, /^\/console\/sign-in\?next=/);
    await client.signIn(org.admin.email, org.admin.password);
    for (const path of [posterPath(other.cards.stamps), `${posterPath(other.cards.stamps)}/qr.png`, posterPath('card_doesNotExist')]) {
      const res = await client.request('GET', path);
      assert.equal(res.status, 404, path);
      assert.match(res.text, /There is no such card in your business/);
      assert.doesNotMatch(res.text, /Coffee stamps/);
    }
  });
});

describe('settings: the sign-up form panel', () => {
  it('edits the consent text and the privacy link; a link that is not a full web address is refused, nothing saved', async () => {
    const { context, page } = await signedInPage(browser, app, org, { next: '/console/settings' });
    const panel = page.getByRole('region', { name: 'Sign-up form' });
    const text = panel.getByLabel('Agreement customers tick');
    const link = panel.getByLabel('Privacy policy link');
    for (const bad of ['javascript:alert(1)', '/privacy', 'ftp://shop.example/privacy']) {
      await text.fill('I agree to the Corner Café keeping my details for my card.');
      await link.fill(bad);
      await panel.getByRole('button', { name: 'Save sign-up form' }).click();
      await page.locator('#f-privacyUrl-error').waitFor();
      assert.equal(await page.locator('#f-privacyUrl-error').textContent(), 'Enter a full web address starting with https://');
      assert.equal(await page.getByLabel('Privacy policy link').getAttribute('aria-invalid'), 'true');
      assert.equal(await page.getByLabel('Privacy policy link').inputValue(), bad);
    }
    await page.getByLabel('Agreement customers tick').fill('   ');
    await page.getByLabel('Privacy policy link').fill('');
    await page.getByRole('button', { name: 'Save sign-up form' }).click();
    assert.equal(await page.locator('#f-consentText-error').textContent(), 'Write the sentence customers agree to.');
    const stored = () => JSON.parse((app.db.prepare('SELECT settings FROM orgs WHERE id = ?').get(org.orgId) as { settings: string | null }).settings ?? '{}').signup;
    // Opening the poster above stored the settings document with its defaults; the refused form changed none of it.
    assert.ok(stored() === undefined || (stored().consentText === DEFAULT_CONSENT_TEXT && stored().privacyUrl === null), 'nothing saved');

    await page.getByLabel('Agreement customers tick').fill('I agree to the Corner Café keeping my details for my card.');
    await page.getByLabel('Privacy policy link').fill('https://corner.example/privacy');
    await page.getByRole('button', { name: 'Save sign-up form' }).click();
    await page.getByRole('status').filter({ hasText: 'Sign-up form saved.' }).waitFor();
    assert.deepEqual(stored(), { consentText: 'I agree to the Corner Café keeping my details for my card.', privacyUrl: 'https://corner.example/privacy' });

    // The customer's form shows them.
    const form = await context.newPage();
    await form.goto(`${app.url}/get-pass/${org.cards.stamps}`);
    assert.equal(await form.getByRole('checkbox', { name: 'I agree to the Corner Café keeping my details for my card.' }).count(), 1);
    const policy = form.getByRole('link', { name: 'Read the privacy policy' });
    assert.equal(await policy.getAttribute('href'), 'https://corner.example/privacy');
    assert.equal(await policy.getAttribute('rel'), 'noopener noreferrer');
    await context.close();
  });
});
