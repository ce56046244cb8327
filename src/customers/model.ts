import type { Lang } from '../i18n/langs';
import type { Channel } from '../lib/changes';

export type CustomerStatus = 'pending_install' | 'installed';
export type CustomFieldValue = string | number | boolean;

/**
 * One person on one card. `balance` is hundredths and always equals the sum of its ledger rows.
 * Read-only: a copy is the row as it was read, and customersRepo's `current` hands a copy back
 * as the stored row when nothing can have changed it since.
 */
export interface Customer {
  readonly id: string;
  readonly orgId: string;
  readonly cardId: string;
  readonly livemode: boolean;
  readonly externalId: string | null;
  readonly name: string | null;
  readonly email: string | null;
  readonly emailNorm: string | null;
  readonly phone: string | null;
  readonly phoneNorm: string | null;
  readonly customFields: Readonly<Record<string, CustomFieldValue>>;
  readonly status: CustomerStatus;
  /** The channel that created the customer: the API, the counter, the sign-up form, the console or an import. */
  readonly source: Channel;
  readonly installCode: string;
  readonly scanCode: string;
  readonly balance: number;
  /** When the customer was last awarded anything (ms); inactivity expiry counts from it. */
  readonly lastAwardAt: number | null;
  readonly passVersion: number;
  readonly passUpdatedAt: number;
  /** The SHA-256 of the agreement the customer ticked on the sign-up form (customers/consent-repo.ts), and when; null otherwise. */
  readonly consentSha256: string | null;
  readonly consentAt: number | null;
  readonly createdAt: number;
  readonly updatedAt: number;
  /** When the customer's personal data was erased; such a customer is read only by the wallet protocols (to void the pass). */
  readonly erasedAt: number | null;
  /** The language they chose or were served at sign-up: their pass and emails use it. Null: the shop's language. */
  readonly language: Lang | null;
}

/** Where a customer is looked up: an org's live data or its test sandbox. */
export interface Namespace {
  orgId: string;
  livemode: boolean;
}
