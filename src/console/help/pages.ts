import type { ConsoleLang } from '../../i18n/langs';
import { tConsole, type ConsoleKey } from '../../i18n/translate';
import { html, type Markup } from '../../web/html';
import { sayMarkup } from '../say';

// Short help for each section of the console, written for a shop owner: what the page is for and
// the few things worth knowing. Served by this process (console/help/routes.ts), no web access.
// A feature adds its page here; the console's Help link opens the current section's page. Each
// paragraph is one console catalogue message (English and German); the words it shows in bold are
// its arguments, so each language places them itself.

interface HelpParagraph {
  text: ConsoleKey;
  /** Arguments of `text` shown in bold, each a message of its own. */
  strong?: Readonly<Record<string, ConsoleKey>>;
}

export interface HelpPage {
  slug: string;
  title: ConsoleKey;
  paragraphs: readonly HelpParagraph[];
}

export const HELP_PAGES: readonly HelpPage[] = [
  {
    slug: 'dashboard',
    title: 'console.nav.dashboard',
    paragraphs: [
      { text: 'console.help.dashboard.1' },
      { text: 'console.help.dashboard.2' },
      { text: 'console.help.dashboard.3', strong: { term: 'console.help.dashboard.unusual' } },
      { text: 'console.help.dashboard.4', strong: { term: 'console.checklist.title' } },
    ],
  },
  {
    slug: 'cards',
    title: 'console.nav.cards',
    paragraphs: [
      { text: 'console.help.cards.1' },
      { text: 'console.help.cards.2', strong: { term: 'console.help.cards.questions' } },
      { text: 'console.help.cards.3', strong: { archive: 'console.help.cards.archive', delete: 'console.help.cards.delete' } },
      { text: 'console.help.cards.4' },
      { text: 'console.help.cards.5', strong: { rewards: 'console.help.cards.rewards', expiry: 'console.help.cards.expiry', birthday: 'console.help.cards.birthday' } },
      { text: 'console.help.cards.6', strong: { term: 'console.help.cards.promotions' } },
    ],
  },
  {
    slug: 'customers',
    title: 'console.nav.customers',
    paragraphs: [
      { text: 'console.help.customers.1' },
      { text: 'console.help.customers.2', strong: { term: 'console.help.customers.status' } },
      { text: 'console.help.customers.3' },
    ],
  },
  {
    slug: 'messages',
    title: 'console.nav.messages',
    paragraphs: [
      { text: 'console.help.messages.1', strong: { button: 'console.messages.customer.button' } },
      { text: 'console.help.messages.2' },
      { text: 'console.help.messages.3' },
    ],
  },
  {
    slug: 'report',
    title: 'console.help.report.title',
    paragraphs: [
      { text: 'console.help.report.1' },
      {
        text: 'console.help.report.2',
        strong: {
          opening: 'console.report.line.opening',
          earned: 'console.report.line.earned',
          birthday: 'console.report.line.birthday',
          imported: 'console.report.line.imported',
          corrections: 'console.help.report.corrections',
          redeemed: 'console.report.line.redeemed',
          expired: 'console.report.line.expired',
          closing: 'console.report.line.closing',
        },
      },
      { text: 'console.help.report.3' },
      { text: 'console.help.report.4', strong: { money: 'console.report.column.money' } },
      { text: 'console.help.report.5', strong: { command: 'console.help.report.command' } },
    ],
  },
  {
    slug: 'watch-list',
    title: 'console.nav.watchList',
    paragraphs: [{ text: 'console.help.watchList.1' }, { text: 'console.help.watchList.2' }, { text: 'console.help.watchList.3' }],
  },
  {
    slug: 'keys',
    title: 'console.nav.keys',
    paragraphs: [{ text: 'console.help.keys.1' }, { text: 'console.help.keys.2' }],
  },
  {
    slug: 'webhooks',
    title: 'console.nav.webhooks',
    paragraphs: [{ text: 'console.help.webhooks.1' }],
  },
  {
    slug: 'staff',
    title: 'console.help.staff.title',
    paragraphs: [
      { text: 'console.help.staff.1' },
      { text: 'console.help.staff.2' },
      { text: 'console.help.staff.3', strong: { term: 'console.pauses.title' } },
      { text: 'console.help.staff.4' },
    ],
  },
  {
    slug: 'settings',
    title: 'console.nav.settings',
    paragraphs: [
      { text: 'console.help.settings.1', strong: { term: 'console.settings.timeZone' } },
      { text: 'console.help.settings.2', strong: { term: 'console.settings.country' } },
      { text: 'console.help.settings.3', strong: { term: 'console.counterSettings.title' } },
      { text: 'console.help.settings.4', strong: { term: 'console.settingsNav.locations' } },
    ],
  },
];

export const helpPage = (slug: string) => HELP_PAGES.find((p) => p.slug === slug);

/** A help page's text in the admin's language. */
export function helpBody(page: HelpPage, lang: ConsoleLang): Markup {
  return html`${page.paragraphs.map((p) => {
    const strong = Object.fromEntries(Object.entries(p.strong ?? {}).map(([name, key]) => [name, html`<strong>${tConsole(lang, key)}</strong>`]));
    return html`<p>${sayMarkup(lang, p.text, strong)}</p>
`;
  })}`;
}
