import type Router from '@koa/router';
import type { Context } from 'koa';
import { findCard } from '../../cards/service';
import { contactChanges, editCustomerContact } from '../../customers/edit';
import { eraseCustomer } from '../../privacy/erase';
import { customerExport } from '../../privacy/export';
import type { Customer } from '../../customers/model';
import { findCustomerAnywhere } from '../../customers/service';
import { installUrl } from '../../customers/install-url';
import type { AppDeps } from '../../deps';
import { ApiError } from '../../lib/errors';
import { readOrgSettings, shopCountry } from '../../orgs/settings';
import { cardEmailBlocker, customerEmails, mailSetup, queueCardEmail } from '../../mail/service';
import { qrSvg } from '../../wallet/qr';
import { field, formErrorsFrom, type FormErrors } from '../../web/forms';
import { consoleForm, consoleOf } from '../context';
import { sendConsolePage } from '../layout';
import type { ConsoleLang } from '../../i18n/langs';
import { tConsole, type ConsoleKey, type MessageParams } from '../../i18n/translate';
import { labelOf } from './lang-format';
import { editBody, erasedBody, eraseBody, qrBody, type CustomerDataView, type EditForm } from './data-views';
import { findCustomer } from './service';

// The customer's own data in the console (docs/customer-data.md): send their card by email, show their
// card's QR, edit their details, download their data, delete their personal data.

/**
 * The edit form's messages: the service's own in English; in German the same rules from the
 * catalogue, told apart by the service's wording (it has no codes per rule).
 */
function editErrors(lang: ConsoleLang, err: ApiError): FormErrors {
  const errors = formErrorsFrom(err, ['name', 'email', 'phone']);
  if (lang === 'en') return errors;
  const m = (key: ConsoleKey, params?: MessageParams) => tConsole(lang, key, params);
  const worded = (field: string, message: string): string => {
    if (/cannot be emptied/.test(message)) return m('console.data.rule.required', { field });
    const max = /^At most (\d+) characters/.exec(message);
    if (max) return m('console.data.rule.tooLong', { max: Number(max[1]) });
    if (/^Enter an email address/.test(message)) return m('console.data.rule.email');
    if (/^Enter a phone number/.test(message)) return m('console.data.rule.phone');
    const taken = /^Another customer of this card \((.*)\) has this/.exec(message);
    if (taken) return m('console.data.rule.taken', { who: taken[1]!, field });
    return message;
  };
  return { ...errors, fields: Object.fromEntries(Object.entries(errors.fields).map(([field, message]) => [field, worded(field, message)])) };
}

/** What the customer page shows of the customer's data (called by its route). */
export function customerDataView(deps: Pick<AppDeps, 'db' | 'config'>, customer: Customer, query: Context['query']): CustomerDataView {
  const notice = query.sent === '1' ? 'sent' : query.edited === '1' ? 'edited' : query.edited === '0' ? 'unchanged' : null;
  return {
    mail: mailSetup(deps.config),
    sends: customerEmails(deps, customer.id),
    changes: contactChanges(deps, customer.id),
    notice,
    mailBlocker: cardEmailBlocker(customer),
  };
}

export function bindCustomerData(router: Router, deps: AppDeps): void {
  const page = (ctx: Context) => findCustomer(deps, consoleOf(ctx), ctx.params.passUserId!);
  const cardOf = (customer: Customer) => findCard(deps, customer.cardId)!;

  router.post('/console/customers/:passUserId/send-card', (ctx) => {
    const customer = page(ctx);
    queueCardEmail(deps, customer, 'console');
    ctx.status = 303;
    ctx.redirect(`/console/customers/${customer.id}?sent=1#emails-heading`);
  });

  router.get('/console/customers/:passUserId/qr', async (ctx) => {
    const c = consoleOf(ctx);
    const customer = page(ctx);
    const card = cardOf(customer);
    const svg = await qrSvg(installUrl(deps.config, customer), tConsole(c.lang, 'console.data.qrAlt', { name: labelOf(c.lang, customer) }));
    const shopLang = readOrgSettings(deps.db, customer.orgId).language;
    sendConsolePage(ctx, deps, c, { section: 'customers', title: tConsole(c.lang, 'console.data.qrTitle', { card: card.name }), body: qrBody(c.lang, shopLang, customer, card, svg) });
  });

  const showEdit = (ctx: Context, customer: Customer, form: EditForm, status = 200) =>
    sendConsolePage(ctx, deps, consoleOf(ctx), {
      section: 'customers',
      title: tConsole(consoleOf(ctx).lang, 'console.data.editTitle'),
      status,
      body: editBody(consoleOf(ctx), customer, cardOf(customer), form, shopCountry(readOrgSettings(deps.db, customer.orgId))),
    });

  router.get('/console/customers/:passUserId/edit', (ctx) => {
    const customer = page(ctx);
    showEdit(ctx, customer, { name: customer.name ?? '', email: customer.email ?? '', phone: customer.phone ?? '' });
  });

  router.post('/console/customers/:passUserId/edit', (ctx) => {
    const c = consoleOf(ctx);
    const customer = page(ctx);
    const form = consoleForm(ctx);
    const typed = { name: field(form, 'name').slice(0, 1000), email: field(form, 'email').slice(0, 1000), phone: field(form, 'phone').slice(0, 1000) };
    let changed;
    try {
      changed = editCustomerContact(deps, customer, typed, { id: c.admin.id, email: c.admin.email });
    } catch (err) {
      if (!(err instanceof ApiError) || err.status === 404) throw err;
      return showEdit(ctx, customer, { ...typed, errors: editErrors(c.lang, err) }, err.status);
    }
    ctx.status = 303;
    ctx.redirect(`/console/customers/${customer.id}?edited=${changed.length ? 1 : 0}`);
  });

  router.get('/console/customers/:passUserId/data.json', (ctx) => {
    const customer = page(ctx);
    ctx.set('Content-Disposition', `attachment; filename="customer-pu_${customer.id}.json"`);
    ctx.set('Cache-Control', 'no-store');
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.type = 'application/json; charset=utf-8';
    ctx.body = `${JSON.stringify(customerExport(deps, customer), null, 2)}\n`;
  });

  router.get('/console/customers/:passUserId/erase', (ctx) => {
    const customer = page(ctx);
    sendConsolePage(ctx, deps, consoleOf(ctx), { section: 'customers', title: tConsole(consoleOf(ctx).lang, 'console.data.eraseTitle'), body: eraseBody(consoleOf(ctx), customer, cardOf(customer)) });
  });

  router.post('/console/customers/:passUserId/erase', (ctx) => {
    const c = consoleOf(ctx);
    const customer = page(ctx);
    eraseCustomer(deps, customer, { channel: 'console', admin: { id: c.admin.id, email: c.admin.email } });
    ctx.status = 303;
    ctx.redirect(`/console/customers/erased/${customer.id}`);
  });

  router.get('/console/customers/erased/:passUserId', (ctx) => {
    const c = consoleOf(ctx);
    const erased = findCustomerAnywhere(deps, ctx.params.passUserId!.replace(/^pu_/, ''));
    if (!erased || erased.orgId !== c.org.id || erased.erasedAt === null) throw new ApiError(404, 'CUSTOMER_NOT_FOUND', { detail: 'there is no such customer; find them in the customer list' });
    sendConsolePage(ctx, deps, c, { section: 'customers', title: tConsole(c.lang, 'console.data.erasedTitle'), body: erasedBody(c.lang, erased.id) });
  });
}
