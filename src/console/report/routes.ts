import type Router from '@koa/router';
import type { Context } from 'koa';
import { listCards } from '../../cards/service';
import type { AppDeps } from '../../deps';
import type { ConsoleLang } from '../../i18n/langs';
import { tConsole } from '../../i18n/translate';
import { ApiError, inWords } from '../../lib/errors';
import { readOrgSettings } from '../../orgs/settings';
import { monthOf, parseMonth } from '../../report/month';
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

/**
 * A refusal on the form's field, in the admin's language: the card's (an id that is not one of the
 * org's cards), or the month's — the service refuses the month (no month, or one not begun); which
 * of the two it is, the month's text tells.
 */
function reportErrors(lang: ConsoleLang, err: ApiError, month: string): FormErrors {
  if (err.code === 'CARD_NOT_FOUND' || err.code === 'CARD_NOT_IN_ORG') return { fields: { card: tConsole(lang, 'console.report.pickCard') } };
  if (formErrorsFrom(err, ['month']).fields.month === undefined) throw err;
  return { fields: { month: monthMessage(lang, month) } };
}

const monthMessage = (lang: ConsoleLang, month: string) =>
  parseMonth(month) === null ? tConsole(lang, 'console.report.monthInvalid') : tConsole(lang, 'console.report.monthNotBegun', { month: parseMonth(month)! });

export function bindReport(router: Router, deps: AppDeps): void {
  router.get('/console/report', (ctx) => {
    const c = consoleOf(ctx);
    const title = tConsole(c.lang, 'console.report.title');
    if (!c.livemode) return sendConsolePage(ctx, deps, c, { section: 'report', title, body: reportTestModeBody(c.lang) });
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
        errors = reportErrors(c.lang, err, form.month);
      }
    }
    sendConsolePage(ctx, deps, c, {
      section: 'report',
      title,
      status: books || !cards.length ? 200 : 400,
      body: reportBody({ lang: c.lang, form, cards, errors, currentMonth, timeZone, books }),
    });
  });

  router.get('/console/report.csv', (ctx) => {
    const c = consoleOf(ctx);
    const { timeZone } = readOrgSettings(deps.db, c.org.id);
    const cardId = queried(ctx, 'card') || null;
    const month = queried(ctx, 'month') ?? monthOf(deps.clock.now(), timeZone);
    let books: MonthBooks;
    try {
      books = monthlyBooks(deps, c.org.id, month, { cardId });
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      if (err.code === 'CARD_NOT_FOUND' || err.code === 'CARD_NOT_IN_ORG') throw inWords(new ApiError(404, 'CARD_NOT_FOUND', { exactMessage: tConsole(c.lang, 'console.report.csvNoCard') }));
      const { fields } = formErrorsFrom(err, ['month']);
      if (fields.month !== undefined) throw inWords(new ApiError(400, 'VALIDATION_FAILED', { exactMessage: `${tConsole(c.lang, 'console.report.month')}: ${monthMessage(c.lang, month)}` }));
      throw err;
    }
    ctx.status = 200;
    ctx.type = 'text/csv; charset=utf-8';
    ctx.set('Content-Disposition', `attachment; filename="${booksCsvName(books.month, cardId)}"`);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = booksCsv(books, c.lang);
  });
}
