import { normalizePhone } from '../lib/contact';
import type { Namespace } from './model';

// What a person types into a search box, turned into a query of the customer_search index
// (migration 9): every piece typed is the start of words of the name, the email or the external id,
// or — when the text looks like a phone number — its digits start one of the phone's forms.
// The index's tokenizer folds case and diacritics, so "jurgen" finds "Jürgen".

/** The namespace's token in the index's scope column (see migration 9: `o<hex org>m<0|1>`). */
export function scopeToken(n: Namespace): string {
  return `o${Buffer.from(n.orgId, 'utf8').toString('hex')}m${n.livemode ? 1 : 0}`;
}

/** The card's token in the scope column (`c<hex card id>`). */
export function cardToken(cardId: string): string {
  return `c${Buffer.from(cardId, 'utf8').toString('hex')}`;
}

/** At most this many pieces of text are searched; more only narrow an already narrow result. */
const MAX_CHUNKS = 6;
/** Fewer digits than this are a number, not the start of a phone number. */
const MIN_PHONE_DIGITS = 5;
const PHONE_TYPED = /^[+\d\s\-.()/]+$/;

/**
 * The pieces of the text (split at spaces), each as the words the index's tokenizer would make of
 * it (letters, marks and digits): `anna.schmidt@beispiel.de` is one piece of four words.
 */
function chunksOf(text: string): string[][] {
  return text
    .normalize('NFC')
    .split(/\s+/)
    .map((chunk) => chunk.match(/[\p{L}\p{M}\p{N}]+/gu) ?? [])
    .filter((words) => words.length > 0)
    .slice(0, MAX_CHUNKS);
}

/**
 * A piece as a phrase whose last word may be unfinished: `"anna schmidt beispiel de"*` asks for
 * those words in that order. A phrase, not a set of prefixes, because the words of an email or an
 * id (`example`, `com`) are in nearly every row: as separate prefixes each would be read whole.
 */
const phrase = (words: string[]) => `"${words.join(' ')}"*`;
const quoted = (term: string) => `"${term}"*`;

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
  const chunks = chunksOf(text);
  const phones = phoneTerms(text);
  const parts: string[] = [];
  if (chunks.length) parts.push(`{name email external} : (${chunks.map(phrase).join(' AND ')})`);
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
