import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatDate, formatMoney, formatNumber, formatUnits } from '../../src/i18n/format';

// Intl's output has no-break spaces where a language wants them (12,50 €): compared as plain spaces.
const plain = (s: string) => s.replace(/[\u00a0\u202f]/g, ' ');

describe('formatting', () => {
  // 23:30 UTC on 9 February is already 10 February in Berlin, still 9 February in New York.
  const late = Date.parse('2026-02-09T23:30:00Z');

  it('dates in the shop’s time zone, as each language writes them', () => {
    const table: [Parameters<typeof formatDate>, string][] = [
      [['en', 'Europe/Berlin', late, 'dayMonth'], '10 Feb'],
      [['en', 'America/New_York', late, 'dayMonth'], '9 Feb'],
      [['de', 'Europe/Berlin', late, 'dayMonth'], '10. Feb.'],
      [['de', 'Europe/Berlin', late, 'dayMonthLong'], '10. Februar'],
      [['fr', 'Europe/Paris', late, 'dayMonthLong'], '10 février'],
      [['es', 'Europe/Madrid', late, 'dayMonthLong'], '10 de febrero'],
      [['it', 'Europe/Rome', late, 'date'], '10 febbraio 2026'],
      [['nl', 'Europe/Amsterdam', late, 'date'], '10 februari 2026'],
      [['de', 'Europe/Berlin', late, 'dateTime'], '10. Feb. 2026, 00:30'],
    ];
    for (const [args, expect] of table) assert.equal(plain(formatDate(...args)), expect, args.join(' '));
  });

  it('numbers and money', () => {
    assert.equal(formatNumber('en', 1234.5), '1,234.5');
    assert.equal(formatNumber('de', 1234.5), '1.234,5');
    assert.equal(formatNumber('fr', 12.5, { decimals: 2, fixed: true }), '12,50');
    const money: [Parameters<typeof formatMoney>, string][] = [
      [['en', 'GBP', 1250], '£12.50'],
      [['de', 'EUR', 123456], '1.234,56 €'],
      [['fr', 'EUR', 1250], '12,50 €'],
      [['nl', 'EUR', 1250], '€ 12,50'],
      [['it', 'CHF', 1250], '12,50 CHF'],
      [['en', null, 1250], '12.50'],
      [['de', null, 1250], '12,50'],
    ];
    for (const [args, expect] of money) assert.equal(plain(formatMoney(...args)), expect, args.join(' '));
  });

  it('a card’s units in words; store credit as money', () => {
    assert.equal(formatUnits('en', { passType: 'stamp_card' }, 100), '1 stamp');
    assert.equal(formatUnits('de', { passType: 'stamp_card' }, 300), '3 Stempel');
    assert.equal(plain(formatUnits('fr', { passType: 'level_card' }, 120_000)), '1 200 points');
    assert.equal(formatUnits('es', { passType: 'point_card' }, 100), '1 punto');
    assert.equal(plain(formatUnits('de', { passType: 'prepaid_card' }, 990, 'EUR')), '9,90 €');
  });
});
