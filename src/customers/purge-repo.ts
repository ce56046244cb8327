import type { Db } from '../db/connection';
import { perConnection } from '../db/per-connection';

// What a test customer owns beyond its own row, for the 30-day sweep. Ledger rows cascade from
// the customer row and deliveries (with their attempts) from the event rows, but events carry no
// foreign key to the customer (org-level events have none), so they are removed here. A feature
// that adds customer-owned rows without ON DELETE CASCADE adds its statement here.
function createPurgeRepo(db: Db) {
  // livemode = 0: whatever the caller passes, a live customer's events are never touched.
  const events = db.prepare('DELETE FROM events WHERE customer_id = ? AND livemode = 0');
  return {
    removeTestCustomerEvents: (customerId: string) => events.run(customerId).changes,
  };
}

export const purgeRepo = perConnection(createPurgeRepo);
