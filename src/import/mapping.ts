import type { Card } from '../cards/model';
import { reason, type Reason } from '../lib/reasons';

// Which column of the file goes where: each column is mapped to one field of the customer (or
// left out). The suggestion reads the header as this server's own export writes it and as other
// loyalty apps and spreadsheets commonly name it; the owner can change every choice before
// anything is written.

/** A customer field a column can fill: contact fields, the opening balance, or a card question (`q:<key>`). */
export type Target = 'name' | 'firstName' | 'lastName' | 'email' | 'phone' | 'externalId' | 'balance' | `q:${string}`;

/** Per column of the file (by position): its target, or null when it is left out. */
export type Mapping = (Target | null)[];

export const IDENTIFYING: readonly Target[] = ['name', 'firstName', 'lastName', 'email', 'phone', 'externalId'];
const CONTACT: readonly Target[] = ['name', 'firstName', 'lastName', 'email', 'phone'];

/** Headers squeezed to letters and digits, lower case: `First name`, `first_name` and `FirstName` are one. */
const squeeze = (header: string) => header.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/[^a-z0-9]/g, '');

/**
 * Header spellings per target: this server's export in either console language (Name, Email,
 * Phone, External id, Balance; Name, E-Mail, Telefon, Externe ID, Kontostand) and
 * what other apps write (Stamped: first_name, last_name, points; LoyLap: Stamp_Balance,
 * Cash_Balance; Stamp Me: Stamps, Active Stamps), plus the usual German and French words.
 */
const HEADER_WORDS: Record<Exclude<Target, `q:${string}`>, string[]> = {
  name: ['name', 'fullname', 'customername', 'membername', 'kunde', 'kundenname', 'nomcomplet'],
  firstName: ['firstname', 'first', 'givenname', 'forename', 'vorname', 'prenom'],
  lastName: ['lastname', 'last', 'surname', 'familyname', 'nachname', 'nom', 'nomdefamille'],
  email: ['email', 'emailaddress', 'mail', 'emailadresse', 'courriel', 'adresseemail'],
  phone: ['phone', 'mobile', 'mobilephone', 'mobilenumber', 'phonenumber', 'cell', 'cellphone', 'telephone', 'tel', 'handy', 'telefon', 'mobil', 'portable'],
  externalId: ['externalid', 'externalcustomerid', 'memberid', 'customernumber', 'membernumber', 'kundennummer', 'externeid'],
  balance: ['balance', 'currentbalance', 'kontostand'],
};

/**
 * The balance's words by the card's unit: a stamp or point count goes to a stamp or point card
 * (apps call either "points"), money only to a store-credit card (LoyLap's file has both
 * Stamp_Balance and Cash_Balance).
 */
const COUNT_WORDS = ['stamps', 'points', 'stampbalance', 'activestamps', 'currentstamps', 'pointsbalance', 'pointbalance', 'currentpoints', 'stempel', 'punkte'];
const MONEY_WORDS = ['cashbalance', 'credit', 'storecredit', 'giftcardbalance', 'guthaben'];
const balanceWords = (card: Card) => [...HEADER_WORDS.balance, ...(card.passType === 'prepaid_card' ? MONEY_WORDS : COUNT_WORDS)];

export interface TargetOption {
  value: Target;
  label: string;
}

/** Every target this card offers, as the mapping form lists them. */
export function targetOptions(card: Card): TargetOption[] {
  const unit = card.passType === 'stamp_card' ? 'stamps' : card.passType === 'prepaid_card' ? 'store credit' : 'points';
  return [
    { value: 'name', label: 'Name' },
    { value: 'firstName', label: 'First name' },
    { value: 'lastName', label: 'Last name' },
    { value: 'email', label: 'Email' },
    { value: 'phone', label: 'Phone' },
    { value: 'externalId', label: 'External id' },
    { value: 'balance', label: `Balance (${unit})` },
    ...card.questions.map((q) => ({ value: `q:${q.key}` as Target, label: `Question: ${q.label}` })),
  ];
}

export const targetLabel = (card: Card, target: Target): string => targetOptions(card).find((o) => o.value === target)?.label ?? target;

/** The mapping suggested by the header: each target at most once, the first column that names it. */
export function suggestMapping(card: Card, header: readonly string[]): Mapping {
  const taken = new Set<Target>();
  const questionOf = (h: string): Target | undefined => {
    const q = card.questions.find((question) => squeeze(question.label) === h || squeeze(question.key) === h);
    return q ? `q:${q.key}` : undefined;
  };
  return header.map((raw) => {
    const h = squeeze(raw);
    if (!h) return null;
    // The contact fields' own words first (a "Phone" question still leaves the column to the
    // customer's phone), then the card's questions by label or key ("Member number" is the
    // question of that name before it is a guess at an external id), then the other words.
    const words = (t: Target) => (t === 'balance' ? balanceWords(card) : HEADER_WORDS[t as keyof typeof HEADER_WORDS]);
    const word = (targets: readonly Target[]) => targets.find((t) => words(t).includes(h));
    const target = word(CONTACT) ?? questionOf(h) ?? word(['externalId', 'balance']);
    if (!target || taken.has(target)) return null;
    taken.add(target);
    return target;
  });
}

/** A mapping the owner chose, checked: null and the problems per column when it cannot be used (each also as values, lib/reasons.ts). */
export function checkMapping(
  card: Card,
  header: readonly string[],
  chosen: readonly string[],
): { mapping: Mapping | null; columnErrors: Record<number, string>; columnReasons: Record<number, Reason>; formError?: string; formReason?: Reason } {
  const valid = new Set<string>(targetOptions(card).map((o) => o.value));
  const columnErrors: Record<number, string> = {};
  const columnReasons: Record<number, Reason> = {};
  const refuse = (i: number, message: string, why: Reason) => {
    if (columnErrors[i] !== undefined) return;
    columnErrors[i] = message;
    columnReasons[i] = why;
  };
  const firstColumn = new Map<string, number>();
  const mapping: Mapping = header.map((_, i) => {
    const value = chosen[i] ?? '';
    if (value === '') return null;
    if (!valid.has(value)) {
      refuse(i, 'Choose a field from the list.', reason('map.pick'));
      return null;
    }
    const first = firstColumn.get(value);
    if (first !== undefined) {
      const column = header[first] || `Column ${first + 1}`;
      refuse(i, `“${column}” already goes there: choose one column for each field.`, reason('map.twice', { column }));
    } else firstColumn.set(value, i);
    return value as Target;
  });
  const has = (t: Target) => mapping.includes(t);
  if (has('name') && (has('firstName') || has('lastName'))) {
    const i = mapping.findIndex((t) => t === 'firstName' || t === 'lastName');
    refuse(i, 'Choose either Name, or First name and Last name.', reason('map.nameOrParts'));
  }
  if (Object.keys(columnErrors).length) return { mapping: null, columnErrors, columnReasons, formError: 'Some columns need another choice.', formReason: reason('map.someColumns') };
  if (!IDENTIFYING.some(has)) {
    return {
      mapping: null,
      columnErrors,
      columnReasons,
      formError: 'Choose a column for at least one of name, email, phone or external id: without one, no customer can be told apart.',
      formReason: reason('map.noIdentity'),
    };
  }
  return { mapping, columnErrors, columnReasons };
}

/** A stored mapping (JSON) back, refusing targets the card no longer has (a question removed since). */
export function readStoredMapping(card: Card, header: readonly string[], json: string | null): Mapping | null {
  if (!json) return null;
  const stored = JSON.parse(json) as string[];
  const { mapping } = checkMapping(card, header, stored.map((t) => t ?? ''));
  return mapping;
}
