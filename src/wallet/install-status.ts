// A customer is `installed` while any wallet holds the pass (an Apple device
// registration or a saved Google object) and `pending_install` otherwise.
import { customersRepo } from '../customers/repo';
import type { Db } from '../db/connection';
import type { Clock } from '../lib/clock';
import { walletRepo } from './repo';

/** Recomputes the status from the registrations; call inside the transaction that changed them. */
export function refreshInstallStatus(db: Db, clock: Clock, customerId: string): void {
  if (!db.inTransaction) throw new Error('refreshInstallStatus must run inside the registration change');
  const customer = customersRepo(db).findByPassUserId(customerId);
  if (!customer) return;
  const wallet = walletRepo(db);
  const held = wallet.countRegistrations(customerId) > 0 || wallet.isGoogleSaved(customerId);
  const status = held ? 'installed' : 'pending_install';
  if (customer.status !== status) customersRepo(db).setStatus(customerId, status, clock.now());
}
