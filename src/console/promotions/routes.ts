// A card's promotions in the console: /console/cards/:cardId/promotions lists what runs now and
// next and adds one; /…/:promotionId changes one; /…/:promotionId/delete removes one after asking.
// Every write goes through the promotions service the API uses, with the API's rules, and like the
// API's it needs live data: promotions belong to the card and run for real customers too.
import type Router from '@koa/router';
import type { Context } from 'koa';
import { getOrgCard } from '../../cards/service';
import type { AppDeps } from '../../deps';
import { ApiError } from '../../lib/errors';
import { createPromotion, deletePromotion, getPromotion, promotionsOverview, shopToday, updatePromotion } from '../../promotions/service';
import { tConsole } from '../../i18n/translate';
import { noErrors } from '../../web/forms';
import { consoleForm, consoleOf } from '../context';
import { sendConsolePage } from '../layout';
import { emptyPromotionForm, promotionErrorsFrom, promotionToForm, readPromotionForm, validatePromotionForm } from './form';
import { DAYS_AHEAD, deleteBody, editBody, promotionsBody, promotionsPath, unitWord, type FormView } from './views';

const NOTICES = new Set(['created', 'saved', 'deleted']);

/** Changes need live data, as the API's need a live key: the sandbox must never change the real shop's program. */
function liveOnly(ctx: Context): void {
  if (!consoleOf(ctx).livemode) {
    throw new ApiError(400, 'NOT_AVAILABLE_IN_TEST_MODE', { detail: 'promotions run for your real customers too: switch to live data to change them' });
  }
}

export function bindPromotions(router: Router, deps: AppDeps): void {
  const listPage = (ctx: Context, form: FormView | undefined, status = 200) => {
    const c = consoleOf(ctx);
    const overview = promotionsOverview(deps, c.org.id, ctx.params.cardId!, DAYS_AHEAD);
    const notice = typeof ctx.query.done === 'string' && NOTICES.has(ctx.query.done) ? ctx.query.done : undefined;
    const body = promotionsBody(c, overview, { ...(form ? { form } : {}), ...(notice ? { notice } : {}) });
    sendConsolePage(ctx, deps, c, { section: 'cards', title: tConsole(c.lang, 'console.promotions.title', { card: overview.card.name }), status, scripts: ['console.js'], body });
  };

  router.get('/console/cards/:cardId/promotions', (ctx) => {
    const c = consoleOf(ctx);
    listPage(ctx, { form: emptyPromotionForm(shopToday(deps, c.org.id)), errors: noErrors() });
  });

  router.post('/console/cards/:cardId/promotions', (ctx) => {
    liveOnly(ctx);
    const c = consoleOf(ctx);
    const card = getOrgCard(deps, c.org.id, ctx.params.cardId!);
    const form = readPromotionForm(consoleForm(ctx));
    const checked = validatePromotionForm(c.lang, form, unitWord(card));
    if (!checked.ok) return listPage(ctx, { form, errors: checked.errors }, 400);
    try {
      createPromotion(deps, c.org.id, card.id, checked.body);
    } catch (err) {
      // A prepaid card's page has no form to show the refusal on: the error page says it.
      if (!(err instanceof ApiError) || err.status === 404 || err.status === 403 || err.code === 'UNSUPPORTED_FOR_CARD_TYPE') throw err;
      return listPage(ctx, { form, errors: promotionErrorsFrom(c.lang, err, form, unitWord(card)) }, err.status);
    }
    ctx.status = 303;
    ctx.redirect(`${promotionsPath(card.id)}?done=created`);
  });

  const editPage = (ctx: Context, view: Omit<FormView, 'editing'> | undefined, status = 200) => {
    liveOnly(ctx);
    const c = consoleOf(ctx);
    const card = getOrgCard(deps, c.org.id, ctx.params.cardId!);
    const promotion = getPromotion(deps, c.org.id, card.id, ctx.params.promotionId!);
    const shown = view ?? { form: promotionToForm(promotion), errors: noErrors() };
    sendConsolePage(ctx, deps, c, { section: 'cards', title: tConsole(c.lang, 'console.promotions.changeTitle', { name: promotion.name }), status, scripts: ['console.js'], body: editBody(c, card, { ...shown, editing: promotion }) });
  };

  router.get('/console/cards/:cardId/promotions/:promotionId', (ctx) => editPage(ctx, undefined));

  router.post('/console/cards/:cardId/promotions/:promotionId', (ctx) => {
    liveOnly(ctx);
    const c = consoleOf(ctx);
    const card = getOrgCard(deps, c.org.id, ctx.params.cardId!);
    const form = readPromotionForm(consoleForm(ctx));
    const checked = validatePromotionForm(c.lang, form, unitWord(card));
    if (!checked.ok) return editPage(ctx, { form, errors: checked.errors }, 400);
    try {
      // The whole promotion as the form shows it: days or hours left empty are every day, all day.
      updatePromotion(deps, c.org.id, card.id, ctx.params.promotionId!, { ...checked.body, weekdays: checked.body.weekdays ?? null, hours: checked.body.hours ?? null });
    } catch (err) {
      if (!(err instanceof ApiError) || err.status === 404 || err.status === 403) throw err;
      return editPage(ctx, { form, errors: promotionErrorsFrom(c.lang, err, form, unitWord(card)) }, err.status);
    }
    ctx.status = 303;
    ctx.redirect(`${promotionsPath(card.id)}?done=saved`);
  });

  router.get('/console/cards/:cardId/promotions/:promotionId/delete', (ctx) => {
    liveOnly(ctx);
    const c = consoleOf(ctx);
    const card = getOrgCard(deps, c.org.id, ctx.params.cardId!);
    const promotion = getPromotion(deps, c.org.id, card.id, ctx.params.promotionId!);
    sendConsolePage(ctx, deps, c, { section: 'cards', title: tConsole(c.lang, 'console.promotions.deleteTitle', { name: promotion.name }), body: deleteBody(c, card, promotion) });
  });

  router.post('/console/cards/:cardId/promotions/:promotionId/delete', (ctx) => {
    liveOnly(ctx);
    const c = consoleOf(ctx);
    deletePromotion(deps, c.org.id, ctx.params.cardId!, ctx.params.promotionId!);
    ctx.status = 303;
    ctx.redirect(`${promotionsPath(ctx.params.cardId!)}?done=deleted`);
  });
}
