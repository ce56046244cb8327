import type { Config } from '../config';
import type { Customer } from './model';

/**
 * The link that installs this customer's pass: `{installBaseUrl}/get-pass/<cardId>?code=<code>`.
 * The code is the customer's own random install token, never the passUserId, so links cannot be
 * enumerated.
 */
export function installUrl(config: Pick<Config, 'installBaseUrl'>, customer: Pick<Customer, 'cardId' | 'installCode'>): string {
  return `${config.installBaseUrl}/get-pass/${encodeURIComponent(customer.cardId)}?code=${encodeURIComponent(customer.installCode)}`;
}
