import { html, type Markup } from '../../web/html';

// Short help for each section of the console, written for a shop owner: what the page is for and
// the few things worth knowing. Served by this process (console/help/routes.ts), no web access.
// A feature adds its page here; the console's Help link opens the current section's page.

export interface HelpPage {
  slug: string;
  title: string;
  body: Markup;
}

export const HELP_PAGES: readonly HelpPage[] = [
  {
    slug: 'dashboard',
    title: 'Dashboard',
    body: html`<p>Today and the last 30 days of your shop: stamps, points and credit awarded, rewards redeemed and new customers, by channel and by staff member. Days follow the time zone in Settings.</p>
<p>An award counts once, where it was made. An entry undone at the counter counts nowhere: not as awarded, and its undo not as a correction. The Staff page and its CSV count the same way.</p>
<p><strong>Unusual days</strong> lists a staff member or a customer who reached a daily cap (or, without a customer cap, 5 counter awards in a day), and every single award larger than the size staff must confirm (Settings, Counter).</p>
<p>The <strong>Getting started</strong> list ticks itself as you do each step; it folds away once all are done.</p>`,
  },
  {
    slug: 'cards',
    title: 'Cards',
    body: html`<p>A card is your loyalty programme: a stamp card, a point card, a card with levels, or prepaid credit. Each customer has one pass of one card.</p>
<p><strong>Questions</strong> on the sign-up form need only the question and, for a choice, the choices. The names an integration uses (keys and stored values) are made from them and stay the same once saved; see them under “Advanced”.</p>
<p><strong>Archive</strong> a card you no longer offer: sign-up closes and the counter stops offering it, while its customers keep their passes. <strong>Delete</strong> is only for a card no real customer has, such as the demo cards.</p>
<p>Colours: the pass's text must stand out from its background. The editor warns when the contrast is below 4.5 : 1, the accessibility guideline for normal text.</p>
<p><strong>Rewards</strong>: up to 20 on a stamp or point card, saved from the cheapest up; the cheapest is the one given when nobody picks another. <strong>Expiry</strong> is never retroactive: what customers were given before you switch it on never expires. A <strong>birthday treat</strong> uses one of the card's date questions; a birthday entered or changed within 30 days before it earns nothing that year.</p>
<p><strong>Promotions</strong> (on the card's page): double stamps on Tuesday afternoons, two more all weekend. The page shows what runs now and on each of the next 14 days, in your shop's time zone. They are changed with live data only, since they run for your real customers.</p>`,
  },
  {
    slug: 'customers',
    title: 'Customers',
    body: html`<p>Everyone who holds one of your cards. Search by name, email, phone (with or without the country code), external id or pass code.</p>
<p><strong>Status</strong>: “Pass installed” when Apple or Google Wallet holds the pass, “Uses the web pass” when the customer opened their card in the browser, “Not installed yet” otherwise.</p>
<p>Test customers (from test API keys and the counter's test data) are kept apart and removed after 30 days.</p>`,
  },
  {
    slug: 'report',
    title: 'Report (the books)',
    body: html`<p>For your accountant: the books of one card for one month of your calendar (the time zone in Settings). Points and stamps customers have not redeemed yet are something the shop still owes; the report says how much, and how it moved. Live data only.</p>
<p><strong>Opening balance</strong>: what all customers of the card held when the month began. <strong>Earned</strong>: awards through the API and at the counter, with what promotions added shown on its own line (part of Earned). <strong>Birthday treats</strong>: what birthdays gave. <strong>Imported</strong>: balances new customers brought with them (a CSV import, or an opening balance given when they were enrolled). <strong>Corrections</strong>: changes made by hand, those that added and those that took off apart. <strong>Redeemed</strong>: rewards and points spent. <strong>Expired</strong>: what expiry took. <strong>Closing balance</strong>: what they held when the month ended.</p>
<p>Every change of a balance is in exactly one line. An entry undone at the counter is taken back out of the line of what it undid (an undone award lowers Earned, even in the month after). Opening balance plus the lines between = closing balance, and the closing balance is the sum of every customer's balance, including customers whose personal data was deleted: the shop still owes what they held.</p>
<p><strong>Money</strong>: give a stamp or point a value in the card's settings (for example 0.05 per point) and the report shows each line in money too, rounded to the cent; store credit is money already. The CSV has both.</p>
<p>The same report comes from the command line: <code>wallet-loyalty report --org &lt;orgId&gt; --month 2026-03 [--card &lt;cardId&gt;] [--csv]</code>.</p>`,
  },
  {
    slug: 'watch-list',
    title: 'Watch list',
    body: html`<p>A customer awarded more often in one day than their card allows before it flags them (6 a day unless you set another number for the card) is listed here with each of that day's awards: when, through which channel (counter, API, console) and by which staff member. Awards through every channel count; an award undone at the counter does not.</p>
<p>Nothing is blocked: the list is there so you can look, and talk to your staff or the customer if something is wrong. To stop awards at the counter, set a daily cap per customer in Settings, Counter.</p>
<p>The dashboard shows how many customers are on today's list. Days follow your time zone (Settings); test data has its own list.</p>`,
  },
  {
    slug: 'keys',
    title: 'API keys',
    body: html`<p>For a till, a website or an app that awards and looks up customers by itself. A key is shown once when it is made: copy it into that system then.</p>
<p>Test keys work on test customers only; use them to try an integration without touching real balances.</p>`,
  },
  {
    slug: 'webhooks',
    title: 'Webhooks',
    body: html`<p>Addresses of your other systems that are told when something happens (a customer joins, a balance changes). Each delivery is signed and retried; the history shows every attempt.</p>`,
  },
  {
    slug: 'staff',
    title: 'Staff and the counter',
    body: html`<p>Staff unlock the counter on the shop's tablet with their own PIN. Everything they award, redeem or undo is recorded under their name.</p>
<p>A large award (more than 10 stamps unless you set another size in Settings) asks the staff member to confirm it, with the customer's name and the amount.</p>
<p>After five wrong PINs a device pauses unlocking for 15 minutes. If it was one of your staff mistyping, lift the pause under <strong>Paused counters</strong> on the Staff page; the PIN screen names the device.</p>
<p>Staff can undo their own entries for 5 minutes. Counter activity and its CSV count an undone entry nowhere.</p>`,
  },
  {
    slug: 'settings',
    title: 'Settings',
    body: html`<p><strong>Time zone</strong>: type a city or a country and pick from the list; it decides when your days start on the dashboard and for the daily caps.</p>
<p><strong>Country</strong>: a phone number typed without its country code (0151 2345678), on the sign-up form, at the counter, in the console or in an imported file, is read as a number of this country and kept with the code; an amount such as 1.000 in an imported file is read as this country writes it. Empty: the time zone's country.</p>
<p><strong>Counter</strong>: when it locks, daily caps per staff member and customer, and the award size above which staff confirm.</p>`,
  },
];

export const helpPage = (slug: string) => HELP_PAGES.find((p) => p.slug === slug);
