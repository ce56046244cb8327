import type { Card } from '../cards/model';
import { badRequest } from '../lib/errors';
import type { LedgerDetails } from './repo';

// Turning a sale into stamps, points or credit. All arithmetic is on integers (BigInt where a
// product could pass 2^53), so a rate of 1.5 on 10.99 EUR gives exactly 16 and never 16.484999….

/** Exact scaled integer of a decimal number: (1.5, 6) → 1500000n. The value has at most `scale` decimals (validated). */
export function scaledInteger(value: number, scale: number): bigint {
  const text = String(value);
  const match = /^(\d+)(?:\.(\d+))?$/.exec(text);
  if (!match || (match[2]?.length ?? 0) > scale) throw new Error(`${text} is not a plain decimal with at most ${scale} decimals`);
  return BigInt(match[1]! + (match[2] ?? '').padEnd(scale, '0'));
}

/** The card configuration caps a spend rate at 6 decimals (cards/schemas.ts). */
const RATE_SCALE = 6;
const RATE_ONE = 10n ** BigInt(RATE_SCALE);

/**
 * Hundredths earned by a sale of `cents` (hundredths of the currency) at `rate` units per currency
 * unit: floor(amount × rate) whole units, or on a prepaid card floor to the cent.
 */
export function spendAccrual(passType: Card['passType'], cents: number, rate: number): number {
  const exact = BigInt(cents) * scaledInteger(rate, RATE_SCALE); // hundredths × RATE_ONE
  const hundredths = passType === 'prepaid_card' ? exact / RATE_ONE : (exact / (RATE_ONE * 100n)) * 100n;
  return Number(hundredths);
}

export interface SpendSale {
  from: 'spend';
  /** Hundredths of `currency`. */
  amount: number;
  currency: string;
}

export interface ItemsSale {
  from: 'items';
  items: { key: string; quantity: number }[];
}

/**
 * Applies the card's accrual rule to a sale: the change in hundredths and what the ledger row
 * remembers about it. Refuses a card without the rule, another currency, or unknown item keys.
 */
export function accrue(card: Card, sale: SpendSale | ItemsSale): { change: number; details: LedgerDetails } {
  if (sale.from === 'spend') {
    const rule = card.accrual?.spend;
    if (!rule) throw badRequest('ACCRUAL_RULE_NOT_CONFIGURED', 'this card has no spend rate; send amount or from=items');
    if (sale.currency !== rule.currency) {
      throw badRequest('CURRENCY_MISMATCH', `this card earns on ${rule.currency} spend, the sale is in ${sale.currency}`);
    }
    return {
      change: spendAccrual(card.passType, sale.amount, rule.rate),
      details: { from: 'spend', spend: { amount: sale.amount, currency: sale.currency }, rate: rule.rate },
    };
  }

  const values = card.accrual?.items;
  if (!values || Object.keys(values).length === 0) {
    throw badRequest('ACCRUAL_RULE_NOT_CONFIGURED', 'this card has no item values; send amount or from=spend');
  }
  // Own-property lookup only, so a key like "constructor" is unknown rather than a prototype member.
  const valueOf = (key: string) => (Object.hasOwn(values, key) ? values[key] : undefined);
  const unknown = [...new Set(sale.items.map((i) => i.key).filter((key) => valueOf(key) === undefined))];
  // `keys` as well as the message, like the customFields errors: a sent key may itself hold ", ".
  if (unknown.length > 0) throw badRequest('UNKNOWN_ITEM_KEYS', unknown.join(', '), { keys: unknown });

  const items = sale.items.map((i) => ({ key: i.key, quantity: i.quantity, each: valueOf(i.key)! }));
  // Plain numbers suffice here: anything past 2^53 is far beyond the 1e9-unit cap and refused as such.
  const change = items.reduce((total, i) => total + i.each * i.quantity, 0);
  return { change, details: { from: 'items', items } };
}
