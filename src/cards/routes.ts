import * as v from 'valibot';
import { ApiError } from '../lib/errors';
import { defineRoute } from '../routing/route';
import { CardIdParams, CardResource, PatchCardBody } from './schemas';
import { cardResource, listCards, setIdentifierQuestion } from './service';

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
    summary: 'Set or clear the card’s identifier question',
    description: 'Live keys only. The question must be required and of type number, text, email or phone; it replaces any previous identifier in the same write.',
    scope: 'cards:write',
    params: CardIdParams,
    body: PatchCardBody,
    responses: { 200: { description: 'The updated card', schema: CardResource } },
    errors: { 400: ['NOT_AVAILABLE_IN_TEST_MODE', 'UNKNOWN_QUESTION_KEY', 'QUESTION_NOT_ELIGIBLE'], 403: ['CARD_NOT_IN_ORG'], 404: ['CARD_NOT_FOUND'] },
    handle: ({ deps, auth, params, body }) => {
      if (!auth.livemode) throw new ApiError(400, 'NOT_AVAILABLE_IN_TEST_MODE', { detail: 'changing a card needs a live key' });
      const card = setIdentifierQuestion(deps, auth.orgId, params.cardId, body.identifierQuestionKey);
      return { status: 200, body: cardResource(card) };
    },
  }),
];
