import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { acceptedLang, pageLang } from '../../src/i18n/negotiate';

describe('Accept-Language', () => {
  const table: { header: string | undefined; expect: string | null }[] = [
    { header: undefined, expect: null },
    { header: '', expect: null },
    { header: 'de', expect: 'de' },
    { header: 'de-CH', expect: 'de' },
    { header: 'DE-at', expect: 'de' },
    { header: 'fr-FR,fr;q=0.9,en-US;q=0.8,en;q=0.7', expect: 'fr' },
    { header: 'ja,nl;q=0.5', expect: 'nl' },
    { header: 'en;q=0.5,it;q=0.9', expect: 'it' },
    { header: 'es;q=0.8, de;q=0.8', expect: 'es' },
    { header: 'pt-BR,pt;q=0.9', expect: null },
    { header: '*', expect: null },
    { header: 'de;q=0,fr;q=0.1', expect: 'fr' },
    { header: 'de;q=abc,nl;q=0.2', expect: 'nl' },
    { header: 'de;q=1.5,it', expect: 'it' },
    { header: ' nl-BE ; q=0.7 , en ; q=0.3 ', expect: 'nl' },
    { header: 'english', expect: null },
    { header: `${'xx,'.repeat(40)}de`, expect: null },
  ];
  for (const row of table) {
    it(`${JSON.stringify(row.header)} → ${row.expect}`, () => assert.equal(acceptedLang(row.header), row.expect));
  }
});

describe('the language of a customer’s page', () => {
  const table: { name: string; input: Parameters<typeof pageLang>[0]; expect: string }[] = [
    { name: 'the shop’s language when the browser names none of ours', input: { acceptLanguage: 'ja', orgLang: 'de' }, expect: 'de' },
    { name: 'the browser’s over the shop’s', input: { acceptLanguage: 'fr-BE', orgLang: 'de' }, expect: 'fr' },
    { name: 'the customer’s stored choice over the browser’s', input: { stored: 'nl', acceptLanguage: 'fr', orgLang: 'de' }, expect: 'nl' },
    { name: 'the switcher’s ?lang= over everything', input: { query: 'it', stored: 'nl', acceptLanguage: 'fr', orgLang: 'de' }, expect: 'it' },
    { name: 'an unknown ?lang= is ignored', input: { query: 'xx', acceptLanguage: 'es', orgLang: 'en' }, expect: 'es' },
    { name: 'a repeated ?lang= (an array) is ignored', input: { query: ['de', 'fr'], orgLang: 'en' }, expect: 'en' },
  ];
  for (const row of table) it(row.name, () => assert.equal(pageLang(row.input), row.expect));
});
