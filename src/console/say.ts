import type { ConsoleLang } from '../i18n/langs';
import { tConsole, type ConsoleKey, type MessageParams } from '../i18n/translate';
import type { Reason } from '../lib/errors';
import type { FormErrors } from '../web/forms';
import { html, Markup } from '../web/html';
import { reasonWords } from './refusals';

// A console sentence with markup inside it ("Set <code>PUBLIC_URL</code> first: <a>how to go
// live</a>."): the whole sentence is one catalogue message, so each language orders its words
// itself, and the markup pieces are its arguments. The text around them is escaped as usual.

const OPEN = '\u{E000}';
const CLOSE = '\u{E001}';

/** `tConsole` whose arguments may be markup (a link, a <code>, a <strong>); the result is markup. */
export function sayMarkup(lang: ConsoleLang, key: ConsoleKey, params: Readonly<Record<string, string | number | Markup>>): Markup {
  const pieces: Markup[] = [];
  const text: Record<string, string | number> = {};
  for (const [name, value] of Object.entries(params)) {
    if (value instanceof Markup) {
      text[name] = `${OPEN}${pieces.length}${CLOSE}`;
      pieces.push(value);
    } else text[name] = value;
  }
  const parts = tConsole(lang, key, text).split(new RegExp(`${OPEN}(\\d+)${CLOSE}`));
  // split with a group: even indexes are text, odd ones the number of a markup piece.
  return html`${parts.map((part, i) => (i % 2 === 0 ? part : pieces[Number(part)]))}`;
}

/**
 * Form errors from a schema shared with the API (whose messages are English) in the admin's
 * language: each known message is looked up in `table`, else worded from its reason (refusals.ts);
 * one with neither is shown as it is (it may be the console's own words).
 */
export function errorsInLang<E extends FormErrors>(
  errors: E,
  lang: ConsoleLang,
  table: Readonly<Record<string, ConsoleKey | readonly [ConsoleKey, MessageParams]>>,
): E {
  if (lang === 'en') return errors;
  const say = (message: string, reason: Reason | undefined) => {
    const entry = table[message];
    if (!entry) return reasonWords(lang, reason) ?? message;
    return typeof entry === 'string' ? tConsole(lang, entry) : tConsole(lang, entry[0], entry[1]);
  };
  const fields: Record<string, string> = {};
  for (const [name, message] of Object.entries(errors.fields)) fields[name] = say(message, errors.reasons?.fields[name]);
  return { ...errors, fields, ...(errors.form === undefined ? {} : { form: say(errors.form, errors.reasons?.form) }) };
}
