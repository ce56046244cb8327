import type { ConsoleLang } from '../i18n/langs';
import { tConsole, type ConsoleKey, type MessageParams } from '../i18n/translate';
import type { Markup } from '../web/html';
import { sayMarkup } from './say';

// Shorthands the card, customer and poster pages use over sayMarkup (say.ts), the one way a whole
// catalogue sentence takes markup (a link, a styled name) in the place of its arguments.

/** `key` in `lang`, with `markup` where the argument `slot` stands; every other part escaped as text. */
export function messageWith(lang: ConsoleLang, key: ConsoleKey, slot: string, markup: Markup, params: MessageParams = {}): Markup {
  return sayMarkup(lang, key, { ...params, [slot]: markup });
}

/** The console's messages in one admin's language: `const m = consoleText(c.lang); m('console.cards.title')`. */
export const consoleText =
  (lang: ConsoleLang) =>
  (key: ConsoleKey, params?: MessageParams): string =>
    tConsole(lang, key, params);

/** `key` in `lang` with markup in the place of several arguments: `{ file: html`<strong>…</strong>`, … }`. */
export function messageMarkup(lang: ConsoleLang, key: ConsoleKey, slots: Readonly<Record<string, Markup>>, params: MessageParams = {}): Markup {
  return sayMarkup(lang, key, { ...params, ...slots });
}
