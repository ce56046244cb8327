import * as v from 'valibot';
import { CardIdParams } from '../cards/schemas';
import { RefParams } from '../customers/schemas';
import { hasAtMostDecimals, MAX_UNITS } from '../lib/money';
import { fieldsOf, oneOf } from '../lib/validation';
import { maxDecimalsByCardType } from '../loyalty/schemas';
import { BODY_MAX, HEADER_MAX, MAX_DAYS } from './model';

// Requests and responses of the message endpoints. The texts are trimmed first: what counts
// toward the limits is what the pass shows.

export const HEADER_MESSAGE = `at most ${HEADER_MAX} characters`;
export const BODY_MESSAGE = `at most ${BODY_MAX} characters`;

const header = v.pipe(
  v.string(),
  // Before the trim: the document's pattern judges the text as sent.
  v.regex(/^[^\r\n]*$/, 'must be one line'),
  v.trim(),
  v.minLength(1, 'must not be empty'),
  v.maxLength(HEADER_MAX, HEADER_MESSAGE),
  v.description(`The message's title: Apple's back-field label, Google's message header, the web pass's heading. 1–${HEADER_MAX} characters, one line`),
);
const body = v.pipe(
  v.string(),
  v.trim(),
  v.minLength(1, 'must not be empty'),
  v.maxLength(BODY_MAX, BODY_MESSAGE),
  v.description(`The message itself, 1–${BODY_MAX} characters; Apple's lock screen shows it`),
);

const days = (what: string) => v.pipe(v.number(), v.integer('must be a whole number'), v.minValue(1, `must be from 1 to ${MAX_DAYS}`), v.maxValue(MAX_DAYS, `must be from 1 to ${MAX_DAYS}`), v.description(what));

const All = v.pipe(v.literal('all'), v.description('Every customer of the card'));
const Level = v.strictObject({
  level: v.pipe(
    v.string(),
    v.trim(),
    v.minLength(1, 'must not be empty'),
    v.maxLength(100),
    // Machine-readable for validators that know the card: the name of one of its levels.
    v.metadata({ 'x-card-level': true }),
    v.description('The name of one of the card’s levels (case-insensitive); another name, or a level on a card without levels, is 400 VALIDATION_FAILED'),
  ),
});
const VisitedWithin = v.strictObject({ visitedWithinDays: days('Customers awarded anything (an earn, any channel) in the last N days (N × 24 hours)') });
const NotVisitedFor = v.strictObject({ notVisitedForDays: days('Customers with no earn in the last N days who joined before then') });
const MinBalance = v.strictObject({
  minBalance: v.pipe(
    v.number(),
    v.minValue(0, 'must not be negative'),
    v.maxValue(MAX_UNITS, `must be at most ${MAX_UNITS}`),
    v.check((n) => hasAtMostDecimals(n, 2), 'at most 2 decimals'),
    maxDecimalsByCardType,
    v.description('Customers whose balance is at least this, in the card’s units (store credit: money, 2 decimals; other cards: whole units, a fraction is 400 VALIDATION_FAILED)'),
  ),
});

const AUDIENCE_KEYS = ['level', 'visitedWithinDays', 'notVisitedForDays', 'minBalance'] as const;
const SHAPES = { level: Level, visitedWithinDays: VisitedWithin, notVisitedForDays: NotVisitedFor, minBalance: MinBalance };

export const AudienceSchema = oneOf([All, Level, VisitedWithin, NotVisitedFor, MinBalance], (input) => {
  if (input === 'all') return All;
  const fields = fieldsOf(input);
  const key = AUDIENCE_KEYS.find((k) => k in fields);
  if (key) return SHAPES[key];
  return { message: 'must be "all" or an object with one of level, visitedWithinDays, notVisitedForDays, minBalance' };
});

export const CustomerMessageBody = v.strictObject({ header, body });
export type CustomerMessageInput = v.InferOutput<typeof CustomerMessageBody>;

export const AudienceMessageBody = v.strictObject({ header, body, audience: AudienceSchema });
export type AudienceMessageInput = v.InferOutput<typeof AudienceMessageBody>;

export { CardIdParams, RefParams };

export const MessageParams = v.strictObject({
  ...CardIdParams.entries,
  messageId: v.pipe(v.string(), v.minLength(1), v.maxLength(100), v.description('msg_…')),
});

export const MessageAccepted = v.object({
  messageId: v.pipe(v.string(), v.description('msg_…')),
  recipients: v.pipe(v.number(), v.description('Customers it goes to: those holding a pass (Apple, Google or the web pass), each counted once')),
});

export const MessageResource = v.object({
  id: v.pipe(v.string(), v.description('msg_…')),
  cardId: v.string(),
  customerId: v.pipe(v.nullable(v.string()), v.description('pu_… of the one customer it was written to; null for an audience message')),
  audience: v.pipe(v.nullable(v.unknown()), v.description('The audience as sent; null for a one-customer message')),
  header: v.string(),
  body: v.string(),
  recipients: v.number(),
  createdAt: v.pipe(v.string(), v.description('ISO 8601 UTC (the sandbox clock’s time for test data)')),
  deliveries: v.pipe(
    v.object({
      passes: v.pipe(v.number(), v.description('Passes it goes to (an Apple pass on several devices is one)')),
      pending: v.pipe(v.number(), v.description('Not sent yet, or waiting for a retry')),
      delivered: v.pipe(v.number(), v.description('On the pass with a notification')),
      shownWithoutNotification: v.pipe(v.number(), v.description('On the pass without a notification: Google’s budget of 3 per pass in 24 hours was spent, or the pass showed these words already; a web pass shows it on top, with no notification')),
      failed: v.pipe(v.number(), v.description('Given up: the pass was removed from the wallet, or every retry failed')),
    }),
    v.description('How its passes fared so far'),
  ),
});
