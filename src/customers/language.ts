import type { Db } from '../db/connection';
import { inTransaction } from '../db/transaction';
import type { WriteDeps } from '../deps';
import type { Lang } from '../i18n/langs';
import { ApiError } from '../lib/errors';
import { readOrgSettings } from '../orgs/settings';
import type { Customer } from './model';
import { customersRepo } from './repo';

// The language a customer is spoken to in: their pass, their emails. They choose it on the
// sign-up page (the language it was served in is stored with them) and may change it later from
// their get-pass or web pass page; until then, the shop's language.

/** The language of the customer's pass and emails. */
export function customerLang(db: Db, customer: Pick<Customer, 'orgId' | 'language'>): Lang {
  return customer.language ?? readOrgSettings(db, customer.orgId).language;
}

/**
 * Stores the customer's choice of language. Their pass shows it: a new pass version, and the
 * installed passes are updated after the commit. Choosing the language they already have writes
 * nothing. 404 CUSTOMER_NOT_FOUND when the customer was erased meanwhile.
 */
export function setCustomerLanguage(deps: WriteDeps, customer: Pick<Customer, 'id'>, lang: Lang): Customer {
  return inTransaction(deps.db, () => {
    const repo = customersRepo(deps.db);
    const current = repo.findByPassUserId(customer.id);
    if (!current || current.erasedAt !== null) throw new ApiError(404, 'CUSTOMER_NOT_FOUND', { detail: 'there is no such customer' });
    if (current.language === lang) return current;
    repo.setLanguage(current.id, lang, deps.clock.now());
    deps.onChange.balanceChanged(deps, current.id);
    return repo.findByPassUserId(current.id)!;
  });
}
