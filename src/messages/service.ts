import type { Card } from '../cards/model';
import { cardsRepo } from '../cards/repo';
import { getOrgCard } from '../cards/service';
import type { Customer, Namespace } from '../customers/model';
import { customersRepo } from '../customers/repo';
import { wakeAfterCommit } from '../db/after-commit';
import { inTransaction } from '../db/transaction';
import type { WriteDeps } from '../deps';
import { isoTime } from '../lib/clock';
import { localDayRange } from '../lib/days';
import { notFound, validationFailed } from '../lib/errors';
import { newId } from '../lib/ids';
import { toHundredths } from '../lib/money';
import { reason } from '../lib/reasons';
import { readOrgSettings } from '../orgs/settings';
import { clockFor } from '../test-clock/clock';
import { setPassMessage } from '../wallet/pass-messages';
import type { Audience, DeliveryFigures, Message, Reach } from './model';
import { messagesRepo, type AudienceBounds, type Recipient } from './repo';

// The shop's messages to its customers' passes. Sending is one transaction: the message, a
// delivery row per pass and the message each pass now shows; the wallets are reached after the
// commit by the pass-message worker (worker.ts). Who an audience reaches is decided when it is
// sent, on the data's own clock (the sandbox clock for test data) and the shop's calendar.

const DAY_MS = 24 * 3_600_000;

export type MessageDeps = WriteDeps;

export interface MessageText {
  header: string;
  body: string;
}

/** What the audience means on this card now, as SQL bounds; a level or amount the card cannot have is VALIDATION_FAILED. */
function audienceBounds(deps: MessageDeps, card: Card, livemode: boolean, audience: Audience, now: number): AudienceBounds {
  const bounds: AudienceBounds = {
    cardId: card.id,
    livemode,
    minBalance: null,
    belowBalance: null,
    visitedSince: null,
    lapsedSince: null,
    // One audience message per customer and shop day: those reached since the day began are left out.
    messagedSince: localDayRange(now, readOrgSettings(deps.db, card.orgId).timeZone).start,
  };
  if (audience === 'all') return bounds;
  if ('visitedWithinDays' in audience) return { ...bounds, visitedSince: now - audience.visitedWithinDays * DAY_MS };
  if ('notVisitedForDays' in audience) return { ...bounds, lapsedSince: now - audience.notVisitedForDays * DAY_MS };
  if ('minBalance' in audience) {
    if (card.passType !== 'prepaid_card' && !Number.isInteger(audience.minBalance)) {
      throw validationFailed([{ path: 'audience.minBalance', message: `must be a whole number on a ${card.passType}`, reason: reason('wholeOnly') }]);
    }
    return { ...bounds, minBalance: toHundredths(audience.minBalance) };
  }
  const levels = card.passType === 'level_card' ? (card.levels ?? []) : [];
  if (levels.length === 0) throw validationFailed([{ path: 'audience.level', message: `this card has no levels (it is a ${card.passType})` }]);
  const wanted = audience.level.trim().toLowerCase();
  const index = levels.findIndex((l) => l.name.toLowerCase() === wanted);
  if (index < 0) throw validationFailed([{ path: 'audience.level', message: `no level "${audience.level}" on this card; its levels are ${levels.map((l) => l.name).join(', ')}` }]);
  // A balance below the first level's minimum still shows the first level (loyalty/balance.ts levelFor).
  return { ...bounds, minBalance: index === 0 ? null : levels[index]!.minPoints, belowBalance: levels[index + 1]?.minPoints ?? null };
}

/** Who the audience reaches now (the console's count before sending); nothing is written. */
export function audienceReach(deps: MessageDeps, namespace: Namespace, cardId: string, audience: Audience): Reach {
  const card = getOrgCard(deps, namespace.orgId, cardId);
  const now = clockFor(deps, namespace.orgId, namespace.livemode).now();
  return messagesRepo(deps.db).reach(audienceBounds(deps, card, namespace.livemode, audience, now));
}

/** The passes one customer holds: what a message to them would reach. */
export function customerReach(deps: Pick<MessageDeps, 'db'>, customer: Customer): Recipient {
  return messagesRepo(deps.db).passesOf(customer.id);
}

/**
 * Puts the message on each recipient's passes and writes a delivery row per pass. The Apple and
 * Google rows are sent after the commit; a web pass shows the message the next time it is looked
 * at (or within its refresh), so its row is shown at once. A pass may notify only when the words
 * are new to it: Apple's lock screen speaks when the back field's value (the body) changes.
 */
function deliver(deps: MessageDeps, message: Message, recipients: readonly Recipient[]): void {
  const repo = messagesRepo(deps.db);
  const wallClock = deps.clock.now();
  const audience = message.audience !== null;
  let queued = false;
  for (const r of recipients) {
    setPassMessage(deps.db, r.customerId, { id: message.id, header: message.header, body: message.body }, wallClock, { apple: r.apple });
    const previous = r.shows;
    const newWords = !previous || previous.header !== message.header || previous.body !== message.body;
    const row = { messageId: message.id, customerId: r.customerId, audience, at: message.createdAt, now: wallClock };
    // The named keys first: a literal that starts with a spread gets a hidden class per call (docs/performance.md).
    if (r.apple) repo.insertDelivery({ channel: 'apple', status: 'pending', mayNotify: !previous || previous.body !== message.body, ...row });
    if (r.google) repo.insertDelivery({ channel: 'google', status: 'pending', mayNotify: newWords, ...row });
    if (r.web) repo.insertDelivery({ channel: 'web', status: 'shown', mayNotify: false, ...row });
    queued ||= r.apple || r.google;
  }
  if (queued) wakeAfterCommit(deps.db, 'messages', () => deps.afterCommit.messagesQueued());
}

function newMessage(deps: MessageDeps, namespace: Namespace, fields: Pick<Message, 'cardId' | 'customerId' | 'audience' | 'source'> & MessageText, recipients: number): Message {
  return {
    id: newId('msg'),
    orgId: namespace.orgId,
    livemode: namespace.livemode,
    ...fields,
    recipients,
    createdAt: clockFor(deps, namespace.orgId, namespace.livemode).now(),
  };
}

/** Sends to a card's audience: every customer it reaches now, but not one an audience message reached this shop day. */
export function sendToAudience(deps: MessageDeps, namespace: Namespace, cardId: string, input: MessageText & { audience: Audience }, source: Message['source']): Message {
  return inTransaction(deps.db, () => {
    const card = getOrgCard(deps, namespace.orgId, cardId);
    const now = clockFor(deps, namespace.orgId, namespace.livemode).now();
    const recipients = messagesRepo(deps.db).audience(audienceBounds(deps, card, namespace.livemode, input.audience, now));
    const message = newMessage(deps, namespace, { cardId: card.id, customerId: null, audience: input.audience, source, header: input.header, body: input.body }, recipients.length);
    messagesRepo(deps.db).insert(message);
    deliver(deps, message, recipients);
    return message;
  });
}

/** Sends to one customer's passes, whatever else they got today. */
export function sendToCustomer(deps: MessageDeps, namespace: Namespace, customerId: string, input: MessageText, source: Message['source']): Message {
  return inTransaction(deps.db, () => {
    const customer = customersRepo(deps.db).findById(namespace, customerId);
    if (!customer) throw notFound('CUSTOMER_NOT_FOUND', `pu_${customerId}`);
    const passes = messagesRepo(deps.db).passesOf(customer.id);
    const recipients = passes.apple || passes.google || passes.web ? [passes] : [];
    const message = newMessage(deps, namespace, { cardId: customer.cardId, customerId: customer.id, audience: null, source, header: input.header, body: input.body }, recipients.length);
    messagesRepo(deps.db).insert(message);
    deliver(deps, message, recipients);
    return message;
  });
}

/** A message of the card, in the caller's mode: 404 MESSAGE_NOT_FOUND otherwise. */
export function getMessage(deps: Pick<MessageDeps, 'db' | 'clock'>, namespace: Namespace, cardId: string, messageId: string): Message {
  getOrgCard(deps, namespace.orgId, cardId);
  const message = messagesRepo(deps.db).find(namespace, messageId);
  if (!message || message.cardId !== cardId) throw notFound('MESSAGE_NOT_FOUND', messageId);
  return message;
}

export const deliveryFigures = (deps: Pick<MessageDeps, 'db'>, messageId: string): DeliveryFigures => messagesRepo(deps.db).figures(messageId);

/** The newest messages of the org's data in this mode, each with its figures (the console's list). */
export function recentMessages(deps: Pick<MessageDeps, 'db'>, namespace: Namespace, limit = 50): { message: Message; figures: DeliveryFigures }[] {
  return messagesRepo(deps.db).recent(namespace, limit).map((message) => ({ message, figures: deliveryFigures(deps, message.id) }));
}

/** The newest messages written to one customer, with their figures. */
export function messagesTo(deps: Pick<MessageDeps, 'db'>, customer: Customer, limit = 20): { message: Message; figures: DeliveryFigures }[] {
  return messagesRepo(deps.db).recentTo(customer.id, limit).map((message) => ({ message, figures: deliveryFigures(deps, message.id) }));
}

/** The message as the API shows it: amounts in units, the audience as sent, the figures so far. */
export function messageResource(deps: Pick<MessageDeps, 'db'>, message: Message) {
  const f = deliveryFigures(deps, message.id);
  return {
    id: message.id,
    cardId: message.cardId,
    customerId: message.customerId === null ? null : `pu_${message.customerId}`,
    audience: message.audience,
    header: message.header,
    body: message.body,
    recipients: message.recipients,
    createdAt: isoTime(message.createdAt),
    deliveries: { passes: f.passes, pending: f.pending, delivered: f.delivered, shownWithoutNotification: f.shown, failed: f.failed },
  };
}

/** The card a message was written on (for the console's list). */
export const cardOf = (deps: Pick<MessageDeps, 'db'>, message: Message): Card | undefined => cardsRepo(deps.db).findById(message.cardId);
