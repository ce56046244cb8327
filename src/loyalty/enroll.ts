import { inTransaction } from '../db/transaction';
import { decimalsFor, type Card } from '../cards/model';
import { getOrgCard } from '../cards/service';
import type { Config } from '../config';
import type { WriteDeps } from '../deps';
import type { Db } from '../db/connection';
import { emitEvent } from '../events/outbox';
import { conflict, validationFailed } from '../lib/errors';
import type { Clock } from '../lib/clock';
import { normalizeEmail, normalizePhone } from '../lib/contact';
import { randomToken } from '../lib/ids';
import { newSecretCode } from '../customers/secret-codes';
import { hasAtMostDecimals, toHundredths } from '../lib/money';
import { reason } from '../lib/reasons';
import { changeBalance, channelData } from './ledger';
import type { Channel, StaffRef } from '../lib/changes';
import type { Lang } from '../i18n/langs';
import { mergeCustomFields, validateCustomFields } from '../customers/custom-fields';
import type { Customer, Namespace } from '../customers/model';
import { consentRepo } from '../customers/consent-repo';
import { findByEmail, findByPhone } from '../customers/refs';
import { customersRepo } from '../customers/repo';
import { installUrl } from '../customers/install-url';
import { assertRoomForTestCustomer } from '../customers/test-mode';
import { keepBirthday, writeCustomFields } from '../customers/birthdays';

export interface EnrollDeps extends WriteDeps {
  config: Pick<Config, 'installBaseUrl'>;
}

export interface EnrollRequest {
  /**
   * Required from the API. The counter, the sign-up form and the console enroll without
   * one: the customer then has none until an integrator sets it with PATCH.
   */
  externalCustomerId?: string | null;
  cardId: string;
  name?: string | null;
  email?: string | null;
  phone?: string | null;
  /** Units (validated against the card here); only used when a customer is created. */
  initialPoints?: number;
  customFields?: Record<string, unknown>;
  /** The agreement the customer ticked (the sign-up form): recorded with the time when a customer is created. */
  consent?: { text: string } | null;
  /** The language the sign-up page was in: the new customer's pass and emails use it. A matched customer keeps theirs. */
  language?: Lang | null;
}

export type LinkSkippedReason = 'external_id_taken' | 'already_has_external_id';
export type MatchedBy = 'externalCustomerId' | 'email' | 'phone';

/** The enroll result (the body of POST /v1/customers); `linkSkippedReason` is absent (not null) when linked. */
export interface EnrollResult {
  passUserId: string;
  externalCustomerId: string | null;
  cardId: string;
  result: 'created' | 'matched';
  matchedBy: MatchedBy | null;
  linked: boolean;
  linkSkippedReason?: LinkSkippedReason;
  installUrl: string;
  status: Customer['status'];
}

/**
 * Attaches `sentId` to a matched customer, or says why it cannot:
 * - already_has_external_id: the customer carries a different id (checked first: it is a property
 *   of the matched record itself, so a retry can never change the answer);
 * - external_id_taken: another customer holds the sent id. Enroll resolves by externalCustomerId
 *   before anything else, so on this server that holder would have been the match (or a 409
 *   EXTERNAL_ID_ON_OTHER_CARD); the case exists for two racing enrolls, which
 *   SQLite's serialised writes rule out. It is tested by calling this function directly.
 * Runs inside the caller's transaction.
 */
export function linkExternalId(deps: { db: Db; clock: Clock }, n: Namespace, matched: Customer, sentId: string): { linked: true } | { linked: false; reason: LinkSkippedReason } {
  if (matched.externalId === sentId) return { linked: true };
  if (matched.externalId !== null) return { linked: false, reason: 'already_has_external_id' };
  const repo = customersRepo(deps.db);
  const holder = repo.findByExternalId(n, sentId);
  if (holder && holder.id !== matched.id) return { linked: false, reason: 'external_id_taken' };
  repo.setExternalId(matched.id, sentId, deps.clock.now());
  return { linked: true };
}

/** Whole units on stamp, point and level cards; up to 2 decimals on store credit. */
function openingBalance(card: Card, initialPoints: number | undefined): number {
  if (initialPoints === undefined) return 0;
  if (!hasAtMostDecimals(initialPoints, decimalsFor(card.passType))) {
    throw validationFailed([{ path: 'initialPoints', message: `must be a whole number on a ${card.passType}`, reason: reason('wholeOnly') }]);
  }
  return toHundredths(initialPoints);
}

/**
 * The resolution order of an enroll: the id across the org, then email, then phone on the card
 * (409 EXTERNAL_ID_ON_OTHER_CARD when the id is on another card). Exported for the import, which
 * leaves a matched customer as it is.
 */
export function findEnrollMatch(db: Db, n: Namespace, card: Card, req: EnrollRequest): { customer: Customer; by: MatchedBy } | null {
  const byId = req.externalCustomerId ? customersRepo(db).findByExternalId(n, req.externalCustomerId) : undefined;
  if (byId) {
    if (byId.cardId !== card.id) {
      throw conflict('EXTERNAL_ID_ON_OTHER_CARD', `${req.externalCustomerId} is on a customer of card ${byId.cardId}`, { cardId: byId.cardId, passUserId: byId.id });
    }
    return { customer: byId, by: 'externalCustomerId' };
  }
  const byEmail = req.email ? findByEmail(db, n, req.email, card.id) : undefined;
  if (byEmail) return { customer: byEmail, by: 'email' };
  const byPhone = req.phone ? findByPhone(db, n, req.phone, card.id) : undefined;
  if (byPhone) return { customer: byPhone, by: 'phone' };
  return null;
}

function createCustomer(
  deps: EnrollDeps,
  n: Namespace,
  card: Card,
  req: EnrollRequest,
  created: { fields: Customer['customFields']; opening: number } & EnrollOptions,
): Customer {
  const { fields, opening, channel, staff, idempotencyKey, openingNote } = created;
  assertRoomForTestCustomer(deps.db, n);
  const now = deps.clock.now();
  const customer: Customer = {
    id: randomToken(24),
    orgId: n.orgId,
    cardId: card.id,
    livemode: n.livemode,
    externalId: req.externalCustomerId || null,
    name: req.name || null,
    email: req.email || null,
    emailNorm: normalizeEmail(req.email),
    phone: req.phone || null,
    phoneNorm: normalizePhone(req.phone),
    customFields: fields,
    status: 'pending_install',
    source: channel,
    installCode: newSecretCode(),
    scanCode: newSecretCode(),
    balance: 0,
    lastAwardAt: null,
    passVersion: 1,
    passUpdatedAt: now,
    consentSha256: req.consent ? consentRepo(deps.db).record(req.consent.text, now) : null,
    consentAt: req.consent ? now : null,
    createdAt: now,
    updatedAt: now,
    erasedAt: null,
    language: req.language ?? null,
  };
  customersRepo(deps.db).insert(customer);
  keepBirthday(deps, card, customer, null, fields);
  let opened = customer;
  if (opening > 0) {
    // The opening balance goes through the one balance-change function like every other change:
    // a ledger row, so balance == sum of the ledger. Kind `initial` is no award (earning limits
    // ignore it) and emits no balance.updated.
    opened = changeBalance(deps, { customer, card, kind: 'initial', change: opening, isAward: false, source: channel, staff, idempotencyKey, note: openingNote ?? null, field: 'initialPoints' }).customer;
  }
  emitEvent(deps, {
    orgId: n.orgId, livemode: n.livemode, type: 'customer.enrolled', customerId: customer.id,
    data: { externalCustomerId: customer.externalId, passUserId: customer.id, cardId: card.id, ...channelData(channel, staff) },
  });
  return opened;
}

/**
 * Enrolls or matches a customer in one synchronous transaction: every
 * check runs before the first write, so a refusal writes nothing. On a match nothing is reset
 * and name, email and phone are not written; customFields are.
 */
export interface EnrollOptions {
  channel: Channel;
  /** The staff member at the counter (channel `scan`). */
  staff?: StaffRef | null;
  idempotencyKey: string | null;
  /** The opening balance's ledger note (an import writes "Imported balance"). */
  openingNote?: string | null;
}

export function enrollCustomer(deps: EnrollDeps, n: Namespace, req: EnrollRequest, options: EnrollOptions): EnrollResult {
  return inTransaction(deps.db, (): EnrollResult => {
    const card = getOrgCard(deps, n.orgId, req.cardId);
    const opening = openingBalance(card, req.initialPoints);
    const fields = req.customFields ? validateCustomFields(card, req.customFields) : {};
    const match = findEnrollMatch(deps.db, n, card, req);

    if (!match) {
      const created = createCustomer(deps, n, card, req, { fields, opening, ...options });
      return {
        passUserId: created.id, externalCustomerId: created.externalId, cardId: card.id, result: 'created', matchedBy: null, linked: true,
        installUrl: installUrl(deps.config, created), status: created.status,
      };
    }

    const { customer, by } = match;
    const { merged, changed } = mergeCustomFields(customer.customFields, fields);
    if (changed) writeCustomFields(deps, card, customer, merged, deps.clock.now());
    // Without a sent id there is nothing to attach: the match stands as it is.
    const link = req.externalCustomerId ? linkExternalId(deps, n, customer, req.externalCustomerId) : { linked: true as const };
    return {
      passUserId: customer.id,
      externalCustomerId: link.linked ? (req.externalCustomerId ?? customer.externalId) : customer.externalId,
      cardId: card.id,
      result: 'matched',
      matchedBy: by,
      linked: link.linked,
      ...(link.linked ? {} : { linkSkippedReason: link.reason }),
      installUrl: installUrl(deps.config, customer),
      status: customer.status,
    };
  });
}
