import { takesRewards, type Card } from '../cards/model';
import { nextReward } from '../cards/rewards';
import { fromHundredths } from '../lib/money';
import type { Config } from '../config';
import { isoTime } from '../lib/clock';
import { balanceObject, type BalanceObject } from './balance';
import type { Expiring } from './expiring';
import { installUrl } from '../customers/install-url';
import type { Customer, CustomerStatus, CustomFieldValue } from '../customers/model';

export interface CustomerResourceBody {
  externalCustomerId: string | null;
  passUserId: string;
  cardId: string;
  cardType: Card['passType'];
  balance: BalanceObject;
  nextReward: NextRewardBody | null;
  installed: boolean;
  installUrl: string;
  status: CustomerStatus;
  name: string | null;
  email: string | null;
  phone: string | null;
  customFields: Record<string, CustomFieldValue>;
  livemode: boolean;
  createdAt: string;
  /** The next units to expire (units) and the last moment they are valid; null when none will. */
  expiring: { amount: number; at: string } | null;
}

/** The cheapest reward the balance cannot pay yet, and how far away it is (units). */
export interface NextRewardBody {
  rewardId: string;
  name: string;
  cost: number;
  remaining: number;
}

/** What the customer saves up for next on a stamp or point card; null when every reward is affordable, or on other cards. */
function nextRewardBody(card: Card, balance: number): NextRewardBody | null {
  const next = takesRewards(card.passType) ? nextReward(card, balance) : null;
  return next && { rewardId: next.reward.id, name: next.reward.name, cost: fromHundredths(next.reward.cost), remaining: fromHundredths(next.remaining) };
}

/**
 * The customer as every read answers it (GET /v1/customers/{ref}, lookup). One
 * function, so the ledger, wallet and console show the same customer.
 */
export function customerResource(customer: Customer, card: Card, config: Pick<Config, 'installBaseUrl'>, expiring: Expiring | null): CustomerResourceBody {
  return {
    externalCustomerId: customer.externalId,
    passUserId: customer.id,
    cardId: customer.cardId,
    cardType: card.passType,
    balance: balanceObject(card, customer.balance),
    nextReward: nextRewardBody(card, customer.balance),
    installed: customer.status === 'installed',
    installUrl: installUrl(config, customer),
    status: customer.status,
    name: customer.name,
    email: customer.email,
    phone: customer.phone,
    customFields: customer.customFields,
    livemode: customer.livemode,
    createdAt: isoTime(customer.createdAt),
    expiring: expiring && { amount: fromHundredths(expiring.amount), at: isoTime(expiring.at) },
  };
}
