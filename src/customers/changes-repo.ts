import type { Db } from '../db/connection';
import { perConnection } from '../db/per-connection';

// The record of changes to a customer's details (the console's edit) and of their erasure: who
// made each and when, shown in the customer's history and exported with their data.

export type ContactField = 'name' | 'email' | 'phone';

export interface FieldChange {
  field: ContactField;
  /** Absent once the customer was erased: only which fields changed is kept. */
  from?: string | null;
  to?: string | null;
}

export interface CustomerChange {
  kind: 'edit' | 'erase';
  channel: 'console' | 'api';
  adminEmail: string | null;
  changes: FieldChange[];
  createdAt: number;
}

interface Row {
  kind: CustomerChange['kind'];
  channel: CustomerChange['channel'];
  admin_email: string | null;
  changes: string;
  created_at: number;
}

function createChangesRepo(db: Db) {
  const insert = db.prepare(
    `INSERT INTO customer_changes (customer_id, kind, channel, admin_id, admin_email, changes, created_at)
     VALUES (@customerId, @kind, @channel, @adminId, @adminEmail, @changes, @createdAt)`,
  );
  const ofCustomer = db.prepare<[string], Row>('SELECT kind, channel, admin_email, changes, created_at FROM customer_changes WHERE customer_id = ? ORDER BY created_at DESC, id DESC');
  return {
    insert(customerId: string, change: CustomerChange & { adminId: string | null }) {
      insert.run({ customerId, kind: change.kind, channel: change.channel, adminId: change.adminId, adminEmail: change.adminEmail, changes: JSON.stringify(change.changes), createdAt: change.createdAt });
    },
    /** Newest first; a customer has a handful at most. */
    list: (customerId: string): CustomerChange[] =>
      ofCustomer.all(customerId).map((r) => ({ kind: r.kind, channel: r.channel, adminEmail: r.admin_email, changes: JSON.parse(r.changes) as FieldChange[], createdAt: r.created_at })),
  };
}

export const changesRepo = perConnection(createChangesRepo);
