import { normalizePhone } from '../lib/contact';
import type { Namespace } from './model';

// What a person types into a search box, turned into a query of the customer_search index
// (migration 8): every word typed is the start of a word of the name, the email or the external id,
// or — when the text looks like a phone number — its digits start one of the phone's forms.
// The index's tokenizer folds case and diacritics, so "jurgen" finds "Jürgen".

/** The namespace's token in the index's scope column (see migration 8: `o<hex org>m<0|1>`). */
export function scopeToken(n: Namespace): string {
  return `o${Buffer.from(n.orgId, 'utf8').toString('hex')}m${n.livemode ? 1 : 0}`;
}

/** The card's token in the scope column (`c<hex card id>`). */
export function cardToken(cardId: string): string {
  return `c${Buffer.from(cardId, 'utf8').toString('hex')}`;
}

/** At most this many words are searched; more only narrow an already narrow result. */
const MAX_WORDS = 8;
/** Fewer digits than this are a number, not the start of a phone number. */
const MIN_PHONE_DIGITS = 5;
const PHONE_TYPED = /^[+\d\s\-.()/]+$/;

const quoted = (term: string) => `"${term.replace(/"/g, '""')}"*`;

/** The words of the text as the index's tokenizer splits them (letters, marks and digits). */
function wordsOf(text: string): string[] {
  return (text.normalize('NFC').match(/[\p{L}\p{M}\p{N}]+/gu) ?? []).slice(0, MAX_WORDS);
}

/**
 * The digit strings a typed phone number may start in the index: its E.164 digits (`+49 170…`,
 * `0049 170…`), the digits as typed, and without a national trunk 0 (`0170…` → `170…`, which the
 * index holds as the number without its country code).
 */
function phoneTerms(text: string): string[] {
  if (!PHONE_TYPED.test(text)) return [];
  let digits = text.replace(/\D/g, '');
  if (digits.length < MIN_PHONE_DIGITS) return [];
  const trimmed = text.trim();
  const international = trimmed.startsWith('00') ? `+${trimmed.slice(2)}` : trimmed;
  const terms = new Set<string>();
  const e164 = normalizePhone(international);
  if (e164) terms.add(e164.slice(1));
  if (digits.startsWith('00')) digits = digits.slice(2);
  terms.add(digits);
  if (digits.startsWith('0') && digits.length > MIN_PHONE_DIGITS) terms.add(digits.slice(1));
  return [...terms];
}

/**
 * The full-text query for `text` within the namespace (and card), or null when the text holds
 * nothing searchable (only punctuation).
 */
export function searchMatch(text: string, n: Namespace, cardId?: string | null): string | null {
  const words = wordsOf(text);
  const phones = phoneTerms(text);
  const parts: string[] = [];
  if (words.length) parts.push(`{name email external} : (${words.map(quoted).join(' AND ')})`);
  if (phones.length) parts.push(`phone : (${phones.map(quoted).join(' OR ')})`);
  if (!parts.length) return null;
  const scope = [`"${scopeToken(n)}"`, ...(cardId ? [`"${cardToken(cardId)}"`] : [])].join(' AND ');
  return `scope : (${scope}) AND (${parts.join(' OR ')})`;
}

/** A scan code or passUserId is one unbroken code: worth an exact lookup before the word search. */
export function exactCodeOf(text: string): string | null {
  const code = text.trim().replace(/^pu_/, '');
  return /^[A-Za-z0-9]{8,64}$/.test(code) ? code : null;
}
