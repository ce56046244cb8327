import { cardsRepo } from '../cards/repo';
import type { Config } from '../config';
import type { Db } from '../db/connection';
import { perConnection } from '../db/per-connection';
import { isoTime } from '../lib/clock';
import { balanceObject } from '../loyalty/balance';
import { transactionResource } from '../loyalty/history';
import { ledgerRepo, type LedgerEntry, type LedgerPosition } from '../loyalty/repo';
import { mailRepo } from '../mail/repo';
import { changesRepo } from './changes-repo';
import { consentOf, type Consent } from './consent';
import type { Customer } from './model';
import { installUrl } from './resource';

// One customer's data, for their right of access and portability (decisions §9): everything this
// server keeps about them, as JSON — the console's "Download data" and `customer export` on the
// command line. Amounts are in the card's units, times ISO 8601 UTC, as in the API.

function createExportRepo(db: Db) {
  const applePass = db.prepare<[string], { created_at: number }>('SELECT created_at FROM wallet_passes WHERE customer_id = ?');
  const appleDevices = db.prepare<[string], { n: number }>('SELECT count(*) AS n FROM wallet_apple_registrations WHERE customer_id = ?');
  const google = db.prepare<[string], { object_id: string; link_issued_at: number; saved_at: number | null }>(
    'SELECT object_id, link_issued_at, saved_at FROM wallet_google_objects WHERE customer_id = ?',
  );
  // The shop's messages to them: written to them alone, or reaching their passes as one of an audience.
  const messages = db.prepare<{ id: string }, { id: string; header: string; body: string; personal: number; created_at: number; passes: string }>(
    `SELECT m.id, m.header, m.body, m.customer_id IS NOT NULL AS personal, m.created_at,
            (SELECT json_group_array(json_object('wallet', d.channel, 'status', d.status)) FROM message_deliveries d WHERE d.message_id = m.id AND d.customer_id = @id) AS passes
     FROM messages m
     WHERE m.customer_id = @id OR m.id IN (SELECT message_id FROM message_deliveries WHERE customer_id = @id)
     ORDER BY m.created_at, m.rowid`,
  );
  return {
    messages: (id: string) =>
      messages.all({ id }).map((m) => ({ messageId: m.id, header: m.header, body: m.body, toThemAlone: m.personal === 1, sentAt: isoTime(m.created_at), passes: JSON.parse(m.passes) as { wallet: string; status: string }[] })),
    applePass: (id: string) => applePass.get(id),
    appleDevices: (id: string) => appleDevices.get(id)!.n,
    google: (id: string) => google.get(id),
  };
}
const exportRepo = perConnection(createExportRepo);

const time = (ms: number | null | undefined) => (ms === null || ms === undefined ? null : isoTime(ms));

/** The whole ledger, oldest first, read a page at a time. */
function wholeLedger(db: Db, customerId: string): LedgerEntry[] {
  const rows: LedgerEntry[] = [];
  let after: LedgerPosition | undefined;
  for (;;) {
    const page = ledgerRepo(db).page(customerId, 500, after);
    rows.push(...page);
    const last = page[page.length - 1];
    if (page.length < 500 || !last) return rows.reverse();
    after = { createdAt: last.createdAt, seq: last.seq };
  }
}

export function customerExport(deps: { db: Db; config: Pick<Config, 'installBaseUrl'>; clock: { now(): number } }, customer: Customer) {
  const { db } = deps;
  const card = cardsRepo(db).findById(customer.cardId)!;
  const wallet = exportRepo(db);
  const apple = wallet.applePass(customer.id);
  const google = wallet.google(customer.id);
  return {
    exportedAt: isoTime(deps.clock.now()),
    customer: {
      passUserId: customer.id,
      externalCustomerId: customer.externalId,
      name: customer.name,
      email: customer.email,
      phone: customer.phone,
      status: customer.status,
      joinedVia: customer.source,
      livemode: customer.livemode,
      balance: balanceObject(card, customer.balance),
      createdAt: isoTime(customer.createdAt),
      updatedAt: isoTime(customer.updatedAt),
    },
    card: { cardId: card.id, name: card.name, passType: card.passType },
    answers: Object.entries(customer.customFields).map(([key, value]) => {
      const question = card.questions.find((q) => q.key === key);
      return { key, label: question?.label ?? key, type: question?.type ?? null, value };
    }),
    consent: exportedConsent(consentOf(deps.db, customer)),
    passes: {
      installUrl: installUrl(deps.config, customer),
      scanCode: customer.scanCode,
      apple: apple ? { issuedAt: isoTime(apple.created_at), devices: wallet.appleDevices(customer.id) } : null,
      google: google ? { objectId: google.object_id, linkIssuedAt: isoTime(google.link_issued_at), savedAt: time(google.saved_at) } : null,
    },
    ledger: wholeLedger(db, customer.id).map((row) => {
      const { source, ...rest } = transactionResource(row);
      return { ...rest, channel: source };
    }),
    emails: mailRepo(db)
      .ofCustomer(customer.id, 1000)
      .reverse()
      .map((m) => ({ kind: m.kind, requestedVia: m.via, to: m.recipient, status: m.status, attempts: m.attempts, error: m.error, createdAt: isoTime(m.createdAt), updatedAt: isoTime(m.updatedAt) })),
    changes: changesRepo(db)
      .list(customer.id)
      .reverse()
      .map((c) => ({ kind: c.kind, channel: c.channel, by: c.adminEmail, changes: c.changes, at: isoTime(c.createdAt) })),
    messages: wallet.messages(customer.id),
  };
}

export type CustomerExport = ReturnType<typeof customerExport>;

/** The agreement the customer ticked, its version and when; null when they joined another way. */
function exportedConsent(consent: Consent | null) {
  return consent && { text: consent.text, version: consent.version, givenAt: isoTime(consent.givenAt) };
}
