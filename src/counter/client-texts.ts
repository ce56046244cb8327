import { localeOf, type Lang } from '../i18n/langs';
import { t } from '../i18n/translate';
import { COUNTED, TEXTS, type ClientTexts } from './client-texts-shape';
import { html, jsonForScript, raw, type Markup } from '../web/html';

// The texts the counter's browser script says (offline notices, camera messages, the offline
// queue), in the page's language. The server writes them into the page as a JSON block the script
// reads: the catalogues stay the one source, and the browser translates nothing. Arguments stay
// as `{name}` for the script to fill in; a message with a count comes as one variant per plural
// category of the language, and the script picks one with Intl.PluralRules.

const placeholders = (names: readonly string[]) => Object.fromEntries(names.map((name) => [name, `{${name}}`]));

/** A number the language files under `category` (French "many": a million). */
function sampleOf(plurals: Intl.PluralRules, category: Intl.LDMLPluralRule): number | undefined {
  for (const n of [...Array(200).keys(), 1_000_000]) if (plurals.select(n) === category) return n;
  return undefined;
}

const built = new Map<Lang, ClientTexts>();

export type { ClientTexts };

export function clientTexts(lang: Lang): ClientTexts {
  const known = built.get(lang);
  if (known) return known;
  const plurals = new Intl.PluralRules(localeOf(lang));
  const texts = Object.fromEntries(Object.entries(TEXTS).map(([name, [key, args]]) => [name, t(lang, key, placeholders(args))])) as ClientTexts['texts'];
  const counted = Object.fromEntries(
    Object.entries(COUNTED).map(([name, [key, args]]) => {
      const variants: Partial<Record<Intl.LDMLPluralRule, string>> = {};
      for (const category of plurals.resolvedOptions().pluralCategories) {
        const count = sampleOf(plurals, category);
        if (count !== undefined) variants[category] = t(lang, key, { ...placeholders(args), n: '{n}', count });
      }
      return [name, variants];
    }),
  ) as ClientTexts['counted'];
  const result = { lang, locale: localeOf(lang), texts, counted };
  built.set(lang, result);
  return result;
}

/** The block the page carries for its script. */
export function clientTextsBlock(lang: Lang): Markup {
  return html`<script type="application/json" id="counter-texts">${raw(jsonForScript(clientTexts(lang)))}</script>`;
}
