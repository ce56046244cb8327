/** A whole-number command-line option of a bench script (parseArgs gives strings), at least `min`. */
export function wholeNumber(args: Record<string, unknown>, name: string, min: number): number {
  const n = Number(args[name]);
  if (!Number.isInteger(n) || n < min) throw new Error(`--${name} must be a whole number ≥ ${min}`);
  return n;
}
