import type Router from '@koa/router';
import type { Context } from 'koa';
import { listCards } from '../../cards/service';
import type { AppDeps } from '../../deps';
import { ApiError } from '../../lib/errors';
import { readOrgSettings } from '../../orgs/settings';
import { monthOf } from '../../report/month';
import { monthlyBooks, type MonthBooks } from '../../report/service';
import { formErrorsFrom, noErrors, type FormErrors } from '../../web/forms';
import { consoleOf } from '../context';
import { sendConsolePage } from '../layout';
import { booksCsv, booksCsvName } from './csv';
import { reportBody, reportTestModeBody } from './views';

// GET /console/report: the books of one card and month (the form is a GET: a report is a page one
// can bookmark and reload); GET /console/report.csv: the same as CSV, of one card or of every card.
// The books count live data only, whichever data the console's switch shows.

const queried = (ctx: Context, name: string): string | undefined => (typeof ctx.query[name] === 'string' ? (ctx.query[name] as string) : undefined);

/** A refusal on the form's field: the month's, or the card's (an id that is not one of the org's cards). */
function reportErrors(err: ApiError): FormErrors {
  if (err.code === 'CARD_NOT_FOUND' || err.code === 'CARD_NOT_IN_ORG') return { fields: { card: 'Pick one of your cards.' } };
  const errors = formErrorsFrom(err, ['month', 'card']);
  for (const [name, message] of Object.entries(errors.fields)) errors.fields[name] = message.charAt(0).toUpperCase() + message.slice(1);
  return errors;
}

export function bindReport(router: Router, deps: AppDeps): void {
  router.get('/console/report', (ctx) => {
    const c = consoleOf(ctx);
    if (!c.livemode) return sendConsolePage(ctx, deps, c, { section: 'report', title: 'Report', body: reportTestModeBody() });
    const { timeZone } = readOrgSettings(deps.db, c.org.id);
    const cards = listCards(deps, c.org.id);
    const currentMonth = monthOf(deps.clock.now(), timeZone);
    const form = { month: queried(ctx, 'month') ?? currentMonth, card: queried(ctx, 'card') ?? cards[0]?.id ?? '' };
    let books: MonthBooks | null = null;
    let errors = noErrors();
    if (cards.length) {
      try {
        books = monthlyBooks(deps, c.org.id, form.month, { cardId: form.card });
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
        errors = reportErrors(err);
      }
    }
    sendConsolePage(ctx, deps, c, {
      section: 'report',
      title: 'Report',
      status: books || !cards.length ? 200 : 400,
      body: reportBody({ form, cards, errors, currentMonth, timeZone, books }),
    });
  });

  router.get('/console/report.csv', (ctx) => {
    const c = consoleOf(ctx);
    const { timeZone } = readOrgSettings(deps.db, c.org.id);
    const cardId = queried(ctx, 'card') || null;
    let books: MonthBooks;
    try {
      books = monthlyBooks(deps, c.org.id, queried(ctx, 'month') ?? monthOf(deps.clock.now(), timeZone), { cardId });
    } catch (err) {
      if (err instanceof ApiError && (err.code === 'CARD_NOT_FOUND' || err.code === 'CARD_NOT_IN_ORG')) throw new ApiError(404, 'CARD_NOT_FOUND', { exactMessage: 'None of your cards has this id: open the Report page and pick the card there.' });
      throw err;
    }
    ctx.status = 200;
    ctx.type = 'text/csv; charset=utf-8';
    ctx.set('Content-Disposition', `attachment; filename="${booksCsvName(books.month, cardId)}"`);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = booksCsv(books);
  });
}
