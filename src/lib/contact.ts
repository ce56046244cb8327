import { domainToASCII } from 'node:url';
import { getExampleNumber, isSupportedCountry, parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/min';
// One example mobile number per country (4 KB), read with the `min` metadata the rest of the file uses.
import mobileExamples from 'libphonenumber-js/mobile/examples';
import * as v from 'valibot';

// Email and phone: the one rule for each, used by enroll, custom-field answers, the seed file and
// every lookup. What the customer typed is kept for display; the normal forms here are what
// lookups compare.

// --- Email ---
//
// An address is `local@domain`:
// - local: dot-separated runs of RFC 5322 atext, plus any non-ASCII letter, mark or digit
//   (RFC 6531 internationalised addresses, `jörg@…`); at most 64 octets. Quoted local parts
//   (`"john doe"@…`) are refused: almost nobody has one, browsers' email fields refuse them, and
//   `"john"@x` and `john@x` would be two spellings of one mailbox.
// - domain: letters, digits, marks, hyphens and dots, converted to its ASCII (xn--) form by the
//   WHATWG/UTS #46 rules, so `bücher.de` and `xn--bcher-kva.de` are one domain; then at least two
//   LDH labels of 1–63 characters, the last not all digits. No address literals, IP addresses,
//   `localhost` or trailing dot: none is a customer's mailbox.
// - the whole, with the ASCII domain, at most 254 octets (RFC 5321's path limit).
// The normal form is the local part lower-cased (NFC) and the ASCII domain.

const ATOM = "[\\p{L}\\p{M}\\p{N}!#$%&'*+/=?^_`{|}~-]+";
const LOCAL_PART = new RegExp(`^${ATOM}(?:\\.${ATOM})*$`, 'u');
// Checked before conversion: domainToASCII would also decode %41 and drop a zero-width space.
const DOMAIN_TEXT = /^[\p{L}\p{M}\p{N}.-]+$/u;
const LDH_LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** The normal form of an email address, or null when `raw` is not one (see the rule above). */
function readEmail(raw: string): string | null {
  const text = raw.trim();
  const at = text.lastIndexOf('@');
  if (at < 1) return null;
  const local = text.slice(0, at);
  const domain = text.slice(at + 1);
  if (!LOCAL_PART.test(local) || Buffer.byteLength(local) > 64 || !DOMAIN_TEXT.test(domain)) return null;
  const ascii = domainToASCII(domain);
  const labels = ascii.split('.');
  if (labels.length < 2 || !labels.every((label) => LDH_LABEL.test(label)) || /^\d+$/.test(labels[labels.length - 1]!)) return null;
  if (Buffer.byteLength(local) + 1 + ascii.length > 254) return null;
  return `${local.toLowerCase().normalize('NFC')}@${ascii}`;
}

export const isEmail = (raw: string): boolean => readEmail(raw) !== null;

export const EMAIL_MESSAGE = 'must be an email address such as name@example.com';

/** The valibot form of the rule, for a pipe: `v.pipe(v.string(), v.trim(), emailAddressCheck)`. */
export const emailAddressCheck = v.check<string, typeof EMAIL_MESSAGE>(isEmail, EMAIL_MESSAGE);
export const EmailAddress = v.pipe(v.string(), emailAddressCheck);

/** The key lookups compare; null when absent or not an address (it then never matches). */
export function normalizeEmail(raw: string | null | undefined): string | null {
  return raw ? readEmail(raw) : null;
}

// --- Phone ---
//
// Spaces, dashes, dots and brackets are stripped; what is left must be `+` and digits (an
// international number), which libphonenumber-js parses into E.164, dropping a
// national trunk prefix written after the country code (`+44 (0)20…` → `+4420…`) and keeping a
// leading 0 that belongs to the number (Italy: `+39 06…`). Anything else normalises to nothing:
// no error, it never matches.
//
// "Possible", not "valid": a possible number has a length its country's numbering plan allows; a
// valid one also falls in a range known to be assigned. Validity needs the larger metadata and
// goes stale as countries open new ranges, which would make a real customer's new number
// unmatchable until the next upgrade; for a matching key, the right country and length are what
// matter. So `+999…` (no such country), `+1 555 0100` (no area code) and `+44 999` (a short code)
// are nothing, while a number in a range not yet assigned still matches itself.

const PHONE_SEPARATORS = /[\s\-.()]/g;

/** E.164 (`+442079460958`) or null. A phone taken from a URL goes through phoneFromUrl first. */
export function normalizePhone(raw: string | null | undefined): string | null {
  if (!raw) return null;
  const compact = raw.replace(PHONE_SEPARATORS, '');
  // E.164 has at most 15 digits; letters (vanity numbers, `ext.`) never reach the parser.
  if (!/^\+\d{1,15}$/.test(compact)) return null;
  const phone = parsePhoneNumberFromString(compact, { extract: false });
  return phone?.isPossible() ? phone.number : null;
}

// --- Phones typed by people (sign-up form, counter, console, import files) ---
//
// The API keeps the rule above. Where a person types a number (a customer on the sign-up form,
// staff at the counter, the owner in the console, an exported file of another app), a number
// without `+` is read the way people dial at home: a national number of the shop's country (org
// setting `country`), `0151 2345678` in Germany being `+491512345678`, `00` numbers dialled
// abroad included. libphonenumber-js reads it, with the same "possible" test as above.

/** E.164 of a typed number: with `+` by the API's rule, else as a national number of `country` (ISO 3166 alpha-2); null when it is neither. */
export function normalizeTypedPhone(raw: string | null | undefined, country: string | null): string | null {
  const international = normalizePhone(raw);
  if (international || !raw || !country) return international;
  const compact = raw.replace(PHONE_SEPARATORS, '');
  if (!/^\d{4,17}$/.test(compact) || !isSupportedCountry(country)) return null;
  const phone = parsePhoneNumberFromString(compact, { defaultCountry: country as CountryCode, extract: false });
  // Then the API's rule on the result: at most 15 digits, whatever the country's lengths allow.
  return phone?.isPossible() ? normalizePhone(phone.number) : null;
}

/**
 * What is stored for a typed number: an international one as typed (the customer's own spacing,
 * shown back to them), a national one as its E.164 (its country is not written in it, and the shop
 * may change country); null when it is no number (see normalizeTypedPhone).
 */
export function typedPhoneToStore(raw: string, country: string | null): string | null {
  const e164 = normalizeTypedPhone(raw, country);
  if (!e164) return null;
  return normalizePhone(raw) ? raw.trim() : e164;
}

/**
 * How a form asks for a phone number, after "Such as" or "Enter a phone number": the shop's
 * country's own example, or the international form when the shop has no country.
 */
export function phoneAsk(country: string | null): string {
  const example = phoneExample(country);
  return example ? `such as ${example.national}, or with the country code: ${example.international}` : 'with the country code, such as +44 20 7946 0958';
}

/** The hint under a phone field: "Such as 01512 3456789, or with the country code: +49 1512 3456789." in a German shop. */
export function phoneHint(country: string | null): string {
  const ask = phoneAsk(country);
  return `${ask[0]!.toUpperCase()}${ask.slice(1)}.`;
}

/** A mobile number of `country` as its people write it at home and from abroad, for the forms' hints; null without a country. */
export function phoneExample(country: string | null): { national: string; international: string } | null {
  if (!country || !isSupportedCountry(country)) return null;
  const example = getExampleNumber(country as CountryCode, mobileExamples);
  return example ? { national: example.formatNational(), international: example.formatInternational() } : null;
}

/**
 * A phone from a query string or a `phone:` ref, where a `+` may arrive decoded as a space
 * (`?phone=+49…` reaches the server as ` 49…`): the leading space is given back as `+`.
 * Only there: in a JSON body a leading space is just a space, and reading it
 * as `+` would turn a national ` 0170…` into `+0170…`.
 */
export function phoneFromUrl(raw: string): string {
  // Also behind or before an opening bracket: `(+49) 170…` arrives as `( 49) 170…`, `+(49)…` as ` (49)…`.
  return raw.replace(/^(\(*) +(?=[\d(])/, '$1+');
}

/** `jane.doe@example.com` → `j***e@example.com`: enough to tell candidates apart, not to harvest. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at < 1) return '***';
  const local = email.slice(0, at);
  const shown = local.length <= 2 ? `${local[0]}***` : `${local[0]}***${local[local.length - 1]}`;
  return `${shown}${email.slice(at)}`;
}

/** `+491701234567` → `+49*******567`. */
export function maskPhone(phone: string): string {
  if (phone.length <= 6) return '***';
  return `${phone.slice(0, 3)}${'*'.repeat(phone.length - 6)}${phone.slice(-3)}`;
}
