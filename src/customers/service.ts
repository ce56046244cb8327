import { inTransaction } from '../db/transaction';
import type { Card } from '../cards/model';
import { cardsRepo } from '../cards/repo';
import type { Db } from '../db/connection';
import { badRequest, conflict, notFound } from '../lib/errors';
import type { Clock } from '../lib/clock';
import { phoneFromUrl } from '../lib/contact';
import { mergeCustomFields, validateCustomFields } from './custom-fields';
import type { Customer, Namespace } from './model';
import { findByEmail, findByPhone, resolveCustomer } from './refs';
import { customersRepo } from './repo';
import { writeCustomFields } from './birthdays';

export interface CustomerDeps {
  db: Db;
  clock: Clock;
}

export interface CustomerWithCard {
  customer: Customer;
  card: Card;
}

function withCard(db: Db, customer: Customer): CustomerWithCard {
  // customers.card_id references cards(id) with ON DELETE CASCADE: the card always exists.
  return { customer, card: cardsRepo(db).findById(customer.cardId)! };
}

/** The customer behind `{ref}` with its card, in the caller's org and mode (404 / 409 otherwise). */
export function getCustomerByRef(deps: { db: Db }, n: Namespace, ref: string): CustomerWithCard {
  return withCard(deps.db, resolveCustomer(deps.db, n, ref));
}

/** The namespace's customer with this passUserId; undefined when there is none (an erased customer is nobody). */
export function findCustomer(deps: { db: Db }, n: Namespace, passUserId: string): Customer | undefined {
  return customersRepo(deps.db).findById(n, passUserId);
}

/** The customer with this passUserId in any org and mode, erased ones too (to tell an owner where one is, or that it was erased). */
export function findCustomerAnywhere(deps: { db: Db }, passUserId: string): Customer | undefined {
  return customersRepo(deps.db).findByPassUserId(passUserId);
}

type QueryValue = string | string[] | undefined;

function single(name: 'email' | 'phone', value: QueryValue): string | undefined {
  if (Array.isArray(value)) {
    if (value.length > 1) throw badRequest(`${name.toUpperCase()}_MUST_BE_A_SINGLE_VALUE`, `give ${name} once`);
    return value[0];
  }
  return value;
}

/**
 * GET /v1/customers/lookup: across the org, email first and phone only
 * if the email matches nobody. A blank parameter counts as absent; a phone that is not E.164
 * matches nothing (404), as everywhere else.
 */
export function lookupCustomer(deps: { db: Db }, n: Namespace, query: { email?: QueryValue; phone?: QueryValue }): CustomerWithCard {
  const rawEmail = single('email', query.email);
  const rawPhone = single('phone', query.phone);
  const email = rawEmail?.trim() ? rawEmail : undefined;
  // Not trimmed: a leading space is the `+` a query string decoded, and phoneFromUrl restores it.
  const phone = rawPhone?.trim() ? rawPhone : undefined;
  if (email === undefined && phone === undefined) throw badRequest('EMAIL_OR_PHONE_REQUIRED', 'give email, phone or both');
  const found = (email !== undefined ? findByEmail(deps.db, n, email) : undefined) ?? (phone !== undefined ? findByPhone(deps.db, n, phoneFromUrl(phone)) : undefined);
  if (!found) throw notFound('CUSTOMER_NOT_FOUND', `no customer with this ${[email && 'email', phone && 'phone'].filter(Boolean).join(' or ')}`);
  return withCard(deps.db, found);
}

export interface PatchResult {
  passUserId: string;
  externalCustomerId: string | null;
  cardId: string;
  updated: ('externalCustomerId' | 'customFields')[];
}

/**
 * PATCH /v1/customers/{ref}: sets externalCustomerId and/or customFields in one
 * transaction. Every check runs before the first write, so a refusal writes nothing; a value
 * equal to the stored one is not written and not listed in `updated`.
 */
export function updateCustomer(deps: CustomerDeps, n: Namespace, ref: string, patch: { externalCustomerId?: string; customFields?: Record<string, unknown> }): PatchResult {
  return inTransaction(deps.db, (): PatchResult => {
    const { customer, card } = getCustomerByRef(deps, n, ref);
    const repo = customersRepo(deps.db);
    const fields = patch.customFields ? mergeCustomFields(customer.customFields, validateCustomFields(card, patch.customFields)) : null;
    const nextId = patch.externalCustomerId !== undefined && patch.externalCustomerId !== customer.externalId ? patch.externalCustomerId : null;
    if (nextId !== null) {
      const holder = repo.findByExternalId(n, nextId);
      if (holder && holder.id !== customer.id) throw conflict('EXTERNAL_ID_TAKEN', `${nextId} is used by another customer`);
    }

    const now = deps.clock.now();
    const updated: PatchResult['updated'] = [];
    if (nextId !== null) {
      repo.setExternalId(customer.id, nextId, now);
      updated.push('externalCustomerId');
    }
    if (fields?.changed) {
      writeCustomFields(deps, card, customer, fields.merged, now);
      updated.push('customFields');
    }
    return { passUserId: customer.id, externalCustomerId: nextId ?? customer.externalId, cardId: customer.cardId, updated };
  });
}
