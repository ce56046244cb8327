import * as v from 'valibot';
import { CardIdParams } from '../cards/schemas';
import { ApiError } from '../lib/errors';
import { defineRoute, type Auth } from '../routing/route';
import { MAX_OPEN_PROMOTIONS } from './model';
import { CreatePromotionBody, PatchPromotionBody, PromotionParams, PromotionResource } from './schemas';
import { createPromotion, deletePromotion, getPromotion, listPromotions, promotionResource, shopToday, updatePromotion } from './service';

const TAG = 'Promotions';
const CARD_ERRORS = { 403: ['CARD_NOT_IN_ORG'], 404: ['CARD_NOT_FOUND'] };
const ONE_ERRORS = { 403: ['CARD_NOT_IN_ORG'], 404: ['CARD_NOT_FOUND', 'PROMOTION_NOT_FOUND'] };
const RULES =
  ' Dates and hours are the shop’s (the time zone of its settings). `startsAt` and `endsAt` are days, both included; `weekdays` Monday 1 to Sunday 7; ' +
  '`hours` a window on each of those days, `from` included and `to` excluded, `to` after `from` (24:00 is the end of the day; a window past midnight is two promotions). ' +
  `At most ${MAX_OPEN_PROMOTIONS} promotions per card that have not ended: one more is 400 VALIDATION_FAILED. ` +
  'Every earn (API and counter) made while a promotion runs gets it, in test and live mode alike: multipliers multiply the base award, bonuses add to it, ' +
  'and the extra is rounded down to whole units; the earning limits judge the base award only.';
const WRITE_400 = [
  'NOT_AVAILABLE_IN_TEST_MODE',
  'UNSUPPORTED_FOR_CARD_TYPE (a prepaid card)',
  `VALIDATION_FAILED: <paths> (with issues; also endsAt before startsAt, or a ${MAX_OPEN_PROMOTIONS + 1}th promotion that has not ended)`,
];

/** Reads take any key; changes need a live key, like the rest of the card's program. */
function liveOnly(auth: Auth): void {
  if (!auth.livemode) throw new ApiError(400, 'NOT_AVAILABLE_IN_TEST_MODE', { detail: 'changing a card’s promotions needs a live key' });
}

export const promotionRoutes = [
  defineRoute({
    method: 'GET',
    path: '/v1/cards/:cardId/promotions',
    tag: TAG,
    summary: 'List the card’s promotions',
    description: 'Oldest first, ended ones included (`ended: true`). Test and live keys see the same promotions.',
    scope: 'cards:read',
    params: CardIdParams,
    responses: { 200: { description: 'The promotions', schema: v.array(PromotionResource) } },
    errors: CARD_ERRORS,
    handle: ({ deps, auth, params }) => {
      const today = shopToday(deps, auth.orgId);
      return { status: 200, body: listPromotions(deps, auth.orgId, params.cardId).map((p) => promotionResource(p, today)) };
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/v1/cards/:cardId/promotions',
    tag: TAG,
    summary: 'Add a promotion to the card',
    description: 'Live keys only; stamp, point and level cards.' + RULES,
    scope: 'cards:write',
    params: CardIdParams,
    body: CreatePromotionBody,
    idempotent: true,
    responses: { 201: { description: 'The new promotion', schema: PromotionResource } },
    errors: { 400: WRITE_400, ...CARD_ERRORS, 409: ['IDEMPOTENCY_KEY_IN_USE'], 422: ['IDEMPOTENCY_KEY_REUSED'] },
    handle: ({ deps, auth, params, body }) => {
      liveOnly(auth);
      const promotion = createPromotion(deps, auth.orgId, params.cardId, body);
      return { status: 201, body: promotionResource(promotion, shopToday(deps, auth.orgId)) };
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/cards/:cardId/promotions/:promotionId',
    tag: TAG,
    summary: 'Read one promotion',
    scope: 'cards:read',
    params: PromotionParams,
    responses: { 200: { description: 'The promotion', schema: PromotionResource } },
    errors: ONE_ERRORS,
    handle: ({ deps, auth, params }) => ({
      status: 200,
      body: promotionResource(getPromotion(deps, auth.orgId, params.cardId, params.promotionId), shopToday(deps, auth.orgId)),
    }),
  }),
  defineRoute({
    method: 'PATCH',
    path: '/v1/cards/:cardId/promotions/:promotionId',
    tag: TAG,
    summary: 'Change a promotion',
    description: 'Live keys only. Each field sent is set, the others stay; `kind` and `value` go together. `weekdays` or `hours` null: every day, all day.' + RULES,
    scope: 'cards:write',
    params: PromotionParams,
    body: PatchPromotionBody,
    responses: { 200: { description: 'The promotion as changed', schema: PromotionResource } },
    errors: { 400: WRITE_400, ...ONE_ERRORS },
    handle: ({ deps, auth, params, body }) => {
      liveOnly(auth);
      const promotion = updatePromotion(deps, auth.orgId, params.cardId, params.promotionId, body);
      return { status: 200, body: promotionResource(promotion, shopToday(deps, auth.orgId)) };
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/v1/cards/:cardId/promotions/:promotionId',
    tag: TAG,
    summary: 'Remove a promotion',
    description: 'Live keys only. Earns from now on no longer get it; ledger rows it applied to keep its id. Answers the removed promotion; a repeat is 404.',
    scope: 'cards:write',
    params: PromotionParams,
    responses: { 200: { description: 'The promotion that was removed', schema: PromotionResource } },
    errors: { 400: ['NOT_AVAILABLE_IN_TEST_MODE'], ...ONE_ERRORS },
    handle: ({ deps, auth, params }) => {
      liveOnly(auth);
      const promotion = deletePromotion(deps, auth.orgId, params.cardId, params.promotionId);
      return { status: 200, body: promotionResource(promotion, shopToday(deps, auth.orgId)) };
    },
  }),
];
