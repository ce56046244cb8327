// Amounts live as integer hundredths everywhere inside the service: 0.1 + 0.2 is 10 + 20 = 30.
// These two functions are the only places that cross between units and hundredths.

/** Whole or decimal units (at most 2 decimals, already validated) to integer hundredths. */
export function toHundredths(units: number): number {
  // Math.round absorbs binary noise such as 0.29 * 100 = 28.999999999999996.
  return Math.round(units * 100);
}

/** Integer hundredths back to units for responses (12345 → 123.45, 1000 → 10). */
export function fromHundredths(hundredths: number): number {
  return hundredths / 100;
}

/** True when a number has at most `decimals` digits after the point (judged on its shortest decimal form). */
export function hasAtMostDecimals(value: number, decimals: number): boolean {
  if (!Number.isFinite(value)) return false;
  const text = String(value);
  if (text.includes('e')) {
    // 1e-7 and friends: exponent notation means many decimals; large integers print without 'e' up to 1e21.
    return Number.isInteger(value);
  }
  const dot = text.indexOf('.');
  return dot === -1 || text.length - dot - 1 <= decimals;
}

/** The largest amount accepted anywhere, in units; no balance may pass it either. */
export const MAX_UNITS = 1_000_000_000;
