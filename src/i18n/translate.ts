import IntlMessageFormat from 'intl-messageformat';
import consoleDe from './catalogues/console-de';
import consoleEn, { type ConsoleKey } from './catalogues/console-en';
import de from './catalogues/de';
import en, { type MessageKey } from './catalogues/en';
import es from './catalogues/es';
import fr from './catalogues/fr';
import it from './catalogues/it';
import nl from './catalogues/nl';
import { localeOf, type ConsoleLang, type Lang } from './langs';

// Messages by key, in a language: `t('de', 'pass.level')`. Each message is ICU MessageFormat,
// compiled by intl-messageformat the first time it is used in a language and kept (a few hundred
// small objects at most). The result is plain text: templates escape it like any other value.

export type { ConsoleKey, MessageKey };

/** Values for a message's {arguments}: text, or numbers for {n, number} and {n, plural, …}. */
export type MessageParams = Readonly<Record<string, string | number>>;

export const CATALOGUES: Readonly<Record<Lang, Readonly<Record<MessageKey, string>>>> = { en, de, fr, es, it, nl };
export const CONSOLE_CATALOGUES: Readonly<Record<ConsoleLang, Readonly<Record<ConsoleKey, string>>>> = { en: consoleEn, de: consoleDe };

function compiler<K extends string>(catalogues: Readonly<Record<string, Readonly<Record<K, string>>>>) {
  const compiled = new Map<string, Map<K, IntlMessageFormat>>();
  return (lang: Lang, key: K, params?: MessageParams): string => {
    let ofLang = compiled.get(lang);
    if (!ofLang) compiled.set(lang, (ofLang = new Map()));
    let message = ofLang.get(key);
    if (!message) {
      const source = catalogues[lang]?.[key];
      // The types rule this out; a key from outside them (a typo in a cast) is a bug to see at once.
      if (source === undefined) throw new Error(`i18n: no message "${key}" in ${lang}`);
      ofLang.set(key, (message = new IntlMessageFormat(source, localeOf(lang))));
    }
    // Without rich-text tags every part is text, so the result is one string.
    return message.format(params) as string;
  };
}

const customerMessage = compiler(CATALOGUES);
const consoleMessage = compiler(CONSOLE_CATALOGUES);

/** A customer's or staff member's message in `lang`. A missing argument throws (a bug, caught by tests). */
export function t(lang: Lang, key: MessageKey, params?: MessageParams): string {
  return customerMessage(lang, key, params);
}

/** A console message in the admin's language (English or German). */
export function tConsole(lang: ConsoleLang, key: ConsoleKey, params?: MessageParams): string {
  return consoleMessage(lang, key, params);
}
