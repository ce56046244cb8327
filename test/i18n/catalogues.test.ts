import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { CATALOGUES, CONSOLE_CATALOGUES, t } from '../../src/i18n/translate';
import { CONSOLE_LANGS, LANGS, localeOf, type Lang } from '../../src/i18n/langs';

// Every catalogue has every key of the English one and no other, no empty message, and the same
// ICU arguments as English: the same names, of the same kinds, selects with the same options, and
// plurals only with categories the language has. Apple's %@ stays wherever English has it. Each
// message then formats with sample values into plain text.

type Catalogue = Readonly<Record<string, string>>;

/** name → kinds ("argument", "number", "plural", "select:a|b|other", …) the message uses it as. */
function argumentsOf(elements: MessageFormatElement[], into = new Map<string, Set<string>>(), plurals: string[][] = []): Map<string, Set<string>> {
  const add = (name: string, kind: string) => {
    if (!into.has(name)) into.set(name, new Set());
    into.get(name)!.add(kind);
  };
  for (const el of elements) {
    if (el.type === TYPE.literal || el.type === TYPE.pound) continue;
    if (el.type === TYPE.tag) {
      add(el.value, 'tag');
      argumentsOf(el.children, into, plurals);
    } else if (el.type === TYPE.select) {
      add(el.value, `select:${Object.keys(el.options).sort().join('|')}`);
      for (const option of Object.values(el.options)) argumentsOf(option.value, into, plurals);
    } else if (el.type === TYPE.plural) {
      add(el.value, el.pluralType === 'ordinal' ? 'selectordinal' : 'plural');
      plurals.push(Object.keys(el.options));
      for (const option of Object.values(el.options)) argumentsOf(option.value, into, plurals);
    } else {
      add(el.value, TYPE[el.type]);
    }
  }
  return into;
}

const describeArgs = (args: Map<string, Set<string>>) =>
  [...args].map(([name, kinds]) => `${name}: ${[...kinds].sort().join(', ')}`).sort().join('; ');

/** Sample values for a message's arguments: a number where it is counted, the first select option, text otherwise. */
function samples(args: Map<string, Set<string>>): Record<string, string | number> {
  const values: Record<string, string | number> = {};
  for (const [name, kinds] of args) {
    const kind = [...kinds][0]!;
    values[name] = kind.startsWith('select:') ? kind.slice(7).split('|')[0]! : kind === 'argument' ? `‹${name}›` : 2;
  }
  return values;
}

/** What is wrong with `catalogue` (in `lang`) against the English `source`; empty when nothing. */
function problems(source: Catalogue, catalogue: Catalogue, lang: Lang): string[] {
  const found: string[] = [];
  const categories = new Set(new Intl.PluralRules(localeOf(lang)).resolvedOptions().pluralCategories);
  for (const key of Object.keys(source)) if (!(key in catalogue)) found.push(`${key}: missing`);
  for (const key of Object.keys(catalogue)) if (!(key in source)) found.push(`${key}: not in English`);
  for (const [key, text] of Object.entries(catalogue)) {
    if (!(key in source)) continue;
    if (text.trim() === '') {
      found.push(`${key}: empty`);
      continue;
    }
    let elements: MessageFormatElement[];
    try {
      elements = parse(text);
    } catch (err) {
      found.push(`${key}: not ICU MessageFormat (${(err as Error).message})`);
      continue;
    }
    const plurals: string[][] = [];
    const args = argumentsOf(elements, new Map(), plurals);
    const expected = describeArgs(argumentsOf(parse(source[key]!)));
    if (describeArgs(args) !== expected) found.push(`${key}: arguments ${describeArgs(args) || 'none'}, English has ${expected || 'none'}`);
    for (const option of plurals.flat()) {
      if (!option.startsWith('=') && !categories.has(option as Intl.LDMLPluralRule)) found.push(`${key}: plural category "${option}" does not exist in ${lang}`);
    }
    if (source[key]!.split('%@').length !== text.split('%@').length) found.push(`${key}: Apple's %@ as often as in English`);
  }
  return found;
}

describe('catalogues', () => {
  for (const lang of LANGS) {
    it(`${lang}: every English key, no other, same ICU arguments, no empty message`, () => {
      assert.deepEqual(problems(CATALOGUES.en, CATALOGUES[lang], lang), []);
    });
  }
  for (const lang of CONSOLE_LANGS) {
    it(`console-${lang}: every English console key, no other, same ICU arguments, no empty message`, () => {
      assert.deepEqual(problems(CONSOLE_CATALOGUES.en, CONSOLE_CATALOGUES[lang], lang), []);
    });
  }

  it('every message formats with sample values into plain text in every language', () => {
    for (const lang of LANGS) {
      for (const [key, text] of Object.entries(CATALOGUES[lang])) {
        const out = t(lang, key as keyof typeof CATALOGUES.en, samples(argumentsOf(parse(text))));
        assert.ok(out.trim().length > 0 && !/[{}]/.test(out), `${lang} ${key}: ${out}`);
      }
    }
  });

  it('the check finds each kind of fault', () => {
    const source = { a: 'Hello {name}', b: '{n, plural, one {# stamp} other {# stamps}}', c: 'Now %@.', d: '{k, select, stamp {S} other {P}}' };
    const table: { name: string; catalogue: Catalogue; expect: RegExp }[] = [
      { name: 'a missing key', catalogue: { b: source.b, c: source.c, d: source.d }, expect: /^a: missing$/ },
      { name: 'an extra key', catalogue: { ...source, e: 'x' }, expect: /^e: not in English$/ },
      { name: 'an empty message', catalogue: { ...source, a: ' ' }, expect: /^a: empty$/ },
      { name: 'a renamed argument', catalogue: { ...source, a: 'Hallo {nom}' }, expect: /^a: arguments nom: argument, English has name: argument$/ },
      { name: 'an argument of another kind', catalogue: { ...source, a: 'Hallo {name, number}' }, expect: /^a: arguments name: number/ },
      { name: 'a lost argument in a quote', catalogue: { ...source, a: "Hallo '{name}'" }, expect: /^a: arguments none/ },
      { name: 'a select with other options', catalogue: { ...source, d: '{k, select, stempel {S} other {P}}' }, expect: /^d: arguments k: select:other\|stempel/ },
      { name: 'a plural category the language lacks', catalogue: { ...source, b: '{n, plural, one {# Stempel} few {# x} other {# Stempel}}' }, expect: /^b: plural category "few" does not exist in de$/ },
      { name: 'a lost %@', catalogue: { ...source, c: 'Jetzt.' }, expect: /^c: Apple's %@/ },
      { name: 'broken ICU', catalogue: { ...source, a: 'Hallo {name' }, expect: /^a: not ICU MessageFormat/ },
    ];
    for (const row of table) {
      const found = problems(source, row.catalogue, 'de');
      assert.equal(found.length, 1, `${row.name}: ${found.join(' / ')}`);
      assert.match(found[0]!, row.expect, row.name);
    }
    assert.deepEqual(problems(source, source, 'de'), []);
  });
});

describe('t', () => {
  it('formats plurals, numbers and selects as each language does', () => {
    const table: { lang: Lang; key: Parameters<typeof t>[1]; params?: Record<string, string | number>; expect: string }[] = [
      { lang: 'en', key: 'common.units', params: { kind: 'stamp', count: 1 }, expect: '1 stamp' },
      { lang: 'en', key: 'common.units', params: { kind: 'point', count: 1250 }, expect: '1,250 points' },
      { lang: 'de', key: 'common.units', params: { kind: 'point', count: 1 }, expect: '1 Punkt' },
      { lang: 'de', key: 'common.units', params: { kind: 'point', count: 1250 }, expect: '1.250 Punkte' },
      { lang: 'fr', key: 'common.units', params: { kind: 'stamp', count: 0 }, expect: '0 tampon' },
      { lang: 'nl', key: 'common.reward.stamps', params: { reward: 'Gratis koffie', cost: 10 }, expect: 'Gratis koffie na 10 stempels' },
      { lang: 'de', key: 'pass.reward.progress', params: { have: 1500, cost: 2000 }, expect: '1.500 von 2.000' },
      { lang: 'it', key: 'pass.balance.points', expect: 'Punti' },
    ];
    for (const row of table) assert.equal(t(row.lang, row.key, row.params), row.expect, `${row.lang} ${row.key}`);
  });

  it('a missing argument throws rather than showing a hole', () => {
    assert.throws(() => t('en', 'email.greeting'), /name/);
  });
});
