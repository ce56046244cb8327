// A card's promotion: extra stamps or points on the earns it covers. Dates and hours are the
// shop's (its time zone), so "Tuesdays 14–17 h" means the café's Tuesday afternoon.

export const PROMOTION_KINDS = ['multiplier', 'bonus'] as const;
export type PromotionKind = (typeof PROMOTION_KINDS)[number];

/** Monday 1 … Sunday 7 (ISO 8601). */
export type Weekday = 1 | 2 | 3 | 4 | 5 | 6 | 7;

export interface Promotion {
  /** `pr_…` */
  id: string;
  cardId: string;
  name: string;
  kind: PromotionKind;
  /** A multiplier times 10 (1.5 → 15), or a bonus in hundredths (2 points → 200). */
  value: number;
  /** First and last shop day it runs, `YYYY-MM-DD`, both included. */
  startsOn: string;
  endsOn: string;
  /** The weekdays it runs on; null: every day. */
  weekdays: Weekday[] | null;
  /** The shop's wall-clock window on those days, `HH:MM`, from included, to excluded; null: all day. */
  hours: { from: string; to: string } | null;
  createdAt: number;
  updatedAt: number;
}

/** A card has at most this many promotions that have not ended (an ended one counts no more). */
export const MAX_OPEN_PROMOTIONS = 10;

/** Multipliers are kept as integers of tenths: 1.5 is 15. */
export const MULTIPLIER_SCALE = 10;
