import { namespaceParams, type NamespaceParams } from '../db/namespace-params';
import type { Db } from '../db/connection';
import { perConnection } from '../db/per-connection';
import { isLang } from '../i18n/langs';
import type { Customer, Namespace } from './model';

interface CustomerRow {
  id: string;
  org_id: string;
  card_id: string;
  livemode: number;
  external_id: string | null;
  name: string | null;
  email: string | null;
  email_norm: string | null;
  phone: string | null;
  phone_norm: string | null;
  custom_fields: string;
  status: Customer['status'];
  source: Customer['source'];
  install_code: string;
  scan_code: string;
  balance: number;
  last_award_at: number | null;
  pass_version: number;
  pass_updated_at: number;
  consent_sha256: string | null;
  consent_at: number | null;
  created_at: number;
  updated_at: number;
  erased_at: number | null;
  language: string | null;
}

const map = (r: CustomerRow): Customer => ({
  id: r.id,
  orgId: r.org_id,
  cardId: r.card_id,
  livemode: r.livemode === 1,
  externalId: r.external_id,
  name: r.name,
  email: r.email,
  emailNorm: r.email_norm,
  phone: r.phone,
  phoneNorm: r.phone_norm,
  customFields: JSON.parse(r.custom_fields) as Customer['customFields'],
  status: r.status,
  source: r.source,
  installCode: r.install_code,
  scanCode: r.scan_code,
  balance: r.balance,
  lastAwardAt: r.last_award_at,
  passVersion: r.pass_version,
  passUpdatedAt: r.pass_updated_at,
  consentSha256: r.consent_sha256,
  consentAt: r.consent_at,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  erasedAt: r.erased_at,
  // Written only through the program, which checks it; a code no longer known reads as the shop's language.
  language: isLang(r.language) ? r.language : null,
});

const SELECT = 'SELECT * FROM customers';

/** The namespace's parameters, plus `more` (db/namespace-params.ts). */
export const ns = <T extends object = object>(n: Namespace, more?: T) => namespaceParams(n.orgId, n.livemode, more);

function createCustomersRepo(db: Db) {
  const insert = db.prepare(
    `INSERT INTO customers (id, org_id, card_id, livemode, external_id, name, email, email_norm, phone, phone_norm,
                            custom_fields, status, source, install_code, scan_code, balance, pass_version, pass_updated_at, consent_sha256, consent_at, created_at, updated_at, language)
     VALUES (@id, @orgId, @cardId, @livemode, @externalId, @name, @email, @emailNorm, @phone, @phoneNorm,
             @customFields, @status, @source, @installCode, @scanCode, @balance, @passVersion, @passUpdatedAt, @consentSha256, @consentAt, @createdAt, @updatedAt, @language)`,
  );
  // An erased customer is nobody's any more: every read by passUserId for people leaves it out.
  const byId = db.prepare<NamespaceParams & { id: string }, CustomerRow>(`${SELECT} WHERE id = @id AND org_id = @orgId AND livemode = @livemode AND erased_at IS NULL`);
  const byExternal = db.prepare<NamespaceParams & { externalId: string }, CustomerRow>(
    `${SELECT} WHERE org_id = @orgId AND livemode = @livemode AND external_id = @externalId`,
  );
  // LIMIT 11: enough to list candidates of an ambiguous match without reading a whole table.
  const byEmail = db.prepare<NamespaceParams & { email: string }, CustomerRow>(
    `${SELECT} WHERE org_id = @orgId AND livemode = @livemode AND email_norm = @email ORDER BY created_at, rowid LIMIT 11`,
  );
  const byPhone = db.prepare<NamespaceParams & { phone: string }, CustomerRow>(
    `${SELECT} WHERE org_id = @orgId AND livemode = @livemode AND phone_norm = @phone ORDER BY created_at, rowid LIMIT 11`,
  );
  const byEmailOnCard = db.prepare<NamespaceParams & { email: string; cardId: string }, CustomerRow>(
    `${SELECT} WHERE org_id = @orgId AND livemode = @livemode AND email_norm = @email AND card_id = @cardId ORDER BY created_at, rowid LIMIT 11`,
  );
  const byPhoneOnCard = db.prepare<NamespaceParams & { phone: string; cardId: string }, CustomerRow>(
    `${SELECT} WHERE org_id = @orgId AND livemode = @livemode AND phone_norm = @phone AND card_id = @cardId ORDER BY created_at, rowid LIMIT 11`,
  );
  const byPassUserId = db.prepare<[string], CustomerRow>(`${SELECT} WHERE id = ?`);
  const setExternal = db.prepare('UPDATE customers SET external_id = @externalId, updated_at = @now WHERE id = @id');
  const setFields = db.prepare('UPDATE customers SET custom_fields = @customFields, updated_at = @now WHERE id = @id');
  // last_award_at moves in the same UPDATE as the balance: no page more to write per award.
  const setBalance = db.prepare(
    `UPDATE customers SET balance = @balance, pass_version = pass_version + 1, pass_updated_at = @now, updated_at = @now,
       last_award_at = CASE WHEN @setLastAward = 1 THEN @lastAwardAt ELSE last_award_at END
     WHERE id = @id`,
  );
  const setStatus = db.prepare('UPDATE customers SET status = @status, updated_at = @now WHERE id = @id');
  // The pass is in the customer's language: a new language is a new pass version.
  const setLanguage = db.prepare(
    'UPDATE customers SET language = @language, pass_version = pass_version + 1, pass_updated_at = @now, updated_at = @now WHERE id = @id AND erased_at IS NULL',
  );
  const countInMode = db.prepare<NamespaceParams, { n: number }>('SELECT count(*) AS n FROM customers WHERE org_id = @orgId AND livemode = @livemode');
  const testOlderThan = db.prepare<[number], { id: string }>('SELECT id FROM customers WHERE livemode = 0 AND created_at < ?');
  const remove = db.prepare('DELETE FROM customers WHERE id = ?');
  // A range of each code's UNIQUE index (customers/secret-codes.ts).
  const byInstallSelector = db.prepare<{ from: string; below: string }, { id: string; code: string }>(
    'SELECT id, install_code AS code FROM customers WHERE install_code >= @from AND install_code < @below LIMIT 64',
  );
  const byScanSelector = db.prepare<{ from: string; below: string }, { id: string; code: string }>(
    'SELECT id, scan_code AS code FROM customers WHERE scan_code >= @from AND scan_code < @below LIMIT 64',
  );
  // An erased customer's codes are markers (secret-codes.ts erasedCodeMarker), found by the same UNIQUE indexes.
  const byInstallMarker = db.prepare<[string], { id: string; card_id: string }>('SELECT id, card_id FROM customers WHERE install_code = ? AND erased_at IS NOT NULL');
  const byScanMarker = db.prepare<[string], { id: string; org_id: string }>('SELECT id, org_id FROM customers WHERE scan_code = ? AND erased_at IS NOT NULL');

  const read = (row: CustomerRow | undefined): Customer | undefined => row && map(row);

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
    /** Across orgs and modes, erased customers included: for the wallet protocols, whose passes carry the passUserId (and must learn they were voided). */
    findByPassUserId: (id: string) => read(byPassUserId.get(id)),
    setExternalId(id: string, externalId: string | null, now: number) {
      setExternal.run({ id, externalId, now });
    },
    setCustomFields(id: string, customFields: Customer['customFields'], now: number) {
      setFields.run({ id, customFields: JSON.stringify(customFields), now });
    },
    /** Sets the balance and bumps the pass version, so wallets learn the pass changed; `lastAwardAt` when given (null: none left). */
    setBalance(id: string, balance: number, now: number, lastAwardAt?: number | null) {
      setBalance.run({ id, balance, now, setLastAward: lastAwardAt === undefined ? 0 : 1, lastAwardAt: lastAwardAt ?? null });
    },
    setStatus(id: string, status: Customer['status'], now: number) {
      setStatus.run({ id, status, now });
    },
    /** Sets the customer's language and bumps the pass version; false when the customer was erased. */
    setLanguage: (id: string, language: Customer['language'], now: number) => setLanguage.run({ id, language, now }).changes === 1,
    /** Customers (any org and mode) whose install code starts with the range's selector. */
    withInstallSelector: (range: { from: string; below: string }) => byInstallSelector.all(range),
    /** Customers (any org and mode) whose scan code starts with the range's selector. */
    withScanSelector: (range: { from: string; below: string }) => byScanSelector.all(range),
    /** The erased customer whose install code was `marker`'s, if any. */
    erasedByInstallMarker: (marker: string) => byInstallMarker.get(marker),
    /** The erased customer whose scan code was `marker`'s, if any. */
    erasedByScanMarker: (marker: string) => byScanMarker.get(marker),
    count: (n: Namespace) => countInMode.get(ns(n))!.n,
    testCustomerIdsCreatedBefore: (cutoff: number) => testOlderThan.all(cutoff).map((r) => r.id),
    /** Removes the customer and (by cascade) its ledger rows. */
    remove(id: string) {
      remove.run(id);
    },
  };
}

export const customersRepo = perConnection(createCustomersRepo);
