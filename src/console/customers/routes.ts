import { Readable } from 'node:stream';
import type Router from '@koa/router';
import type { Context } from 'koa';
import type { Card } from '../../cards/model';
import { findCard, listCards } from '../../cards/service';
import type { Customer } from '../../customers/model';
import { consentOf } from '../../privacy/consent';
import { installUrl } from '../../customers/install-url';
import { countCustomers, listPage, MAX_QUERY_LENGTH, type ListQuery } from '../../customers/list';
import type { AppDeps } from '../../deps';
import { localDate } from '../../lib/days';
import { ApiError } from '../../lib/errors';
import { decodeCursor, ledgerPage } from '../../loyalty/history';
import { readOrgSettings } from '../../orgs/settings';
import { qrSvg } from '../../wallet/qr';
import { tConsole } from '../../i18n/translate';
import { sendFragment } from '../../web/errors';
import { field } from '../../web/forms';
import { consoleForm, consoleOf } from '../context';
import { sendConsolePage } from '../layout';
import { customerBody, customerTitle, type CorrectionForm } from './customer-page';
import { bindCustomerData, customerDataView } from './data-routes';
import { exportLines } from './export';
import { correctBalance, findCustomer } from './service';
import { customersBody, listResults } from './views';
import { webPassUsersAmong } from '../../wallet/web-pass-opens';

const HISTORY_PAGE = 25;

const queryText = (ctx: Context, name: string): string => (typeof ctx.query[name] === 'string' ? (ctx.query[name] as string) : '');

/** The org's cards by id, in the order the owner made them. */
function orgCards(deps: Pick<AppDeps, 'db'>, orgId: string): Map<string, Card> {
  return new Map(listCards(deps, orgId).map((card) => [card.id, card]));
}

/** The search, the card filter and the page cursor of a list or export request. */
function listQuery(ctx: Context, cards: Map<string, Card>): ListQuery {
  const cardId = queryText(ctx, 'card') || null;
  if (cardId && !cards.has(cardId)) throw new ApiError(404, 'CARD_NOT_FOUND', { detail: 'there is no such card; choose one from the list' });
  const older = queryText(ctx, 'older');
  const newer = queryText(ctx, 'newer');
  const from = older ? { direction: 'older' as const, cursor: older } : newer ? { direction: 'newer' as const, cursor: newer } : undefined;
  return { q: queryText(ctx, 'q').slice(0, MAX_QUERY_LENGTH), cardId, ...(from ? { from } : {}) };
}

/** The customer of this page in the namespace the switch shows; the other namespace's says so. */
export function bindCustomers(router: Router, deps: AppDeps): void {
  router.get('/console/customers', (ctx) => {
    const c = consoleOf(ctx);
    const cards = orgCards(deps, c.org.id);
    const query = listQuery(ctx, cards);
    const page = listPage(deps.db, c.namespace, query);
    const view = { query, page, cards, timeZone: readOrgSettings(deps.db, c.org.id).timeZone, webPassUsers: webPassUsersAmong(deps.db, page.rows.map((r) => r.id)) };
    // As the owner types, htmx asks for the results only.
    if (ctx.get('HX-Request') === 'true' && ctx.get('HX-Target') === 'results') return sendFragment(ctx, 200, listResults(c, view));
    const testCustomers = c.livemode ? 0 : countCustomers(deps.db, c.namespace);
    sendConsolePage(ctx, deps, c, { section: 'customers', title: tConsole(c.lang, 'console.customers.title'), body: customersBody(c, view, testCustomers) });
  });

  router.get('/console/customers/export.csv', (ctx) => {
    const c = consoleOf(ctx);
    const cards = orgCards(deps, c.org.id);
    const query = listQuery(ctx, cards);
    const timeZone = readOrgSettings(deps.db, c.org.id).timeZone;
    const name = `customers-${c.livemode ? 'live' : 'test'}-${localDate(deps.clock.now(), timeZone)}.csv`;
    ctx.set('Content-Disposition', `attachment; filename="${name}"`);
    ctx.set('Cache-Control', 'no-store');
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.type = 'text/csv; charset=utf-8';
    ctx.body = Readable.from(exportLines(deps.db, c, { q: query.q, cardId: query.cardId }, cards, timeZone));
  });

  const showCustomer = async (ctx: Context, customer: Customer, correction: CorrectionForm, status = 200) => {
    const c = consoleOf(ctx);
    const card = findCard(deps, customer.cardId)!;
    const historyCursor = queryText(ctx, 'history');
    let after;
    try {
      after = historyCursor ? decodeCursor(historyCursor) : undefined;
    } catch {
      throw new ApiError(400, 'INVALID_CURSOR', { detail: 'this history link is not one this page made; open the customer again' });
    }
    const history = ledgerPage(deps.db, customer.id, HISTORY_PAGE, after);
    const url = installUrl(deps.config, customer);
    const view = {
      customer,
      card,
      timeZone: readOrgSettings(deps.db, c.org.id).timeZone,
      installUrl: url,
      installQr: await qrSvg(url, tConsole(c.lang, 'console.customer.installQr')),
      history: { rows: history.rows, older: history.nextCursor, paged: Boolean(after) },
      correction,
      corrected: ctx.query.corrected === '1',
      consent: consentOf(deps.db, customer),
      data: customerDataView(deps, customer, ctx.query),
      usesWebPass: webPassUsersAmong(deps.db, [customer.id]).size > 0,
    };
    sendConsolePage(ctx, deps, c, { section: 'customers', title: customerTitle(c.lang, customer), status, body: customerBody(c, view) });
  };

  bindCustomerData(router, deps);

  router.get('/console/customers/:passUserId', async (ctx) => {
    const customer = findCustomer(deps, consoleOf(ctx), ctx.params.passUserId!);
    await showCustomer(ctx, customer, { action: 'add', amount: '', note: '' });
  });

  router.post('/console/customers/:passUserId/correct', async (ctx) => {
    const c = consoleOf(ctx);
    const customer = findCustomer(deps, c, ctx.params.passUserId!);
    const form = consoleForm(ctx);
    const typed: CorrectionForm = { action: field(form, 'action'), amount: field(form, 'amount').slice(0, 40), note: field(form, 'note').slice(0, 2000) };
    const outcome = correctBalance(deps, customer, typed, consoleOf(ctx).lang);
    if (!outcome.ok) return showCustomer(ctx, customer, { ...typed, errors: outcome.errors }, outcome.status);
    ctx.status = 303;
    ctx.redirect(`/console/customers/${customer.id}?corrected=1`);
  });
}
