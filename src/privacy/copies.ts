import type { Card } from '../cards/model';
import type { Config } from '../config';
import { changesRepo } from '../customers/changes-repo';
import { installUrl } from '../customers/install-url';
import type { Customer } from '../customers/model';
import { erasedCodeMarker } from '../customers/secret-codes';
import { wakeAfterCommit } from '../db/after-commit';
import type { Db } from '../db/connection';
import type { AppDeps, WriteDeps } from '../deps';
import { scrubImportDrafts, scrubRefusedRows, type ErasedPerson } from '../import/erasure';
import { isoTime } from '../lib/clock';
import { notFound } from '../lib/errors';
import { balanceObject } from '../loyalty/balance';
import { transactionResource } from '../loyalty/history';
import { ledgerRepo, type LedgerEntry, type LedgerPosition } from '../loyalty/repo';
import { mailRepo } from '../mail/repo';
import { unsubscribedAt } from '../mail/unsubscribe';
import { unsubscribesRepo } from '../mail/unsubscribes-repo';
import { walletRepo } from '../wallet/repo';
import { webPassFirstOpenedAt } from '../wallet/web-pass-opens';
import { consentOf } from './consent';
import { eraseRepo } from './erase-repo';
import { mergeSearchIndex } from './search-merge';

// Every place this server keeps something of a person, in one list: what it holds, what an erasure
// does with it and what the export gives of it. Erasure (erase.ts) runs each entry's `erase` in one
// transaction, in this order; the export (export.ts) joins each entry's `read`, in this order, which
// is the order of the export's sections. A feature that keeps more of a person (a column, a table, a
// JSON payload, a file) adds its entry here, so neither the erasure nor the export can miss it; the
// erasure test looks for the values in the database file afterwards.

export type EraseDeps = WriteDeps & Pick<AppDeps, 'log'>;

/** What an entry's erasure works with: the customer as they were before it began. */
export interface Erasing {
  deps: EraseDeps;
  customer: Customer;
  now: number;
}

/** What an entry's export reads from. */
export interface Exporting {
  db: Db;
  config: Pick<Config, 'installBaseUrl'>;
  customer: Customer;
  card: Card;
}

export interface PersonalCopy {
  /** Where the copy lives: tables and columns, or outside the database. */
  where: string;
  /** What an erasure does with it, and why. */
  erasure: string;
  /** Carries it out inside the erasure's transaction; absent where `erasure` says why nothing is done here. */
  erase?: (x: Erasing) => void;
  /** What the export gives of it (its sections), or why nothing. */
  exported: string;
  /** The export's sections this copy fills. */
  read?: (x: Exporting) => Record<string, unknown>;
}

/** How a file could name the person: the values before the erasure. */
const personOf = (c: Customer): ErasedPerson => ({ orgId: c.orgId, livemode: c.livemode, email: c.email, phone: c.phone, externalId: c.externalId });

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

export const PERSONAL_DATA: readonly PersonalCopy[] = [
  {
    where: 'customers: name, email, phone (and their normalised forms), external_id, custom_fields (the answers)',
    erasure:
      'NULL, the answers {}; the row stays (erased_at set), because the ledger references it. A customer already erased is CUSTOMER_NOT_FOUND, as a repeat is',
    erase: ({ deps, customer, now }) => {
      const repo = eraseRepo(deps.db);
      // One statement for the whole row, the consent reference and the codes included (below).
      const cleared = repo.clearPersonal({ id: customer.id, installCode: erasedCodeMarker(customer.installCode), scanCode: erasedCodeMarker(customer.scanCode), now });
      if (!cleared) throw notFound('CUSTOMER_NOT_FOUND', `pu_${customer.id}`);
      repo.markErased(customer.id, now);
    },
    exported: 'customer (with the balance and the language of their pass and emails), card, answers (with the questions’ labels)',
    read: ({ customer, card }) => ({
      customer: {
        passUserId: customer.id,
        externalCustomerId: customer.externalId,
        name: customer.name,
        email: customer.email,
        phone: customer.phone,
        status: customer.status,
        joinedVia: customer.source,
        livemode: customer.livemode,
        // The language of their pass and emails; null: the shop's.
        language: customer.language,
        balance: balanceObject(card, customer.balance),
        createdAt: isoTime(customer.createdAt),
        updatedAt: isoTime(customer.updatedAt),
      },
      card: { cardId: card.id, name: card.name, passType: card.passType },
      answers: Object.entries(customer.customFields).map(([key, value]) => {
        const question = card.questions.find((q) => q.key === key);
        return { key, label: question?.label ?? key, type: question?.type ?? null, value };
      }),
    }),
  },
  {
    where: 'customers.consent_sha256 and consent_at; the wording in consent_texts',
    erasure: 'the reference and the time go with the row (the statement above); the wording stays: it is the shop’s text, shared by everyone who ticked it',
    exported: 'consent: the wording as they saw it, its version and when',
    read: ({ db, customer }) => {
      const consent = consentOf(db, customer);
      return { consent: consent && { text: consent.text, version: consent.version, givenAt: isoTime(consent.givenAt) } };
    },
  },
  {
    where:
      'customers.install_code and scan_code (the link and the barcode); wallet_passes, wallet_apple_registrations, wallet_google_objects, wallet_pass_updates, wallet_pass_versions (the passes on phones); web_pass_opens',
    erasure:
      'the codes become markers with the row, so the old link and barcode open nothing and say the card was removed; the wallet rows stay, so the devices holding the pass fetch it voided: its version moved on, and the wallets are told (Apple: voided, Google: inactive, the web pass: removed)',
    erase: ({ deps, customer }) => deps.onChange.balanceChanged(deps, customer.id),
    exported: 'passes: the install link, the scan code, the Apple pass (issued, devices), the Google object, the first opening of the web pass',
    read: ({ db, config, customer }) => {
      const wallet = walletRepo(db);
      const appleIssuedAt = wallet.applePassIssuedAt(customer.id);
      const google = wallet.googleObjectOf(customer.id);
      const webPassOpenedAt = webPassFirstOpenedAt(db, customer.id);
      return {
        passes: {
          installUrl: installUrl(config, customer),
          scanCode: customer.scanCode,
          apple: appleIssuedAt === undefined ? null : { issuedAt: isoTime(appleIssuedAt), devices: wallet.countRegistrations(customer.id) },
          google: google ? { objectId: google.objectId, linkIssuedAt: isoTime(google.linkIssuedAt), savedAt: time(google.savedAt) } : null,
          webPass: webPassOpenedAt === undefined ? null : { firstOpenedAt: isoTime(webPassOpenedAt) },
        },
      };
    },
  },
  {
    where: 'customer_search and customer_search_rows (the search index: name, email, phone, external id)',
    erasure:
      'the row leaves the index by trigger when it is marked erased; FTS5 keeps its words until the segments holding them are merged, which runs in steps after the commit (search-merge.ts)',
    erase: ({ deps }) => wakeAfterCommit(deps.db, 'search-merge', () => void mergeSearchIndex(deps)),
    exported: 'nothing more: a copy of the row’s values',
  },
  {
    where: 'transactions and award_lots (the ledger), expiry_reminders (which reminders went out)',
    erasure:
      'kept for the shop’s books, named by the passUserId only: amounts, times, channels, the staff member, the notes as written',
    exported: 'ledger: every row, oldest first, with its channel and staff member',
    read: ({ db, customer }) => ({
      ledger: wholeLedger(db, customer.id).map((row) => {
        const { source, ...rest } = transactionResource(row);
        return { ...rest, channel: source };
      }),
    }),
  },
  {
    where: 'events.payload (the external id in the events of the outbox); webhook deliveries point at them',
    erasure:
      'earlier events no longer carry the external id, so a replay or a retry names nobody; customer.deleted carries it as it was while an endpoint must receive it (30 days of webhook history), and not at all when none will (erase.ts)',
    erase: ({ deps, customer }) => void eraseRepo(deps.db).scrubEvents({ id: customer.id, orgId: customer.orgId, livemode: customer.livemode, since: customer.createdAt }),
    exported: 'nothing: notifications to the shop’s own systems of what the ledger and the record of changes show',
  },
  {
    where: 'idempotency_keys.response_body (24 hours of stored API answers, with the external id and the install link)',
    erasure: 'the answers naming the customer go; a retry of such a request runs again instead of replaying',
    erase: ({ deps, customer }) => void eraseRepo(deps.db).dropIdempotency({ id: customer.id, orgId: customer.orgId, livemode: customer.livemode }),
    exported: 'nothing: copies of API answers',
  },
  {
    where: 'mail_sends.recipient and error (the emails sent to them)',
    erasure: 'the addresses go; an email still waiting fails with “not sent: the customer’s personal data was deleted”',
    erase: ({ deps, customer, now }) => void eraseRepo(deps.db).scrubMail(customer.id, now),
    exported: 'emails: each one, with the address it went to and what became of it',
    read: ({ db, customer }) => ({
      emails: mailRepo(db)
        .ofCustomer(customer.id, 1000)
        .reverse()
        .map((m) => ({ kind: m.kind, requestedVia: m.via, to: m.recipient, status: m.status, attempts: m.attempts, error: m.error, createdAt: isoTime(m.createdAt), updatedAt: isoTime(m.updatedAt) })),
    }),
  },
  {
    where: 'mail_unsubscribes (that they stopped the reminder and birthday emails, and when)',
    erasure: 'deleted: no email goes to an erased customer anyway',
    erase: ({ deps, customer }) => void unsubscribesRepo(deps.db).remove(customer.id),
    exported: 'unsubscribed: when they stopped the reminder and birthday emails (present only when they did)',
    read: ({ db, customer }) => {
      const at = unsubscribedAt(db, customer.id);
      return at === undefined ? {} : { unsubscribed: { from: 'expiry reminder and birthday emails', at: isoTime(at) } };
    },
  },
  {
    where: 'customer_changes.changes (the console’s edits: each field’s value before and after)',
    erasure: 'only which fields changed stays, and the erasure is recorded the same way (erase.ts)',
    erase: ({ deps, customer }) => void eraseRepo(deps.db).scrubChanges(customer.id),
    exported: 'changes: each edit with who made it and when',
    read: ({ db, customer }) => ({
      changes: changesRepo(db)
        .list(customer.id)
        .reverse()
        .map((c) => ({ kind: c.kind, channel: c.channel, by: c.adminEmail, changes: c.changes, at: isoTime(c.createdAt) })),
    }),
  },
  {
    where: 'customer_birthdays (the day read from an answer, when it was set, the year the treat was paid)',
    erasure: 'deleted, with the answer it came from',
    erase: ({ deps, customer }) => void eraseRepo(deps.db).dropBirthday(customer.id),
    exported: 'as the answer it is read from (answers)',
  },
  {
    where: 'the import’s drafts (files uploaded and not yet imported): imports.csv, samples (the first values of each column), check_report and check_csv (the stored dry run)',
    erasure:
      'the rows holding the person’s email, phone (read with the shop’s country, as the import reads it) or external id are emptied, since a later import would bring them back; the first values are read again from what is left, and the stored dry run goes (the owner checks the file again). A row with only a name cannot be told from a namesake’s, and stays',
    erase: ({ deps, customer }) => void scrubImportDrafts(deps, personOf(customer)),
    exported: 'nothing: the shop’s own file, not a record kept of the person',
  },
  {
    where: 'import_rows.cells (the values of a finished import’s refused rows, kept 30 days for the owner to fix and import again)',
    erasure: 'a refused row with the person’s email, phone or external id keeps its number and reason, not its values',
    erase: ({ deps, customer }) => void scrubRefusedRows(deps, personOf(customer)),
    exported: 'nothing: the shop’s own file, as it was refused',
  },
  {
    where: 'a running import’s file (imports.csv while it runs, read once by the import worker)',
    erasure:
      'not changed: the import reads its file once when it starts and drops it when it ends, minutes later. A row of the person it has not reached yet would enrol them again: erase after the import has finished',
    exported: 'nothing: the shop’s own file',
  },
  {
    where: 'the server’s log',
    erasure:
      'nothing to remove: request lines name the path with customer refs, install codes and device ids left out (http/app.ts), and the mail worker’s lines leave addresses out',
    exported: 'nothing',
  },
  {
    where: 'the counter',
    erasure: 'nothing to remove: it keeps no copy of a customer (it reads the row and the ledger); its sessions and devices are the staff’s',
    exported: 'nothing',
  },
  {
    where: 'backups, the copies kept before a schema upgrade, a database a restore replaced',
    erasure:
      'not rewritten: a copy made before the erasure still holds the person until it is rotated out (the backup schedule keeps a few of each); a restore from one brings them back, and the erasure must then be made again',
    exported: 'nothing: copies of the database',
  },
];
