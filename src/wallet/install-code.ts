// Finds the customer behind an install code without letting response time depend on the secret:
// the index is searched by the code's first characters only (a selector), and the whole code is
// then compared in constant time. A wrong code and a code of another card look the same.
import type { Customer } from '../customers/model';
import { customersRepo } from '../customers/repo';
import type { Db } from '../db/open';
import { CODE_TIME_CHARS } from '../lib/ids';
import { sameSecret } from '../lib/secrets';
import { walletRepo } from './repo';

// A code leads with the second it was made (lib/ids secretCode), so the selector takes 6 random
// symbols after those: customers enrolled in the same second (an import makes thousands) share
// the time, and the range read below stops at 16 rows.
export const SELECTOR_LENGTH = CODE_TIME_CHARS + 6;
/** Shorter codes would leave too little secret after the selector; they never match. */
export const MIN_INSTALL_CODE_LENGTH = 16;

export function findCustomerByInstallCode(db: Db, code: string | undefined, cardId?: string): Customer | undefined {
  if (!code || code.length < MIN_INSTALL_CODE_LENGTH || code.length > 200) return undefined;
  let matchId: string | undefined;
  for (const candidate of walletRepo(db).customersWithInstallSelector(code.slice(0, SELECTOR_LENGTH))) {
    if (sameSecret(code, candidate.installCode)) matchId = candidate.id;
  }
  if (!matchId) return undefined;
  const customer = customersRepo(db).findByPassUserId(matchId);
  if (!customer || (cardId !== undefined && customer.cardId !== cardId)) return undefined;
  return customer;
}
