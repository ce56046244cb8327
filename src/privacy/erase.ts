import { inTransaction } from '../db/transaction';
import { emitEvent } from '../events/outbox';
import type { Customer, Namespace } from '../customers/model';
import { changesRepo, type ContactField } from '../customers/changes-repo';
import { resolveCustomer } from '../customers/refs';
import { PERSONAL_DATA, type EraseDeps } from './copies';
import { eraseRepo } from './erase-repo';

// The right to erasure (docs/customer-data.md#deleting-personal-data-erasure): a customer's
// personal data goes, their ledger stays for the shop's books. In one transaction, every place of
// the list in copies.ts is treated as it says there (the row's values NULL, its codes markers, the
// copies in the search index, emails, stored answers, events, edits, birthdays and import drafts
// gone, the pass voided); the erasure is recorded (which fields, by whom), and customer.deleted
// tells integrators, with the external id as it was, so they can find their copy. Afterwards the
// customer reads as CUSTOMER_NOT_FOUND.

export type ErasedBy = { channel: 'api' } | { channel: 'console'; admin: { id: string; email: string } };

export interface ErasureResult {
  passUserId: string;
  deleted: true;
}

export type { EraseDeps };

const PERSONAL_FIELDS: ContactField[] = ['name', 'email', 'phone'];

/** Erases `customer`; one already erased (another request's erasure came first) is 404, as a repeat is. */
export function eraseCustomer(deps: EraseDeps, customer: Customer, by: ErasedBy): ErasureResult {
  return inTransaction(deps.db, (): ErasureResult => {
    const now = deps.clock.now();
    for (const copy of PERSONAL_DATA) copy.erase?.({ deps, customer, now });
    changesRepo(deps.db).insert(customer.id, {
      kind: 'erase',
      channel: by.channel,
      adminId: by.channel === 'console' ? by.admin.id : null,
      adminEmail: by.channel === 'console' ? by.admin.email : null,
      changes: PERSONAL_FIELDS.filter((field) => customer[field] !== null).map((field) => ({ field })),
      createdAt: now,
    });
    const event = emitEvent(deps, {
      orgId: customer.orgId,
      livemode: customer.livemode,
      type: 'customer.deleted',
      customerId: customer.id,
      data: { passUserId: customer.id, externalCustomerId: customer.externalId, cardId: customer.cardId },
    });
    // Written after the other events were scrubbed, with the id as it was; when no endpoint will
    // receive it, nobody needs the id and it goes at once.
    eraseRepo(deps.db).scrubUndelivered(event.id);
    return { passUserId: customer.id, deleted: true };
  });
}

/** DELETE /v1/customers/{ref}: the ref resolved in the caller's org and mode, inside the erasure's transaction. */
export function eraseCustomerByRef(deps: EraseDeps, n: Namespace, ref: string): ErasureResult {
  return inTransaction(deps.db, () => eraseCustomer(deps, resolveCustomer(deps.db, n, ref), { channel: 'api' }));
}
