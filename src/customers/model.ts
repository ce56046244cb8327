import type { Channel } from '../loyalty/repo';

export type CustomerStatus = 'pending_install' | 'installed';
export type CustomFieldValue = string | number | boolean;

/** One person on one card. `balance` is hundredths and always equals the sum of its ledger rows. */
export interface Customer {
  id: string;
  orgId: string;
  cardId: string;
  livemode: boolean;
  externalId: string | null;
  name: string | null;
  email: string | null;
  emailNorm: string | null;
  phone: string | null;
  phoneNorm: string | null;
  customFields: Record<string, CustomFieldValue>;
  status: CustomerStatus;
  /** The channel that created the customer: the API, the counter, the sign-up form or the console. */
  source: Channel;
  installCode: string;
  scanCode: string;
  balance: number;
  passVersion: number;
  passUpdatedAt: number;
  createdAt: number;
  updatedAt: number;
}

/** Where a customer is looked up: an org's live data or its test sandbox. */
export interface Namespace {
  orgId: string;
  livemode: boolean;
}
