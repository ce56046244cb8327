import * as v from 'valibot';
import { ApiError } from '../lib/errors';
import { defineRoute } from '../routing/route';
import { CardIdParams, CardResource, PatchCardBody } from './schemas';
import { cardResource, listCards, patchCard } from './service';

export const cardRoutes = [
  defineRoute({
    method: 'GET',
    path: '/v1/cards',
    tag: 'Cards',
    summary: 'List the organisation’s cards',
    description: 'A test key sees the same cards (and card ids) as a live key. Archived cards are listed too, with `archived: true`.',
    scope: 'cards:read',
    responses: { 200: { description: 'The cards, oldest first', schema: v.array(CardResource) } },
    handle: ({ deps, auth }) => ({ status: 200, body: listCards(deps, auth.orgId).map(cardResource) }),
  }),
  defineRoute({
    method: 'PATCH',
    path: '/v1/cards/:cardId',
    tag: 'Cards',
    summary: 'Set the card’s identifier question and program fields',
    description:
      'Live keys only. Each field sent is set, the others stay; all or none are written. `identifierQuestionKey`: the question must be required and of type number, text, email or phone; it replaces any previous identifier in the same write (null clears it). ' +
      '`rewards` replaces the reward list of a stamp or point card: an entry with the `id` of one of the card’s rewards keeps that id (and so integrators’ rewardIds), an entry without gets a new one, and a reward left out is removed; ' +
      'the first entry is the default that `redeem type=reward` without a rewardId redeems, and `reward` shows it. ' +
      '`expiry`: `{ months }` (point and level cards: each award expires at the end of the day, shop time zone, that many months after it was made) or `{ inactiveDays }` (stamp, point and level cards: the whole balance expires at the end of the day that many days after the last award), each with `remindDays` (default 14, 0 = no reminders); null turns expiry off for awards made from then on. ' +
      'A rule is never retroactive: units awarded before it keep the rule they were awarded under (none, for units awarded before expiry was first switched on), and redemptions use the oldest units first. ' +
      '`birthday`: `{ questionKey, units }`, the card’s date question holding the birthday and the units given on it, once per calendar year (the answers customers already gave count as given when they enrolled); null turns it off. ' +
      'A field the card type cannot have is 400 UNSUPPORTED_FOR_CARD_TYPE: `rewards` on a level or prepaid card, `unitValue`, `expiry` or `birthday` on a prepaid card (store credit is money: it never expires), `{ months }` on a stamp card.',
    scope: 'cards:write',
    params: CardIdParams,
    body: PatchCardBody,
    responses: { 200: { description: 'The updated card', schema: CardResource } },
    errors: {
      400: [
        'NOT_AVAILABLE_IN_TEST_MODE',
        'UNKNOWN_QUESTION_KEY',
        'QUESTION_NOT_ELIGIBLE',
        'UNSUPPORTED_FOR_CARD_TYPE',
        'VALIDATION_FAILED: <paths> (with issues; also a rewards entry whose id is not one of the card’s rewards)',
      ],
      403: ['CARD_NOT_IN_ORG'],
      404: ['CARD_NOT_FOUND'],
    },
    handle: ({ deps, auth, params, body }) => {
      if (!auth.livemode) throw new ApiError(400, 'NOT_AVAILABLE_IN_TEST_MODE', { detail: 'changing a card needs a live key' });
      const card = patchCard(deps, auth.orgId, params.cardId, body);
      return { status: 200, body: cardResource(card) };
    },
  }),
];
