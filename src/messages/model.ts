// A message from the shop to the passes of one customer or of a card's audience. Audiences as the
// API takes them; amounts (minBalance) in the card's units, as everywhere at the edge.

export const HEADER_MAX = 40;
export const BODY_MAX = 200;
/** visitedWithinDays and notVisitedForDays go up to ten years. */
export const MAX_DAYS = 3650;

export type Audience = 'all' | { level: string } | { visitedWithinDays: number } | { notVisitedForDays: number } | { minBalance: number };

export type Channel = 'apple' | 'google' | 'web';
export type DeliveryStatus = 'pending' | 'delivered' | 'shown' | 'failed';

export interface Message {
  id: string;
  orgId: string;
  livemode: boolean;
  cardId: string;
  /** The one customer it was written to; null for an audience message. */
  customerId: string | null;
  audience: Audience | null;
  header: string;
  body: string;
  /** Customers it reached when it was sent. */
  recipients: number;
  source: 'api' | 'console';
  createdAt: number;
}

/** How a message's passes fared: one count per status. */
export interface DeliveryFigures {
  passes: number;
  pending: number;
  delivered: number;
  shown: number;
  failed: number;
}

/** Who an audience reaches now: customers, and their passes by wallet. */
export interface Reach {
  customers: number;
  passes: { apple: number; google: number; web: number };
  /** Customers of the audience left out because an audience message reached them this shop day already. */
  alreadyMessagedToday: number;
}
