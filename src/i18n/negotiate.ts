import { isLang, type Lang } from './langs';

// Which language a customer's page is in. The customer's own choice first (a ?lang= link of the
// language switcher, then what they chose before), then the first of our languages their browser
// asks for by Accept-Language (by q, ties in the header's order; "de-CH" is German), then the
// shop's language.

/** At most this many entries of an Accept-Language header are read; browsers send a handful. */
const MAX_ENTRIES = 32;

/** The first of our languages `header` accepts, by preference; null when it names none. */
export function acceptedLang(header: string | null | undefined): Lang | null {
  if (!header) return null;
  const entries: { lang: Lang; q: number; at: number }[] = [];
  header
    .split(',')
    .slice(0, MAX_ENTRIES)
    .forEach((entry, at) => {
      const [range = '', ...params] = entry.split(';').map((part) => part.trim());
      const primary = range.split('-')[0]!.toLowerCase();
      if (!isLang(primary)) return;
      let q = 1;
      for (const param of params) {
        const match = /^q\s*=\s*(0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/i.exec(param);
        if (/^q\s*=/i.test(param)) q = match ? Number(match[1]) : 0;
      }
      // q=0 says "not this one"; a malformed weight is not a preference either.
      if (q > 0) entries.push({ lang: primary, q, at });
    });
  entries.sort((a, b) => b.q - a.q || a.at - b.at);
  return entries[0]?.lang ?? null;
}

export interface PageLangInput {
  /** The ?lang= of the page's address: the language switcher's links. */
  query?: unknown;
  /** What the customer chose before (customers.language), when the page knows the customer. */
  stored?: Lang | null;
  acceptLanguage?: string | null;
  /** The shop's language (org setting). */
  orgLang: Lang;
}

/** The language of a customer's page. */
export function pageLang(input: PageLangInput): Lang {
  if (isLang(input.query)) return input.query;
  return input.stored ?? acceptedLang(input.acceptLanguage) ?? input.orgLang;
}
