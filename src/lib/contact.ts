// Email and phone as matching keys (decisions §1). What the customer typed is kept for display;
// these normal forms are what lookups compare.

/** Trimmed and lower-cased; empty means absent. */
export function normalizeEmail(raw: string | null | undefined): string | null {
  const email = raw?.trim().toLowerCase();
  return email ? email : null;
}

/**
 * Spaces, dashes, dots and brackets stripped; then `+` and 7–15 digits (E.164), or nothing.
 * A national-format number normalises to null: it never matches and is not an error.
 * A phone taken from a URL goes through phoneFromUrl first.
 */
export function normalizePhone(raw: string | null | undefined): string | null {
  if (!raw) return null;
  const phone = raw.replace(/[\s\-.()]/g, '');
  return /^\+\d{7,15}$/.test(phone) ? phone : null;
}

/**
 * A phone from a query string or a `phone:` ref, where a `+` may arrive decoded as a space
 * (`?phone=+49…` reaches the server as ` 49…`): the leading space is given back as `+`
 * (decisions §1). Only there: in a JSON body a leading space is just a space, and reading it
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
