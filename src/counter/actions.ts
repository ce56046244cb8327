import { randomUUID } from 'node:crypto';
import type Router from '@koa/router';
import type { Context, Next } from 'koa';
import type { Card } from '../cards/model';
import { cardCustomerCounts, getOrgCard, listActiveCards } from '../cards/service';
import type { Customer, Namespace } from '../customers/model';
import type { AppDeps } from '../deps';
import { readOrgSettings, shopCountry } from '../orgs/settings';
import { orgsRepo } from '../orgs/repo';
import type { Lang } from '../i18n/langs';
import { t } from '../i18n/translate';
import { checkIdempotencyKey, claimIdempotencyKey, runIdempotent } from '../idempotency/service';
import { ApiError, badRequest, inWords, validationFailed } from '../lib/errors';
import { MAX_UNITS, toHundredths } from '../lib/money';
import { formatNumber } from '../i18n/format';
import type { BalanceChangeResult } from '../loyalty/ledger';
import type { EarnBasis } from '../loyalty/service';
import { qrSvg } from '../wallet/qr';
import { installUrl } from '../customers/install-url';
import { maskEmail } from '../lib/contact';
import { cardEmailBlocker, mailSetup, queueCardEmail } from '../mail/service';
import { CSRF_FIELD } from '../web/csrf';
import { field, formErrorsFrom, hasErrors, readForm, type FormFields } from '../web/forms';
import { html, type Markup } from '../web/html';
import { runningPromotions } from '../promotions/service';
import { customerNow, previewAward, type AwardPreview } from './offers';
import { previewText } from './offer-panels';
import { checkEnrollValues, enrollAtCounter, enrollValues } from './enroll';
import { entryText, signedText, voiceOf, type Voice } from './format';
import { cardQrPanel, customerPanel, enrolledPanel, enrollPanel, resultsPanel, type Confirmation } from './panels';
import { awardChange, confirmAboveFor, largeAwardPanel } from './large-award';
import { awardAtCounter, customerByCode, customerById, customerScreen, findCustomers, promotionNamesOf, redeemAtCounter, undoAtCounter, type CounterActor } from './service';
import { checkCounterRequest, counterSession, type CounterContext } from './session';
import { counterMessage, inShopWords } from './refusals';

// The requests the counter page's script makes: look a customer up, act on them, enroll one.
// Answers are HTML fragments the page swaps in; a refusal is JSON { code, message } in words the
// staff can act on. Every write runs under the idempotency key the page made for that tap, in the
// API's own store (its own route names), so a double tap, a retry or the offline queue replaying
// it applies it once; the stored reply is the action's outcome, the screen is drawn fresh.
// Everything is said in the shop's language (org setting `language`).

/** The shop's language, for a request that names the org in its path (English when no such org). */
function orgLang(deps: Pick<AppDeps, 'db'>, orgId: string | undefined): Lang {
  return orgId && orgsRepo(deps.db).findOrg(orgId) ? readOrgSettings(deps.db, orgId).language : 'en';
}

/** Refusals as JSON the page shows; anything unexpected is logged and apologised for. */
export function counterErrors(deps: Pick<AppDeps, 'log' | 'db'>) {
  return async (ctx: Context, next: Next) => {
    try {
      await next();
    } catch (err) {
      const lang = orgLang(deps, ctx.params.orgId);
      if (err instanceof ApiError) return sendRefusal(ctx, err.status, err.code, counterMessage(lang, err));
      const requestId = ctx.state.requestId as string | undefined;
      deps.log.error('unhandled error', { requestId, method: ctx.method, path: ctx.path, err });
      sendRefusal(ctx, 500, 'INTERNAL_ERROR', t(lang, 'counter.error.server', { request: requestId ?? '–' }));
    }
  };
}

function sendRefusal(ctx: Context, status: number, code: string, message: string): void {
  ctx.status = status;
  ctx.set('Cache-Control', 'no-store');
  ctx.type = 'application/json; charset=utf-8';
  ctx.body = JSON.stringify({ code, message });
}

function sendHtml(ctx: Context, status: number, body: Markup): void {
  ctx.status = status;
  ctx.set('Cache-Control', 'no-store');
  ctx.type = 'text/html; charset=utf-8';
  ctx.body = body.value;
}

function readMode(lang: Lang, value: unknown): boolean {
  if (value === 'live') return true;
  if (value === 'test') return false;
  throw inWords(badRequest('MODE_MISSING', t(lang, 'counter.error.mode')));
}

interface CounterRequest {
  counter: CounterContext;
  actor: CounterActor;
  /** The shop's language, time zone and currency. */
  voice: Voice;
  lang: Lang;
}

function actorOf(counter: CounterContext, livemode: boolean): CounterActor {
  return { namespace: { orgId: counter.org.id, livemode }, staff: { id: counter.staff.id, name: counter.staff.name }, settings: counter.settings };
}

function readRequest(ctx: Context, deps: AppDeps, mode: unknown): CounterRequest {
  const counter = counterSession(ctx, deps, ctx.params.orgId!);
  if (!counter) throw new ApiError(401, 'COUNTER_LOCKED', { detail: 'the counter is locked. Enter your PIN again' });
  const voice = voiceOf(counter.settings);
  return { counter, actor: actorOf(counter, readMode(voice.lang, mode)), voice, lang: voice.lang };
}

/** A number as staff type it: "3", "4.50", "4,50". */
function typedAmount(lang: Lang, text: string, card: Card, what: string): number {
  const cleaned = text.trim().replace(',', '.');
  const whole = card.passType !== 'prepaid_card' && what !== 'spend';
  const ok = whole ? /^\d{1,10}$/.test(cleaned) : /^\d{1,10}(\.\d{1,2})?$/.test(cleaned);
  const value = Number(cleaned);
  if (!ok || value <= 0 || value > MAX_UNITS) {
    const example = formatNumber(lang, 4.5, { decimals: 2, fixed: true });
    throw inWords(validationFailed([{ path: '', message: whole ? t(lang, 'counter.error.wholeNumber') : t(lang, 'counter.error.amount', { example }) }]));
  }
  return toHundredths(value);
}

function earnBasis(lang: Lang, card: Card, form: FormFields): EarnBasis {
  const what = field(form, 'what');
  if (what === 'flat') return { from: 'amount', amount: typedAmount(lang, field(form, 'amount'), card, what) };
  if (what === 'spend') return { from: 'spend', amount: typedAmount(lang, field(form, 'amount'), card, what), currency: card.accrual?.spend?.currency ?? '' };
  if (what === 'items') {
    const quantity = field(form, 'quantity').trim();
    if (!/^\d{1,6}$/.test(quantity) || Number(quantity) < 1) throw inWords(validationFailed([{ path: '', message: t(lang, 'counter.error.quantity') }]));
    return { from: 'items', items: [{ key: field(form, 'item'), quantity: Number(quantity) }] };
  }
  throw inWords(badRequest('UNKNOWN_ACTION', t(lang, 'counter.error.unknownAction')));
}

interface ActionOutcome {
  passUserId: string;
  done: string;
}

function outcome(deps: AppDeps, v: Voice, result: BalanceChangeResult): ActionOutcome {
  const { card, transaction } = result;
  const done = transaction.kind === 'reversal' ? t(v.lang, 'counter.entry.undone', { change: signedText(v, card, transaction.change) }) : entryText(v, card, transaction, promotionNamesOf(deps, card));
  return { passUserId: result.customer.id, done };
}

/** The form without its CSRF token: what the idempotency fingerprint compares. */
const fingerprinted = (form: FormFields) => Object.fromEntries(Object.entries(form).filter(([name]) => name !== CSRF_FIELD));

/**
 * Runs `act` once per key: the reply is stored with the change in one transaction, and a repeat
 * gets the stored reply (a stored refusal too). Returns the reply's status and parsed body.
 */
function once<T>(deps: AppDeps, ctx: Context, req: CounterRequest, route: string, key: string, form: FormFields, act: () => T): { status: number; body: T | Record<string, unknown>; replayed: boolean } {
  const n = req.actor.namespace;
  checkIdempotencyKey(key);
  const scope = { orgId: n.orgId, livemode: n.livemode, method: 'POST', route: `counter:${route}`, key };
  const release = claimIdempotencyKey(scope);
  // A refusal is kept in the shop's words: its replay shows them too.
  const inWords = (): T => {
    try {
      return act();
    } catch (err) {
      throw err instanceof ApiError ? inShopWords(req.lang, err) : err;
    }
  };
  try {
    const reply = runIdempotent(deps, scope, { path: ctx.path, body: fingerprinted(form) }, release !== null, () => ({ status: 201, body: inWords() }));
    if (reply.replayed) ctx.set('Idempotent-Replayed', 'true');
    return { status: reply.status, body: JSON.parse(reply.body) as T, replayed: reply.replayed };
  } finally {
    release?.();
  }
}

/** A stored refusal replayed: the same words, in the shop's language, as when it was first refused. */
function replayedRefusal(status: number, body: Record<string, unknown>): ApiError {
  const message = typeof body.message === 'string' ? body.message : 'refused';
  const code = /^([A-Z][A-Z0-9_]*)(: |$)/.exec(message)?.[1] ?? 'REFUSED';
  return inWords(new ApiError(status, code, { exactMessage: message, extra: Object.fromEntries(Object.entries(body).filter(([k]) => k === 'issues')) }));
}

/**
 * The cards the counter offers a new customer (archived ones never), the shop's most used first:
 * most customers in this mode, and between equals the newest (the owner's own card before the
 * demo cards it came with).
 */
function cardsByUse(deps: AppDeps, n: Namespace): Card[] {
  const counts = cardCustomerCounts(deps, n.orgId);
  const used = (card: Card) => (n.livemode ? counts(card.id).live : counts(card.id).test);
  return listActiveCards(deps, n.orgId).sort((a, b) => used(b) - used(a) || b.createdAt - a.createdAt);
}

/** The install QR's text for screen readers. */
const qrAlt = (req: CounterRequest, customer: Customer) => (customer.name ? t(req.lang, 'counter.card.qrAlt', { name: customer.name }) : t(req.lang, 'counter.card.qrAltNoName'));

export function bindCounterActions(router: Router, deps: AppDeps): void {
  const base = '/counter/:orgId';
  const errors = counterErrors(deps);

  const panel = (ctx: Context, req: CounterRequest, customer: Customer, confirmation?: Confirmation) =>
    sendHtml(ctx, 200, customerPanel(req.voice, customerScreen(deps, customer, req.counter.staff.id), { now: deps.clock.now(), confirmation, mail: mailSetup(deps.config) !== null }));

  router.get(`${base}/scan`, errors, (ctx) => {
    const req = readRequest(ctx, deps, ctx.query.mode);
    panel(ctx, req, customerByCode(deps, req.actor.namespace, req.lang, String(ctx.query.code ?? '')));
  });

  router.get(`${base}/find`, errors, (ctx) => {
    const req = readRequest(ctx, deps, ctx.query.mode);
    const query = String(ctx.query.q ?? '');
    const found = findCustomers(deps, req.actor.namespace, req.lang, query, shopCountry(req.counter.settings));
    if (found.length === 1) return panel(ctx, req, found[0]!);
    sendHtml(ctx, 200, resultsPanel(req.voice, query.trim(), found.map((customer) => ({ customer, card: getOrgCard(deps, customer.orgId, customer.cardId) }))));
  });

  /** What an award of this basis gives the customer now, promotions included, as the earn works it out. */
  const awardPreviewFor = (card: Card, customer: Customer, basis: EarnBasis): AwardPreview =>
    previewAward(runningPromotions(deps.db, card, customerNow(deps, customer)), awardChange(card, basis));

  // "+2 stamps, +2 more from Double Tuesday" under a typed award, as staff type it. A read: an
  // amount that is not one yet (empty, "4,") answers the form's hint instead of a refusal.
  router.get(`${base}/preview`, errors, (ctx) => {
    const req = readRequest(ctx, deps, ctx.query.mode);
    const customer = customerById(deps, req.actor.namespace, req.lang, String(ctx.query.customer ?? ''));
    const card = getOrgCard(deps, customer.orgId, customer.cardId);
    const form = Object.fromEntries(['what', 'amount', 'item', 'quantity'].map((name) => [name, String(ctx.query[name] ?? '')]));
    let preview: AwardPreview | null = null;
    try {
      preview = awardPreviewFor(card, customer, earnBasis(req.lang, card, form));
    } catch (err) {
      if (!(err instanceof ApiError) || err.status !== 400) throw err;
    }
    sendHtml(ctx, 200, html`${preview ? previewText(req.voice, card, preview) : t(req.lang, 'counter.preview.typeAmount')}`);
  });

  router.get(`${base}/customers/:passUserId`, errors, (ctx) => {
    const req = readRequest(ctx, deps, ctx.query.mode);
    panel(ctx, req, customerById(deps, req.actor.namespace, req.lang, ctx.params.passUserId!));
  });

  /**
   * earn, redeem and undo: one tap each, under the tap's own key. `ask` may answer a question
   * instead (a large award to confirm): nothing is done and the key is not used.
   */
  const action = (
    route: string,
    act: (req: CounterRequest, customer: Customer, form: FormFields, key: string) => BalanceChangeResult,
    ask?: (req: CounterRequest, customer: Customer, form: FormFields) => Markup | undefined,
  ) =>
    router.post(`${base}/${route}`, errors, async (ctx) => {
      const form = await readForm(ctx);
      const req = readRequest(ctx, deps, field(form, 'mode'));
      checkCounterRequest(ctx, deps, req.counter, field(form, CSRF_FIELD));
      const question = ask?.(req, customerById(deps, req.actor.namespace, req.lang, field(form, 'customer')), form);
      if (question) return sendHtml(ctx, 200, question);
      const key = field(form, 'key');
      const reply = once(deps, ctx, req, route, key, form, () => outcome(deps, req.voice, act(req, customerById(deps, req.actor.namespace, req.lang, field(form, 'customer')), form, key)));
      if (reply.status >= 400) throw replayedRefusal(reply.status, reply.body as Record<string, unknown>);
      const done = reply.body as ActionOutcome;
      panel(ctx, req, customerById(deps, req.actor.namespace, req.lang, done.passUserId), { done: done.done });
    });

  action(
    'earn',
    (req, customer, form, key) => awardAtCounter(deps, req.actor, customer, earnBasis(req.lang, getOrgCard(deps, customer.orgId, customer.cardId), form), key),
    (req, customer, form) => {
      if (field(form, 'confirmed') === 'yes') return undefined;
      const card = getOrgCard(deps, customer.orgId, customer.cardId);
      // What goes on the card, promotions included: the size the dashboard flags is the same.
      const preview = awardPreviewFor(card, customer, earnBasis(req.lang, card, form));
      const above = confirmAboveFor(card, req.actor.settings);
      if (preview.base + preview.extra <= above) return undefined;
      const fields = Object.fromEntries(Object.entries(fingerprinted(form)).filter(([name]) => !['key', 'mode', 'confirmed'].includes(name)).map(([name, value]) => [name, String(value)]));
      return largeAwardPanel(req.voice, { customer, card, preview, above, fields });
    },
  );
  action('redeem', (req, customer, form, key) => {
    const what = field(form, 'what');
    if (what === 'reward') return redeemAtCounter(deps, req.actor, customer, { type: 'reward', rewardId: field(form, 'rewardId') || undefined }, key);
    const card = getOrgCard(deps, customer.orgId, customer.cardId);
    return redeemAtCounter(deps, req.actor, customer, { type: 'points', amount: typedAmount(req.lang, field(form, 'amount'), card, what) }, key);
  });
  action('undo', (req, customer, form, key) => undoAtCounter(deps, req.actor, customer, field(form, 'transaction'), key));

  // The customer's card again (a lost pass, a new phone): its install QR on this screen.
  router.get(`${base}/customers/:passUserId/qr`, errors, async (ctx) => {
    const req = readRequest(ctx, deps, ctx.query.mode);
    const customer = customerById(deps, req.actor.namespace, req.lang, ctx.params.passUserId!);
    const card = getOrgCard(deps, customer.orgId, customer.cardId);
    const qr = await qrSvg(installUrl(deps.config, customer), qrAlt(req, customer));
    sendHtml(ctx, 200, cardQrPanel(req.voice, customer, card, qr));
  });

  // "Send card by email": queued under the tap's key (a double tap sends one email), sent by the mail worker.
  router.post(`${base}/send-card`, errors, async (ctx) => {
    const form = await readForm(ctx);
    const req = readRequest(ctx, deps, field(form, 'mode'));
    checkCounterRequest(ctx, deps, req.counter, field(form, CSRF_FIELD));
    const reply = once(deps, ctx, req, 'send-card', field(form, 'key'), form, () => {
      const customer = customerById(deps, req.actor.namespace, req.lang, field(form, 'customer'));
      if (cardEmailBlocker(customer)) throw inWords(badRequest('NO_EMAIL_ADDRESS', t(req.lang, 'counter.error.noEmail')));
      const sent = queueCardEmail(deps, customer, 'scan');
      return { passUserId: customer.id, done: t(req.lang, 'counter.entry.emailed', { email: maskEmail(sent.to) }) };
    });
    if (reply.status >= 400) throw replayedRefusal(reply.status, reply.body as Record<string, unknown>);
    const done = reply.body as ActionOutcome;
    panel(ctx, req, customerById(deps, req.actor.namespace, req.lang, done.passUserId), { done: done.done, aside: true });
  });

  const enrollForm = (ctx: Context, req: CounterRequest, cardId: string, view: { status?: number; form?: FormFields; errors?: ReturnType<typeof formErrorsFrom> } = {}) => {
    const cards = cardsByUse(deps, req.actor.namespace);
    const card = cards.find((c) => c.id === cardId) ?? cards[0];
    if (!card) throw inWords(badRequest('NO_CARDS', t(req.lang, 'counter.error.noCards')));
    // A fresh key for every form shown: a corrected form is a new request, never a replay of the refused one.
    sendHtml(ctx, view.status ?? 200, enrollPanel(req.voice, { cards, card, values: enrollValues(card, view.form ?? {}), errors: view.errors, key: randomUUID(), country: shopCountry(req.counter.settings) }));
  };

  router.get(`${base}/enroll`, errors, (ctx) => {
    const req = readRequest(ctx, deps, ctx.query.mode);
    enrollForm(ctx, req, String(ctx.query.card ?? ''));
  });

  router.post(`${base}/enroll`, errors, async (ctx) => {
    const form = await readForm(ctx);
    const req = readRequest(ctx, deps, field(form, 'mode'));
    checkCounterRequest(ctx, deps, req.counter, field(form, CSRF_FIELD));
    const card = getOrgCard(deps, req.counter.org.id, field(form, 'card'));
    if (card.archivedAt !== null) throw inWords(badRequest('CARD_ARCHIVED', t(req.lang, 'counter.error.cardArchived', { card: card.name })));
    const values = enrollValues(card, form);
    const country = shopCountry(req.counter.settings);
    const errors = checkEnrollValues(req.lang, card, values, country);
    if (hasErrors(errors)) return enrollForm(ctx, req, card.id, { status: 400, form, errors });
    let reply;
    try {
      reply = once(deps, ctx, req, 'enroll', field(form, 'key'), form, () => {
        const result = enrollAtCounter(deps, req.actor, card, values, field(form, 'key'), country);
        return { passUserId: result.passUserId, matched: result.result === 'matched', installUrl: result.installUrl };
      });
      if (reply.status >= 400) throw replayedRefusal(reply.status, reply.body as Record<string, unknown>);
    } catch (err) {
      if (!(err instanceof ApiError) || err.code === 'COUNTER_LOCKED' || err.code === 'CSRF_CHECK_FAILED') throw err;
      return enrollForm(ctx, req, card.id, { status: err.status, form, errors: formErrorsFrom(inShopWords(req.lang, err), ['name', 'email', 'phone']) });
    }
    const done = reply.body as { passUserId: string; matched: boolean; installUrl: string };
    const customer = customerById(deps, req.actor.namespace, req.lang, done.passUserId);
    const qr = await qrSvg(done.installUrl, qrAlt(req, customer));
    sendHtml(ctx, 200, enrolledPanel(req.voice, { customer, card, matched: done.matched, installUrl: done.installUrl, qrSvg: qr }));
  });
}
