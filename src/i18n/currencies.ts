import { localeOf, type Lang } from './langs';

// Currencies by ISO 4217 code, as this Node's Intl knows them (the same data formats them).

let codes: ReadonlySet<string> | undefined;
const known = () => (codes ??= new Set(Intl.supportedValuesOf('currency')));

/** An ISO 4217 code Intl can format, in capitals ("EUR"). */
export const isCurrency = (code: string): boolean => /^[A-Z]{3}$/.test(code) && known().has(code);

/** Every currency with its name in `lang` ("EUR", "Euro"), by name: the choices of a settings list. */
export function currencyChoices(lang: Lang): { code: string; name: string }[] {
  const names = new Intl.DisplayNames(localeOf(lang), { type: 'currency' });
  return [...known()]
    .map((code) => ({ code, name: names.of(code) ?? code }))
    .sort((a, b) => a.name.localeCompare(b.name, localeOf(lang)));
}
