// The languages customers and staff are spoken to in, and the console's two. A language is a
// plain code ('de'); the locale Intl formats with is the language's own country (de → de-DE),
// and English is formatted as in Britain (31 Jan, not Jan 31), as the rest of the product writes.

export const LANGS = ['en', 'de', 'fr', 'es', 'it', 'nl'] as const;
export type Lang = (typeof LANGS)[number];

/** The console is in English and German: each admin chooses. */
export const CONSOLE_LANGS = ['en', 'de'] as const;
export type ConsoleLang = (typeof CONSOLE_LANGS)[number];

export const isLang = (value: unknown): value is Lang => typeof value === 'string' && (LANGS as readonly string[]).includes(value);
export const isConsoleLang = (value: unknown): value is ConsoleLang => typeof value === 'string' && (CONSOLE_LANGS as readonly string[]).includes(value);

/** Each language in its own words: what a language switcher and a settings list show, whatever the page's language. */
export const LANG_NAMES: Readonly<Record<Lang, string>> = {
  en: 'English',
  de: 'Deutsch',
  fr: 'Français',
  es: 'Español',
  it: 'Italiano',
  nl: 'Nederlands',
};

const LOCALES: Readonly<Record<Lang, string>> = { en: 'en-GB', de: 'de-DE', fr: 'fr-FR', es: 'es-ES', it: 'it-IT', nl: 'nl-NL' };

/** The locale Intl formats a language's dates, numbers and plurals with. */
export const localeOf = (lang: Lang): string => LOCALES[lang];
