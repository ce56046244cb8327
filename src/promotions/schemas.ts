import * as v from 'valibot';
import { hasAtMostDecimals, MAX_UNITS } from '../lib/money';
import { fieldsOf, oneOf } from '../lib/validation';
import { CardIdParams } from '../cards/schemas';
import { MAX_OPEN_PROMOTIONS, PROMOTION_KINDS } from './model';

// Requests and responses of /v1/cards/{cardId}/promotions. Values in units: a multiplier as a
// number (1.5), a bonus in stamps or points. Every rule a schema can state is stated here, so the
// document refuses what the server refuses; the rules between fields and stored values (endsAt
// after startsAt, the number that have not ended) are in the descriptions and the service.

/** A calendar date from 2000 to 2099, leap days included: the pattern itself refuses 2026-02-30. */
export const PROMOTION_DATE =
  /^(?:20\d{2}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\d|30)|02-(?:0[1-9]|1\d|2[0-8]))|20(?:[02468][048]|[13579][26])-02-29)$/;
/** A wall-clock time a window starts at: 00:00 to 23:59. */
export const HOURS_FROM = /^(?:[01]\d|2[0-3]):[0-5]\d$/;
/** A wall-clock time a window ends at (excluded): 00:01 to 24:00, the end of the day. */
export const HOURS_TO = /^(?:00:(?:0[1-9]|[1-5]\d)|(?:0[1-9]|1\d|2[0-3]):[0-5]\d|24:00)$/;

const date = (what: string) => v.pipe(v.string(), v.regex(PROMOTION_DATE, 'must be a date YYYY-MM-DD (2000–2099)'), v.description(what));

const name = v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(100), v.description('Shown to staff and in the console, e.g. "Double stamps on Tuesday afternoons"'));
const multiplierValue = v.pipe(
  v.number(),
  v.minValue(1.1),
  v.maxValue(10),
  v.check((n) => hasAtMostDecimals(n, 1), 'at most 1 decimal'),
  v.metadata({ 'x-max-decimals': 1 }),
  v.description('1.1 to 10, at most one decimal: the base award is multiplied by it'),
);
const bonusValue = v.pipe(v.number(), v.integer('must be a whole number'), v.minValue(1), v.maxValue(MAX_UNITS), v.description('Whole stamps or points added to each award'));

const weekdays = v.pipe(
  v.array(v.pipe(v.number(), v.integer('must be a whole number'), v.minValue(1), v.maxValue(7))),
  v.minLength(1),
  v.maxLength(7),
  v.check((days) => new Set(days).size === days.length, 'each weekday at most once'),
  v.metadata({ uniqueItems: true }),
  v.description('The weekdays it runs on, Monday 1 to Sunday 7; left out or null: every day'),
);

const hours = v.pipe(
  v.strictObject({
    from: v.pipe(v.string(), v.regex(HOURS_FROM, 'must be a time HH:MM from 00:00 to 23:59')),
    to: v.pipe(v.string(), v.regex(HOURS_TO, 'must be a time HH:MM from 00:01 to 24:00')),
  }),
  // Judged once both are times: a malformed one is named on its own.
  v.forward(v.check((h) => !HOURS_FROM.test(h.from) || !HOURS_TO.test(h.to) || h.to > h.from, 'must be after from (a window does not run past midnight)'), ['to']),
  v.description('The shop’s wall-clock window on each day it runs, from included, to excluded (24:00: the end of the day). No window crosses midnight: use two promotions. Left out or null: all day'),
);

const schedule = {
  startsAt: date('First day it runs (the shop’s calendar), included'),
  endsAt: date('Last day it runs, included; not before startsAt'),
  weekdays: v.optional(v.nullable(weekdays)),
  hours: v.optional(v.nullable(hours)),
};

const isDate = (text: string | undefined): text is string => text !== undefined && PROMOTION_DATE.test(text);
const endsAfterStart = <T extends { startsAt?: string | undefined; endsAt?: string | undefined }>() =>
  v.forward<T, v.CheckIssue<T>, never>(v.check((p) => !isDate(p.startsAt) || !isDate(p.endsAt) || p.endsAt >= p.startsAt, 'must not be before startsAt'), ['endsAt'] as never);

/** Which kind a body means, by its `kind`; the document's oneOf says the same. */
const KIND_MESSAGE = 'must be "multiplier" or "bonus"';

const MultiplierShape = v.pipe(
  v.strictObject({ name, kind: v.pipe(v.literal('multiplier'), v.description('Multiplies the base award')), value: multiplierValue, ...schedule }),
  endsAfterStart(),
);
const BonusShape = v.pipe(v.strictObject({ name, kind: v.pipe(v.literal('bonus'), v.description('Adds a fixed amount to each award')), value: bonusValue, ...schedule }), endsAfterStart());

/** POST: a multiplier or a bonus, each complete. */
export const CreatePromotionBody = oneOf([MultiplierShape, BonusShape], (body) => {
  const { kind } = fieldsOf(body);
  if (kind === 'multiplier') return MultiplierShape;
  if (kind === 'bonus') return BonusShape;
  return { field: 'kind', message: kind === undefined ? 'required' : KIND_MESSAGE };
});
export type CreatePromotionInput = v.InferOutput<typeof CreatePromotionBody>;

// PATCH: any field; kind and value only together, so a value is always judged by its kind.
const optionalSchedule = { startsAt: v.optional(schedule.startsAt), endsAt: v.optional(schedule.endsAt), weekdays: schedule.weekdays, hours: schedule.hours };
const absent = (message: string) => v.optional(v.never(message));
const PatchMultiplier = v.pipe(v.strictObject({ name: v.optional(name), kind: v.literal('multiplier'), value: multiplierValue, ...optionalSchedule }), endsAfterStart());
const PatchBonus = v.pipe(v.strictObject({ name: v.optional(name), kind: v.literal('bonus'), value: bonusValue, ...optionalSchedule }), endsAfterStart());
const PatchSchedule = v.pipe(
  v.strictObject({ name: v.optional(name), kind: absent('send kind with value'), value: absent('send value with kind'), ...optionalSchedule }),
  endsAfterStart(),
);

export const PatchPromotionBody = oneOf([PatchMultiplier, PatchBonus, PatchSchedule], (body) => {
  const { kind } = fieldsOf(body);
  if (kind === 'multiplier') return PatchMultiplier;
  if (kind === 'bonus') return PatchBonus;
  // Without kind: the schedule shape, which names a lone value as needing its kind.
  if (kind === undefined) return PatchSchedule;
  return { field: 'kind', message: KIND_MESSAGE };
});
export type PatchPromotionInput = v.InferOutput<typeof PatchPromotionBody>;

export const PromotionParams = v.strictObject({
  ...CardIdParams.entries,
  promotionId: v.pipe(v.string(), v.minLength(1), v.maxLength(100), v.description('pr_…')),
});

export const PromotionResource = v.object({
  id: v.pipe(v.string(), v.description('pr_…; the earn response, `balance.updated` and the ledger row name it in promotionIds')),
  cardId: v.string(),
  name: v.string(),
  kind: v.picklist(PROMOTION_KINDS),
  value: v.pipe(v.number(), v.description('multiplier: the factor (1.1–10); bonus: stamps or points added')),
  startsAt: v.pipe(v.string(), v.description('YYYY-MM-DD, the shop’s calendar, included')),
  endsAt: v.pipe(v.string(), v.description('YYYY-MM-DD, included')),
  weekdays: v.pipe(v.nullable(v.array(v.number())), v.description('Monday 1 … Sunday 7; null: every day')),
  hours: v.pipe(v.nullable(v.object({ from: v.string(), to: v.string() })), v.description('HH:MM, from included, to excluded; null: all day')),
  ended: v.pipe(v.boolean(), v.description(`Its last day is over (the shop’s calendar): it runs no more and no longer counts toward the ${MAX_OPEN_PROMOTIONS}`)),
  createdAt: v.pipe(v.string(), v.description('ISO 8601 UTC')),
  updatedAt: v.pipe(v.string(), v.description('ISO 8601 UTC')),
});
