import { createHmac } from 'node:crypto';
import type { Config } from '../config';
import type { Customer } from '../customers/model';
import { customersRepo } from '../customers/repo';
import type { Db } from '../db/connection';
import { serverSecret } from '../db/secrets';
import { inTransaction } from '../db/transaction';
import type { Clock } from '../lib/clock';
import { sameSecret } from '../lib/secrets';
import { unsubscribesRepo } from './unsubscribes-repo';

// The link in the sweeps' emails (expiry reminders, birthday greetings) that stops them for that
// customer, and only them: the card email a customer asks for is still sent on request. The link
// holds the passUserId and a MAC of it under a secret this server keeps with its data, so it needs
// no table of its own, cannot be made up for another customer, and works for as long as the
// customer exists. Whoever holds the email can use it, which is what such a link is for.

const SECRET_NAME = 'unsubscribe-links';
/** Base64url characters of the MAC: 22 are 132 bits. */
const MAC_LENGTH = 22;
const TOKEN = /^([A-Za-z0-9]{1,64})\.([A-Za-z0-9_-]{22})$/;

type Deps = { db: Db; clock: Clock };

function mac(deps: Deps, customerId: string): string {
  return createHmac('sha256', serverSecret(deps.db, SECRET_NAME, deps.clock.now())).update(`unsubscribe\n${customerId}`).digest('base64url').slice(0, MAC_LENGTH);
}

/** The address of the customer's unsubscribe page, on the customers' side of the server (INSTALL_BASE_URL). */
export function unsubscribeUrl(deps: Deps & { config: Pick<Config, 'installBaseUrl'> }, customerId: string): string {
  return `${deps.config.installBaseUrl}/unsubscribe/${customerId}.${mac(deps, customerId)}`;
}

/**
 * The customer a token names, when its MAC is right: `erased` for a customer whose data was
 * deleted meanwhile (their emails stopped with it); undefined for anything else.
 */
export function customerOfUnsubscribeToken(deps: Deps, token: string): Customer | 'erased' | undefined {
  const parts = TOKEN.exec(token);
  if (!parts || !sameSecret(parts[2]!, mac(deps, parts[1]!))) return undefined;
  const customer = customersRepo(deps.db).findByPassUserId(parts[1]!);
  if (!customer) return undefined;
  return customer.erasedAt === null ? customer : 'erased';
}

/** When the customer stopped the reminder and birthday emails; undefined when they did not. */
export function unsubscribedAt(db: Db, customerId: string): number | undefined {
  return unsubscribesRepo(db).at(customerId);
}

/** Stops the reminder and birthday emails for the customer; a repeat changes nothing. */
export function unsubscribeFromNotices(deps: Deps, customerId: string): void {
  inTransaction(deps.db, () => unsubscribesRepo(deps.db).add(customerId, deps.clock.now()));
}
