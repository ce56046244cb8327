import type { ClientCountedName, ClientTextName, ClientTexts } from '../client-texts-shape';

// The script's texts, in the page's language: the server writes them into the page
// (client-texts.ts) from the catalogues, so nothing is translated here. `{name}` arguments are
// filled in; a counted message comes in one variant per plural category, picked by Intl.PluralRules.

let loaded: ClientTexts | null = null;

function texts(): ClientTexts {
  if (!loaded) {
    const block = document.getElementById('counter-texts');
    loaded = JSON.parse(block?.textContent ?? '{}') as ClientTexts;
  }
  return loaded;
}

const fill = (text: string, params: Record<string, string>) => text.replace(/\{(\w+)\}/g, (whole, name: string) => params[name] ?? whole);

/** A message with its arguments filled in. */
export function say(name: ClientTextName, params: Record<string, string> = {}): string {
  return fill(texts().texts?.[name] ?? name, params);
}

/** A message about `count` things, in the variant the language uses for that number. */
export function sayCount(name: ClientCountedName, count: number, params: Record<string, string> = {}): string {
  const { locale, counted } = texts();
  const variants = counted?.[name] ?? {};
  const text = variants[new Intl.PluralRules(locale).select(count)] ?? variants.other ?? name;
  return fill(text, { ...params, n: new Intl.NumberFormat(locale).format(count) });
}

/** "Sam", "Sam and Alex", as the page's language lists names. */
export const listOf = (names: string[]) => new Intl.ListFormat(texts().locale, { type: 'conjunction' }).format(names);
