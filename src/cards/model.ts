// The card (loyalty program) as the service sees it. Amounts are hundredths (see lib/money).
export const PASS_TYPES = ['stamp_card', 'point_card', 'level_card', 'prepaid_card'] as const;
export type PassType = (typeof PASS_TYPES)[number];

/** The types in a merchant's words. */
export const PASS_TYPE_NAMES: Readonly<Record<PassType, string>> = {
  stamp_card: 'stamp card',
  point_card: 'point card',
  level_card: 'level card',
  prepaid_card: 'prepaid card',
};

export const QUESTION_TYPES = ['text', 'number', 'email', 'phone', 'select', 'date', 'checkbox'] as const;
export type QuestionType = (typeof QUESTION_TYPES)[number];

/** Question types that can serve as a stable customer identifier (the question must also be required). */
export const IDENTIFIER_TYPES: readonly QuestionType[] = ['number', 'text', 'email', 'phone'];

export { RESERVED_KEYS } from './reserved-keys';

/**
 * A card's customers in each mode. `live` and `test` count people; `erased` counts customers whose
 * personal data was deleted on request, whose rows stay for the card's ledger (the books), so the
 * card keeps its type and cannot be deleted while they are there.
 */
export interface CardCustomerCounts {
  live: number;
  test: number;
  erased: { live: number; test: number };
}

export interface SelectOption {
  value: string;
  label: string;
}

export interface Question {
  key: string;
  label: string;
  type: QuestionType;
  required: boolean;
  isIdentifier: boolean;
  options?: SelectOption[];
}

/** One reward of a stamp or point card: what it is and the units it costs (hundredths). */
export interface Reward {
  /** `rw_…`, stable while the reward stays on the card, so integrators can keep it. */
  id: string;
  name: string;
  cost: number;
  description?: string;
}

/** A card lists at most this many rewards. */
export const MAX_REWARDS = 20;

/** Awards to one customer in one shop day above which the console's watch list shows them. */
export const DEFAULT_FLAG_AWARDS_PER_DAY = 6;

/** The types that list rewards a customer redeems with their units; level and prepaid cards have none. */
export const takesRewards = (passType: PassType): boolean => passType === 'stamp_card' || passType === 'point_card';

/** Store credit is money already; every other card's units may be given a money value. */
export const takesUnitValue = (passType: PassType): boolean => passType !== 'prepaid_card';

export interface Level {
  name: string;
  minPoints: number;
}

export interface Accrual {
  /** `rate` units per one unit of `currency` spent. */
  spend?: { currency: string; rate: number };
  /** Units per item key. */
  items?: Record<string, number>;
}

export type LimitPeriod = 'day' | 'week' | 'month';

export interface EarningLimits {
  waitSeconds?: number;
  maxPerAward?: number;
  period?: LimitPeriod;
  maxPerPeriod?: number;
}

/** Whether the sign-up form asks for a contact field, and whether the customer must fill it in. */
export const SIGNUP_FIELD_MODES = ['required', 'optional', 'off'] as const;
export type SignupFieldMode = (typeof SIGNUP_FIELD_MODES)[number];

/** What the card's sign-up form asks besides the questions: name, email and phone, each as the card configures it. */
export interface SignupFields {
  name: SignupFieldMode;
  email: SignupFieldMode;
  phone: SignupFieldMode;
}

/** A card that never said: the name and an email to recognise a returning member by, a phone if they like. */
export const DEFAULT_SIGNUP_FIELDS: Readonly<SignupFields> = Object.freeze({ name: 'required', email: 'required', phone: 'optional' });

export interface CardDesign {
  backgroundColor?: string;
  foregroundColor?: string;
  labelColor?: string;
  logoText?: string;
}

/** The card's uploaded logo: a PNG (cards/logo.ts), its size and content hash. */
export interface CardLogo {
  png: Buffer;
  width: number;
  height: number;
  sha256: string;
}

export type CardLogoMeta = Omit<CardLogo, 'png'> & { uploadedAt: number };

export interface Card {
  id: string;
  orgId: string;
  name: string;
  passType: PassType;
  dataCollectionEnabled: boolean;
  /** The contact fields of the sign-up form (used when dataCollectionEnabled). */
  signupFields: SignupFields;
  questions: Question[];
  /** The rewards in the owner's order; the first is the default (redeemed when none is named). */
  rewards: Reward[];
  /** Always `rewards[0]` (or null): what one-reward readers (pass, counter, sign-up) show. */
  reward: Reward | null;
  /** The watch list's threshold; null: DEFAULT_FLAG_AWARDS_PER_DAY. */
  flagAwardsPerDay: number | null;
  /** Money per unit in ten-thousandths of the currency (the books' liability); null: not set. */
  unitValueE4: number | null;
  levels: Level[] | null;
  accrual: Accrual | null;
  earningLimits: EarningLimits | null;
  design: CardDesign | null;
  /** When the card was archived (closed to new members, passes kept up to date); null while active. */
  archivedAt: number | null;
  /** When units expire (cards/model.ts CardExpiry); null: never. */
  expiry: CardExpiry | null;
  /** The birthday treat; null: none. */
  birthday: CardBirthday | null;
  /** When expiry was first switched on (ms): from then on every award is recorded as a lot. Never cleared. */
  lotsSince: number | null;
  createdAt: number;
  updatedAt: number;
}

/** Stamp, point and level cards count whole units; prepaid (store credit) takes cents. */
export function decimalsFor(passType: PassType): 0 | 2 {
  return passType === 'prepaid_card' ? 2 : 0;
}

export function findQuestion(card: Card, key: string): Question | undefined {
  const wanted = key.toLowerCase();
  return card.questions.find((q) => q.key.toLowerCase() === wanted);
}

// --- Expiry and birthdays ---

/** Reminder days before units expire when the card does not say (0 turns reminders off). */
export const DEFAULT_REMIND_DAYS = 14;

/**
 * When a card's units expire: `months` after each award (at the end of that day in the shop's time
 * zone; point and level cards), or the whole balance after `inactiveDays` without an award (stamp,
 * point and level cards). Store credit is money and never expires. A rule applies to awards made
 * while it is in force: awards keep the rule they were made under.
 */
export type CardExpiry = { months: number; remindDays: number } | { inactiveDays: number; remindDays: number };

/** On the customer's birthday (the answer to a `date` question), `units` hundredths, once per calendar year. */
export interface CardBirthday {
  questionKey: string;
  units: number;
}

/** The card types each expiry rule and the birthday treat are for. */
export function programFieldAllowed(passType: PassType, field: 'months' | 'inactiveDays' | 'birthday'): boolean {
  if (passType === 'prepaid_card') return false;
  return field !== 'months' || passType !== 'stamp_card';
}
