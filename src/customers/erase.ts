import { inTransaction } from '../db/transaction';
import type { AppDeps, WriteDeps } from '../deps';
import { wakeAfterCommit } from '../db/after-commit';
import { mergeSearchIndex } from './search-merge';
import { emitEvent } from '../events/outbox';
import type { Customer, Namespace } from './model';
import { changesRepo, type ContactField } from './changes-repo';
import { eraseRepo } from './erase-repo';
import { resolveCustomer } from './refs';
import { erasedCodeMarker } from './secret-codes';
import { notFound } from '../lib/errors';

// The right to erasure (decisions §9): a customer's personal data goes, their ledger stays for the
// shop's books. In one transaction:
// - name, email, phone, answers and external id become NULL; the install and scan codes become
//   markers no lookup accepts, so old links and the pass's barcode stop working;
// - every other copy goes: the search index (the row at once; its words when the index is merged
//   in steps after the commit, search-merge.ts), the addresses of sent emails, stored API answers
//   naming the customer, the external id in earlier events' payloads, the values in the record of edits;
// - the pass is voided: its version moves on and the wallets are told (Apple: a voided pass;
//   Google: the object made inactive; the web pass says the card was removed);
// - customer.deleted tells integrators, with the external id as it was, so they can find their copy.
// The ledger rows keep only the passUserId. Afterwards the customer reads as CUSTOMER_NOT_FOUND.

export type ErasedBy = { channel: 'api' } | { channel: 'console'; admin: { id: string; email: string } };

export interface ErasureResult {
  passUserId: string;
  deleted: true;
}

const PERSONAL_FIELDS: ContactField[] = ['name', 'email', 'phone'];

export type EraseDeps = WriteDeps & Pick<AppDeps, 'log'>;

/** Erases `customer`; one already erased (another request's erasure came first) is 404, as a repeat is. */
export function eraseCustomer(deps: EraseDeps, customer: Customer, by: ErasedBy): ErasureResult {
  return inTransaction(deps.db, (): ErasureResult => {
    const now = deps.clock.now();
    const repo = eraseRepo(deps.db);
    const cleared = repo.clearPersonal({ id: customer.id, installCode: erasedCodeMarker(customer.installCode), scanCode: erasedCodeMarker(customer.scanCode), now });
    if (!cleared) throw notFound('CUSTOMER_NOT_FOUND', `pu_${customer.id}`);
    repo.markErased(customer.id, now);
    repo.scrubEvents({ id: customer.id, orgId: customer.orgId, livemode: customer.livemode, since: customer.createdAt });
    repo.dropIdempotency({ id: customer.id, orgId: customer.orgId, livemode: customer.livemode });
    repo.scrubMail(customer.id, now);
    repo.scrubChanges(customer.id);
    // Other features' copies (the import's drafts), with the values before the erasure.
    deps.onChange.customerErased(deps, { orgId: customer.orgId, livemode: customer.livemode, email: customer.email, phone: customer.phone, externalId: customer.externalId });
    repo.dropBirthday(customer.id);
    repo.dropMessages(customer.id);
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
    repo.scrubUndelivered(event.id);
    // What the pass shows changed (it is void now): the wallet queues the push, as after a balance change.
    deps.onChange.balanceChanged(deps, customer.id);
    // The row left the index with the trigger; its words go with the merge after the commit.
    wakeAfterCommit(deps.db, 'search-merge', () => void mergeSearchIndex(deps));
    return { passUserId: customer.id, deleted: true };
  });
}

/** DELETE /v1/customers/{ref}: the ref resolved in the caller's org and mode, inside the erasure's transaction. */
export function eraseCustomerByRef(deps: EraseDeps, n: Namespace, ref: string): ErasureResult {
  return inTransaction(deps.db, () => eraseCustomer(deps, resolveCustomer(deps.db, n, ref), { channel: 'api' }));
}
