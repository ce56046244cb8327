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
    slug: 'messages',
    title: 'Messages',
    body: html`<p>Write to the customers of a card: everyone, one level, those who came recently, those who have not come for a while, or those with enough stamps, points or credit. The count under the choice says how many customers (and passes) it reaches before you send. To write to one customer, open them under Customers and use <strong>Send a message</strong>.</p>
<p>iPhones show the message on the lock screen and keep it on the back of the pass. Google Wallet shows it on the pass and notifies at most 3 times a day per pass; after that it appears without a notification. The web pass shows it on top. A pass always shows your latest message; the same words sent again notify nobody.</p>
<p>A customer gets at most one message of this page a day (your shop's calendar): those who already got one are left out and not counted. Messages to one customer are not limited.</p>`,
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
<p><strong>Counter</strong>: when it locks, daily caps per staff member and customer, and the award size above which staff confirm.</p>
<p><strong>Locations</strong>: where your shop is, up to 10 places. Paste a link from Google Maps or OpenStreetMap (or type the coordinates). An iPhone then shows the card on the lock screen near your shop, with the text you choose.</p>`,
  },
];

export const helpPage = (slug: string) => HELP_PAGES.find((p) => p.slug === slug);
