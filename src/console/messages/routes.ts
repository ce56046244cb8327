import type Router from '@koa/router';
import type { Context } from 'koa';
import type { Card } from '../../cards/model';
import { listCards } from '../../cards/service';
import type { Customer } from '../../customers/model';
import type { AppDeps } from '../../deps';
import { ApiError } from '../../lib/errors';
import { audienceReach, customerReach, messagesTo, recentMessages, sendToAudience, sendToCustomer } from '../../messages/service';
import { readOrgSettings, shopCountry } from '../../orgs/settings';
import { tConsole } from '../../i18n/translate';
import { sendFragment } from '../../web/errors';
import { field, type FormErrors, type FormFields } from '../../web/forms';
import { consoleForm, consoleOf } from '../context';
import { findCustomer } from '../customers/service';
import { sendConsolePage } from '../layout';
import { emptyMessageForm, messageFormErrors, parseAudience, parseAudienceMessage, parseCustomerMessage, readMessageForm, type MessageForm } from './form';
import { customerMessageBody, messagesBody, MESSAGES_PATH, reachPanel, type MessagesView } from './views';

// GET/POST /console/messages (a card's audience), GET /console/messages/reach (the count, for
// htmx), GET/POST /console/customers/:passUserId/message (one customer). Every send goes through
// the messages service, as the API's do; a refused form comes back with each field's message and
// nothing written.

const queryText = (ctx: Context, name: string) => (typeof ctx.query[name] === 'string' ? (ctx.query[name] as string) : '');

export function bindMessages(router: Router, deps: AppDeps): void {
  const shop = (ctx: Context) => {
    const c = consoleOf(ctx);
    const settings = readOrgSettings(deps.db, c.org.id);
    return { c, timeZone: settings.timeZone, country: shopCountry(settings), currency: settings.currency };
  };

  /** The chosen card: the one named, else the first active one, else the first. */
  const chosenCard = (cards: Card[], id: string): Card | undefined => {
    if (id) {
      const card = cards.find((c) => c.id === id);
      if (!card) throw new ApiError(404, 'CARD_NOT_FOUND', { detail: 'there is no such card; choose one from the list' });
      return card;
    }
    return cards.find((c) => c.archivedAt === null) ?? cards[0];
  };

  const reachOf = (ctx: Context, card: Card, form: MessageForm, country: string | null): MessagesView['reach'] => {
    const c = consoleOf(ctx);
    const fallback = tConsole(c.lang, 'console.messages.reach.chooseAudience');
    const audience = parseAudience(c.lang, form, card, country);
    if (!audience.ok) return { error: Object.values(audience.errors.fields)[0] ?? fallback };
    try {
      return { reach: audienceReach(deps, c.namespace, card.id, audience.audience) };
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      const errors = messageFormErrors(c.lang, err);
      return { error: Object.values(errors.fields)[0] ?? errors.form ?? fallback };
    }
  };

  const page = (ctx: Context, cardId: string, form: MessageForm, extra: { errors?: FormErrors; status?: number; justSent?: string } = {}) => {
    const { c, timeZone, country, currency } = shop(ctx);
    const cards = listCards(deps, c.org.id);
    const card = chosenCard(cards, cardId);
    const sent = recentMessages(deps, c.namespace);
    const view: MessagesView = {
      cards,
      card,
      form,
      ...(extra.errors ? { errors: extra.errors } : {}),
      reach: card ? reachOf(ctx, card, form, country) : { error: '' },
      sent,
      cardsById: new Map(cards.map((k) => [k.id, k])),
      timeZone,
      currency,
      ...(extra.justSent ? { justSent: sent.find((s) => s.message.id === extra.justSent)?.message } : {}),
    };
    sendConsolePage(ctx, deps, c, { section: 'messages', title: tConsole(c.lang, 'console.messages.title'), status: extra.status, body: messagesBody(c, view) });
  };

  router.get(MESSAGES_PATH, (ctx) => page(ctx, queryText(ctx, 'card'), emptyMessageForm(), { justSent: queryText(ctx, 'sent') }));

  // The count before sending, as the owner changes the audience (htmx sends the form's fields).
  router.get(`${MESSAGES_PATH}/reach`, (ctx) => {
    const { c, country } = shop(ctx);
    const card = chosenCard(listCards(deps, c.org.id), queryText(ctx, 'card'));
    if (!card) return sendFragment(ctx, 404, reachPanel(c.lang, { error: tConsole(c.lang, 'console.messages.reach.noSuchCard') }));
    sendFragment(ctx, 200, reachPanel(c.lang, reachOf(ctx, card, readMessageForm(ctx.query as FormFields), country)));
  });

  router.post(MESSAGES_PATH, (ctx) => {
    const { c, country } = shop(ctx);
    const fields = consoleForm(ctx);
    const cardId = field(fields, 'card');
    const form = readMessageForm(fields);
    const card = chosenCard(listCards(deps, c.org.id), cardId);
    if (!card) return page(ctx, '', form, { status: 400, errors: { fields: {}, form: tConsole(c.lang, 'console.messages.error.noCard') } });
    const parsed = parseAudienceMessage(c.lang, form, card, country);
    if (!parsed.ok) return page(ctx, card.id, form, { errors: parsed.errors, status: 400 });
    let messageId: string;
    try {
      messageId = sendToAudience(deps, c.namespace, card.id, parsed.value, 'console').id;
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      return page(ctx, card.id, form, { errors: messageFormErrors(c.lang, err), status: err.status });
    }
    ctx.status = 303;
    ctx.redirect(`${MESSAGES_PATH}?card=${encodeURIComponent(card.id)}&sent=${encodeURIComponent(messageId)}`);
  });

  const customerPage = (ctx: Context, customer: Customer, form: { header: string; body: string }, extra: { errors?: FormErrors; status?: number; justSent?: string } = {}) => {
    const { c, timeZone, currency } = shop(ctx);
    const sent = messagesTo(deps, customer);
    const cards = listCards(deps, c.org.id);
    sendConsolePage(ctx, deps, c, {
      section: 'customers',
      title: tConsole(c.lang, 'console.messages.customer.title'),
      status: extra.status,
      body: customerMessageBody(c, {
        customer,
        passes: customerReach(deps, customer),
        form,
        ...(extra.errors ? { errors: extra.errors } : {}),
        sent,
        cardsById: new Map(cards.map((k) => [k.id, k])),
        timeZone,
        currency,
        ...(extra.justSent ? { justSent: sent.find((s) => s.message.id === extra.justSent)?.message } : {}),
      }),
    });
  };

  router.get('/console/customers/:passUserId/message', (ctx) => {
    const customer = findCustomer(deps, consoleOf(ctx), ctx.params.passUserId!);
    customerPage(ctx, customer, { header: '', body: '' }, { justSent: queryText(ctx, 'sent') });
  });

  router.post('/console/customers/:passUserId/message', (ctx) => {
    const c = consoleOf(ctx);
    const customer = findCustomer(deps, c, ctx.params.passUserId!);
    const fields = consoleForm(ctx);
    const form = { header: field(fields, 'header'), body: field(fields, 'body') };
    const parsed = parseCustomerMessage(c.lang, form);
    if (!parsed.ok) return customerPage(ctx, customer, form, { errors: parsed.errors, status: 400 });
    const message = sendToCustomer(deps, c.namespace, customer.id, parsed.value, 'console');
    ctx.status = 303;
    ctx.redirect(`/console/customers/${customer.id}/message?sent=${encodeURIComponent(message.id)}`);
  });
}
