import type { ConsoleKey, MessageParams } from '../i18n/translate';
import { tConsole } from '../i18n/translate';
import type { ConsoleLang } from '../i18n/langs';
import { html, type Markup } from '../web/html';

// A console sentence with markup (a link, a styled name) in the place of one of its arguments.
// The sentence stays whole in the catalogue, so each language puts the argument where it belongs
// ("Edit Coffee stamps" / "Kaffee-Stempel bearbeiten"); the markup is spliced in where it landed.

const SLOT = '\u0000';

/** `key` in `lang`, with `markup` where the argument `slot` stands; every other part escaped as text. */
export function messageWith(lang: ConsoleLang, key: ConsoleKey, slot: string, markup: Markup, params: MessageParams = {}): Markup {
  const parts = tConsole(lang, key, { ...params, [slot]: SLOT }).split(SLOT);
  return html`${parts.map((part, i) => (i === 0 ? html`${part}` : html`${markup}${part}`))}`;
}

/** The console's messages in one admin's language: `const m = consoleText(c.lang); m('console.cards.title')`. */
export const consoleText =
  (lang: ConsoleLang) =>
  (key: ConsoleKey, params?: MessageParams): string =>
    tConsole(lang, key, params);

/** `key` in `lang` with markup in the place of several arguments: `{ file: html`<strong>…</strong>`, … }`. */
export function messageMarkup(lang: ConsoleLang, key: ConsoleKey, slots: Readonly<Record<string, Markup>>, params: MessageParams = {}): Markup {
  const names = Object.keys(slots);
  const tokens = Object.fromEntries(names.map((name, i) => [name, `${SLOT}${i}${SLOT}`]));
  const parts = tConsole(lang, key, { ...params, ...tokens }).split(new RegExp(`${SLOT}(\\d+)${SLOT}`));
  // split with a group: text, slot index, text, slot index, … text
  return html`${parts.map((part, i) => (i % 2 === 0 ? html`${part}` : slots[names[Number(part)]!]!))}`;
}
