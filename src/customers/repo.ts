import { namespaceParams, type NamespaceParams } from '../db/namespace-params';
import type { Db } from '../db/open';
import { perConnection } from '../db/per-connection';
import { viewStamp } from '../db/write-batch';
import type { Customer, Namespace } from './model';

// Rows are read as arrays (better-sqlite3's raw mode), in this column order: a row object with
// twenty named properties cost more than the lookup itself on every API request (V8 built its
// shape property by property, by name, for each row).
const COLUMNS = [
  'id', 'org_id', 'card_id', 'livemode', 'external_id', 'name', 'email', 'email_norm', 'phone', 'phone_norm',
  'custom_fields', 'status', 'source', 'install_code', 'scan_code', 'balance', 'pass_version', 'pass_updated_at', 'created_at', 'updated_at',
] as const;
const SELECT = `SELECT ${COLUMNS.join(', ')} FROM customers`;

type RawCustomer = [
  id: string, orgId: string, cardId: string, livemode: number, externalId: string | null, name: string | null, email: string | null,
  emailNorm: string | null, phone: string | null, phoneNorm: string | null, customFields: string, status: Customer['status'],
  source: Customer['source'], installCode: string, scanCode: string, balance: number, passVersion: number, passUpdatedAt: number,
  createdAt: number, updatedAt: number,
];

const map = (r: RawCustomer): Customer => ({
  id: r[0],
  orgId: r[1],
  cardId: r[2],
  livemode: r[3] === 1,
  externalId: r[4],
  name: r[5],
  email: r[6],
  emailNorm: r[7],
  phone: r[8],
  phoneNorm: r[9],
  customFields: JSON.parse(r[10]) as Customer['customFields'],
  status: r[11],
  source: r[12],
  installCode: r[13],
  scanCode: r[14],
  balance: r[15],
  passVersion: r[16],
  passUpdatedAt: r[17],
  createdAt: r[18],
  updatedAt: r[19],
});

/** The namespace's parameters, plus `more` (db/namespace-params.ts). */
export const ns = <T extends object = object>(n: Namespace, more?: T) => namespaceParams(n.orgId, n.livemode, more);

function createCustomersRepo(db: Db) {
  const insert = db.prepare(
    `INSERT INTO customers (id, org_id, card_id, livemode, external_id, name, email, email_norm, phone, phone_norm,
                            custom_fields, status, source, install_code, scan_code, balance, pass_version, pass_updated_at, created_at, updated_at)
     VALUES (@id, @orgId, @cardId, @livemode, @externalId, @name, @email, @emailNorm, @phone, @phoneNorm,
             @customFields, @status, @source, @installCode, @scanCode, @balance, @passVersion, @passUpdatedAt, @createdAt, @updatedAt)`,
  );
  const byId = db.prepare<NamespaceParams & { id: string }, RawCustomer>(`${SELECT} WHERE id = @id AND org_id = @orgId AND livemode = @livemode`).raw();
  const byExternal = db.prepare<NamespaceParams & { externalId: string }, RawCustomer>(
    `${SELECT} WHERE org_id = @orgId AND livemode = @livemode AND external_id = @externalId`,
  ).raw();
  // LIMIT 11: enough to list candidates of an ambiguous match without reading a whole table.
  const byEmail = db.prepare<NamespaceParams & { email: string }, RawCustomer>(
    `${SELECT} WHERE org_id = @orgId AND livemode = @livemode AND email_norm = @email ORDER BY created_at, rowid LIMIT 11`,
  ).raw();
  const byPhone = db.prepare<NamespaceParams & { phone: string }, RawCustomer>(
    `${SELECT} WHERE org_id = @orgId AND livemode = @livemode AND phone_norm = @phone ORDER BY created_at, rowid LIMIT 11`,
  ).raw();
  const byEmailOnCard = db.prepare<NamespaceParams & { email: string; cardId: string }, RawCustomer>(
    `${SELECT} WHERE org_id = @orgId AND livemode = @livemode AND email_norm = @email AND card_id = @cardId ORDER BY created_at, rowid LIMIT 11`,
  ).raw();
  const byPhoneOnCard = db.prepare<NamespaceParams & { phone: string; cardId: string }, RawCustomer>(
    `${SELECT} WHERE org_id = @orgId AND livemode = @livemode AND phone_norm = @phone AND card_id = @cardId ORDER BY created_at, rowid LIMIT 11`,
  ).raw();
  const byPassUserId = db.prepare<[string], RawCustomer>(`${SELECT} WHERE id = ?`).raw();
  const setExternal = db.prepare('UPDATE customers SET external_id = @externalId, updated_at = @now WHERE id = @id');
  const setFields = db.prepare('UPDATE customers SET custom_fields = @customFields, updated_at = @now WHERE id = @id');
  const setBalance = db.prepare(
    'UPDATE customers SET balance = @balance, pass_version = pass_version + 1, pass_updated_at = @now, updated_at = @now WHERE id = @id',
  );
  const setStatus = db.prepare('UPDATE customers SET status = @status, updated_at = @now WHERE id = @id');
  const countInMode = db.prepare<NamespaceParams, { n: number }>('SELECT count(*) AS n FROM customers WHERE org_id = @orgId AND livemode = @livemode');
  const testOlderThan = db.prepare<[number], { id: string }>('SELECT id FROM customers WHERE livemode = 0 AND created_at < ?');
  const remove = db.prepare('DELETE FROM customers WHERE id = ?');

  // The last customer read by one of the single-row finders, and the connection's view stamp then
  // (db/write-batch.ts). One slot, not a WeakMap of every copy: an API request reads one customer,
  // and weak keys cost the garbage collector more than the second read they would save.
  const stampNow = viewStamp(db);
  let lastRead: Customer | undefined;
  let lastReadAt = Number.NaN;
  const read = (row: RawCustomer | undefined): Customer | undefined => {
    if (!row) return undefined;
    lastRead = map(row);
    lastReadAt = stampNow();
    return lastRead;
  };

  return {
    insert(c: Customer) {
      insert.run({ ...c, livemode: c.livemode ? 1 : 0, customFields: JSON.stringify(c.customFields) });
    },
    findById: (n: Namespace, id: string) => read(byId.get(ns(n, { id }))),
    findByExternalId: (n: Namespace, externalId: string) => read(byExternal.get(ns(n, { externalId }))),
    /** Up to 11 customers with this email (normalised) in the namespace, optionally on one card. */
    findByEmail: (n: Namespace, email: string, cardId?: string) =>
      (cardId ? byEmailOnCard.all(ns(n, { email, cardId })) : byEmail.all(ns(n, { email }))).map(map),
    findByPhone: (n: Namespace, phone: string, cardId?: string) =>
      (cardId ? byPhoneOnCard.all(ns(n, { phone, cardId })) : byPhone.all(ns(n, { phone }))).map(map),
    /** Across orgs and modes: for the wallet protocols, whose passes carry the passUserId. */
    findByPassUserId: (id: string) => read(byPassUserId.get(id)),
    /**
     * The customer as stored now, or undefined when it is gone. That is `copy` itself when it is
     * the last one this repo read by id, external id or passUserId, in the transaction still open,
     * with nothing written on the connection since: the view stamp moves at every BEGIN, so an
     * unchanged stamp means no transaction began since that read. Otherwise it is read again.
     */
    current: (copy: Customer) => (copy === lastRead && lastReadAt === stampNow() && db.inTransaction ? copy : read(byPassUserId.get(copy.id))),
    setExternalId(id: string, externalId: string | null, now: number) {
      setExternal.run({ id, externalId, now });
    },
    setCustomFields(id: string, customFields: Customer['customFields'], now: number) {
      setFields.run({ id, customFields: JSON.stringify(customFields), now });
    },
    /** Sets the balance and bumps the pass version, so wallets learn the pass changed. */
    setBalance(id: string, balance: number, now: number) {
      setBalance.run({ id, balance, now });
    },
    setStatus(id: string, status: Customer['status'], now: number) {
      setStatus.run({ id, status, now });
    },
    count: (n: Namespace) => countInMode.get(ns(n))!.n,
    testCustomerIdsCreatedBefore: (cutoff: number) => testOlderThan.all(cutoff).map((r) => r.id),
    /** Removes the customer and (by cascade) its ledger rows. */
    remove(id: string) {
      remove.run(id);
    },
  };
}

export const customersRepo = perConnection(createCustomersRepo);
