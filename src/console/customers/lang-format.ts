import type { Card } from '../../cards/model';
import { formatDate as formatIn, formatMoney as moneyIn, formatNumber as numberIn, formatUnits } from '../../i18n/format';
import type { ConsoleLang } from '../../i18n/langs';
import { tConsole } from '../../i18n/translate';
import type { Channel } from '../../lib/changes';
import { currencyOf, customerLabel, formatAmount, formatDate, formatMoney, formatNumber, formatTime } from '../format';

// The customer pages' numbers, amounts, times and words in the admin's language. English keeps the
// console's own formats (console/format.ts); German goes through src/i18n/format.ts, which writes
// them as Germany does ("12 Stempel", "12,50 €", "14. Mai 2026, 09:30").

export const amountText = (lang: ConsoleLang, card: Pick<Card, 'passType' | 'accrual'>, hundredths: number) =>
  lang === 'en' ? formatAmount(card, hundredths) : formatUnits(lang, card, hundredths, currencyOf(card));

/** A signed change: "+3 stamps", "−12,50 €". */
export function changeText(lang: ConsoleLang, card: Pick<Card, 'passType' | 'accrual'>, hundredths: number): string {
  const text = amountText(lang, card, Math.abs(hundredths));
  return hundredths > 0 ? `+${text}` : hundredths < 0 ? `−${text}` : text;
}

export const moneyText = (lang: ConsoleLang, hundredths: number, currency: string | null) => (lang === 'en' ? formatMoney(hundredths, currency) : moneyIn(lang, currency, hundredths));

export const numberText = (lang: ConsoleLang, n: number) => (lang === 'en' ? formatNumber(n) : numberIn(lang, n));

/** A moment with its time, on the shop's clock. */
export const timeText = (lang: ConsoleLang, ms: number, timeZone: string) => (lang === 'en' ? formatTime(ms, timeZone) : formatIn(lang, timeZone, ms, 'dateTime'));

/** A moment's day, on the shop's clock. */
export const dayText = (lang: ConsoleLang, ms: number, timeZone: string) => (lang === 'en' ? formatDate(ms, timeZone) : formatIn(lang, timeZone, ms, 'date'));

/** The channel as the owner knows it: the counter, not "scan". */
export const channelText = (lang: ConsoleLang, channel: Channel) => tConsole(lang, 'console.customers.channel', { channel });

/** How the console names a customer: the name, else what else tells them apart. */
export const labelOf = (lang: ConsoleLang, c: Parameters<typeof customerLabel>[0]) => c.name ?? c.externalId ?? c.email ?? c.phone ?? tConsole(lang, 'console.customers.noName');
