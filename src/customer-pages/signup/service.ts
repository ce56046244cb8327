import { inTransaction } from '../../db/transaction';
import type { Card } from '../../cards/model';
import type { Config } from '../../config';
import { enrollCustomer, type EnrollDeps } from '../../loyalty/enroll';
import type { Customer, Namespace } from '../../customers/model';
import { customersRepo } from '../../customers/repo';
import type { Db } from '../../db/connection';
import { IDEMPOTENCY_TTL_MS } from '../../idempotency/service';
import { idempotencyRepo, type IdempotencyScope } from '../../idempotency/repo';
import { normalizeEmail, normalizePhone } from '../../lib/contact';
import { readOrgSettings, writeOrgSettings, type OrgSettings } from '../../orgs/settings';
import type { SignupRequest } from './form';
import { signupRepo } from './repo';

// A customer joins by themselves (decisions §8): the same enroll as the API, channel
// `signup`, no externalCustomerId, always in the org's live data (it is the real shop's form).
// The one difference: the form never touches an existing member. Enroll would match on email or
// phone and write the answers over the member's; whoever typed an email is not that member's
// keeper, so a match here writes nothing and reveals nothing of the member.

export type SignupOutcome = { kind: 'created'; installPath: string } | { kind: 'already_member' };

/** The address of a card's sign-up form: what the counter poster's QR code holds. */
export function signupUrl(config: Pick<Config, 'installBaseUrl'>, cardId: string): string {
  return `${config.installBaseUrl}/get-pass/${encodeURIComponent(cardId)}`;
}

/** Same host as the form: the install page of this customer (wallet buttons, web pass). */
export function installPath(customer: Pick<Customer, 'cardId' | 'installCode'>): string {
  return `/get-pass/${encodeURIComponent(customer.cardId)}?code=${encodeURIComponent(customer.installCode)}`;
}

const submissionScope = (n: Namespace, cardId: string, submission: string): IdempotencyScope => ({ ...n, method: 'POST', route: `signup:${cardId}`, key: submission });

/**
 * Is this person already on the card? The enroll resolution (email, then phone, on this card) and
 * the card's identifier question. Every lookup runs whatever an earlier one found, so which one
 * matched cannot be told from the time the answer takes.
 */
function isMember(db: Db, n: Namespace, card: Card, request: SignupRequest): boolean {
  const customers = customersRepo(db);
  const email = normalizeEmail(request.email);
  const phone = normalizePhone(request.phone);
  const byEmail = email ? customers.findByEmail(n, email, card.id).length : 0;
  const byPhone = phone ? customers.findByPhone(n, phone, card.id).length : 0;
  const identifier = card.questions.find((q) => q.isIdentifier);
  const answer = identifier ? request.customFields[identifier.key] : undefined;
  const byAnswer = identifier && answer !== undefined ? signupRepo(db).countWithAnswer(card.id, n.livemode, identifier.key, answer, identifier.type === 'email') : 0;
  return byEmail + byPhone + byAnswer > 0;
}

/** The customer an earlier send of this very form created (a double tap, a reload after a lost answer). */
function earlierSend(db: Db, n: Namespace, now: number, scope: IdempotencyScope): Customer | undefined {
  const stored = idempotencyRepo(db).find(scope);
  if (!stored || stored.createdAt <= now - IDEMPOTENCY_TTL_MS) return undefined;
  const { passUserId } = JSON.parse(stored.body) as { passUserId: string };
  return customersRepo(db).findById(n, passUserId);
}

/** Enrolls the new customer and records the submission; returns the install path. */
function enroll(deps: EnrollDeps, n: Namespace, card: Card, request: SignupRequest, scope: IdempotencyScope | null, now: number): string {
  const result = enrollCustomer(
    deps,
    n,
    // The form refuses a sign-up without the box ticked: the agreement recorded is the wording the form shows now.
    { cardId: card.id, name: request.name, email: request.email, phone: request.phone, customFields: request.customFields, consent: { text: readOrgSettings(deps.db, card.orgId).signup.consentText } },
    { channel: 'signup', idempotencyKey: null },
  );
  // The member check ran the enroll's own lookups in this transaction; a match now would be a bug,
  // and it must not have written the answers over a member's: throwing rolls everything back.
  if (result.result !== 'created') throw new Error(`sign-up on card ${card.id} matched a customer the member check did not find`);
  const created = customersRepo(deps.db).findById(n, result.passUserId)!;
  if (scope) idempotencyRepo(deps.db).save(scope, { fingerprint: '', status: 303, body: JSON.stringify({ passUserId: created.id }), createdAt: now });
  return installPath(created);
}

class Rehearsal extends Error {}

/**
 * For an existing member: the very writes a new sign-up makes (customer, event, deliveries, the
 * submission record), in a savepoint that is then rolled back. "Already a member" thus costs what
 * "welcome" costs, so the answer's timing tells no more than its words. The contact fields are left
 * out so that enroll creates instead of matching; nothing of it survives the rollback.
 */
function rehearseEnroll(deps: EnrollDeps, n: Namespace, card: Card, request: SignupRequest, scope: IdempotencyScope | null, now: number): void {
  try {
    inTransaction(deps.db, () => {
      enroll(deps, n, card, { ...request, email: null, phone: null }, scope, now);
      throw new Rehearsal();
    });
  } catch (err) {
    if (!(err instanceof Rehearsal)) throw err;
  }
}

/**
 * One transaction: the check for an existing member and the enroll, so no second sign-up can slip
 * in between. `submission` is the form's own random value: the same form sent twice lands on the
 * same new customer instead of telling its creator they are "already a member".
 */
export function signUp(deps: EnrollDeps, card: Card, request: SignupRequest, submission: string | null): SignupOutcome {
  const n: Namespace = { orgId: card.orgId, livemode: true };
  return inTransaction(deps.db, (): SignupOutcome => {
    const now = deps.clock.now();
    const scope = submission ? submissionScope(n, card.id, submission) : null;
    const earlier = scope ? earlierSend(deps.db, n, now, scope) : undefined;
    if (earlier) return { kind: 'created', installPath: installPath(earlier) };
    if (isMember(deps.db, n, card, request)) {
      rehearseEnroll(deps, n, card, request, scope, now);
      return { kind: 'already_member' };
    }
    return { kind: 'created', installPath: enroll(deps, n, card, request, scope, now) };
  });
}

export type SignupSettings = OrgSettings['signup'];

/** The consent text and privacy link of the org's sign-up forms (console settings). */
export function saveSignupSettings(deps: { db: Db }, orgId: string, signup: SignupSettings): SignupSettings {
  return inTransaction(deps.db, () => writeOrgSettings(deps.db, orgId, { signup }).signup);
}
