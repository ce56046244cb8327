import type { Card } from '../cards/model';
import type { Config } from '../config';
import type { Customer } from '../customers/model';
import { installUrl } from '../customers/install-url';
import type { Db } from '../db/connection';
import { formatDate, formatUnits, unitKind } from '../i18n/format';
import { t } from '../i18n/translate';
import { expiringFor, expiringText } from '../loyalty/expiring';
import { ledgerRepo } from '../loyalty/repo';
import { readOrgSettings } from '../orgs/settings';
import { html } from '../web/html';
import { cardEmail, greetingOf, page, type MailMessage } from './card-email';
import type { MailKind } from './repo';
import { customerPassContent } from '../wallet/customer-content';
import type { Clock } from '../lib/clock';
import type { PassContent } from '../wallet/pass-content';
import { unsubscribedAt, unsubscribeUrl } from './unsubscribe';

// The sweeps' emails: a reminder that units expire soon, and a birthday greeting. Each says what is
// true when it is sent (the amount that expires, the treat given), read from the ledger and the
// lots then; a reminder for units already used or gone is not sent. Like the card email, each is
// in the customer's language, its dates in the shop's time zone. Each carries the link that
// stops them (unsubscribe.ts), in its footer and as List-Unsubscribe, for the mail program's own
// button; nothing is sent to a customer who followed it, even an email queued before.

type NoticeDeps = { db: Db; clock: Clock; config: Pick<Config, 'installBaseUrl'> };

/** The email a customer's mail row asks for: their card, or one of the sweeps' emails; a string when there is nothing to send. */
export async function customerEmail(deps: NoticeDeps, kind: Exclude<MailKind, 'test'>, customer: Customer, card: Card, to: string): Promise<MailMessage | string> {
  if (kind === 'card') return cardEmail(deps, customer, card, to);
  if (unsubscribedAt(deps.db, customer.id) !== undefined) return 'not sent: the customer unsubscribed from reminder and birthday emails';
  return kind === 'expiry_reminder' ? expiryReminderEmail(deps, customer, card, to) : birthdayEmail(deps, customer, card, to);
}

function notice(deps: NoticeDeps, customer: Customer, content: PassContent, to: string, subject: string, lines: string[]): MailMessage {
  const { lang, organizationName: shop } = content;
  const link = installUrl(deps.config, customer);
  const balance = t(lang, 'common.labelValue', { label: content.balance.label, value: content.balance.text });
  const footer = t(lang, 'email.notice.footer', { shop });
  const unsubscribe = unsubscribeUrl(deps, customer.id);
  const stop = t(lang, 'email.notice.unsubscribe');
  const stopLink = t(lang, 'email.notice.unsubscribe.link');
  const body = html`<tr><td style="padding:0 0 16px;font-size:15px;color:#5b6270">${shop}</td></tr>
<tr><td style="font-size:16px;line-height:1.5">
  ${lines.map((line) => html`<p style="margin:0 0 12px">${line}</p>`)}
  <p style="margin:0 0 12px;font-weight:600">${balance}</p>
  <p style="margin:16px 0"><a href="${link}" style="display:inline-block;background:#1f4e8c;color:#ffffff;text-decoration:none;font-weight:600;padding:12px 20px;border-radius:8px">${t(lang, 'email.notice.button')}</a></p>
</td></tr>
<tr><td style="padding:16px 0 0;font-size:12px;color:#5b6270;border-top:1px solid #d8dbe0">${footer} ${stop} <a href="${unsubscribe}" style="color:#5b6270">${stopLink}</a></td></tr>`;
  const text = [...lines, '', balance, '', t(lang, 'email.notice.link', { link }), '', footer, `${stop} ${t(lang, 'common.labelValue', { label: stopLink, value: unsubscribe })}`, ''].join('\n');
  return { to, subject, text, html: page(lang, subject, body), attachments: [], headers: { 'List-Unsubscribe': `<${unsubscribe}>` } };
}

function expiryReminderEmail(deps: NoticeDeps, customer: Customer, card: Card, to: string): MailMessage | string {
  const expiring = expiringFor(deps.db, customer, card);
  if (!expiring || expiring.amount <= 0) return 'not sent: no units are about to expire any more';
  const content = customerPassContent(deps.db, card, customer);
  const { lang, organizationName: shop } = content;
  const timeZone = readOrgSettings(deps.db, card.orgId).timeZone;
  const kind = unitKind(card.passType);
  const date = formatDate(lang, timeZone, expiring.at, 'dayMonthLong');
  return notice(deps, customer, content, to, t(lang, 'email.expiry.subject', { shop, expiring: expiringText(lang, card, expiring, timeZone, 'dayMonthLong') }), [
    greetingOf(lang, customer),
    t(lang, 'email.expiry.body', { kind, count: expiring.amount / 100, card: card.name, date }),
    t(lang, 'email.expiry.useThem', { kind, shop }),
  ]);
}

function birthdayEmail(deps: NoticeDeps, customer: Customer, card: Card, to: string): MailMessage | string {
  // The treat as it was given: the customer's newest birthday row.
  const row = ledgerRepo(deps.db).page(customer.id, 20).find((r) => r.kind === 'birthday');
  if (!row) return 'not sent: no birthday treat was given';
  const content = customerPassContent(deps.db, card, customer);
  const { lang, organizationName: shop } = content;
  return notice(deps, customer, content, to, t(lang, 'email.birthday.subject', { shop }), [
    customer.name ? t(lang, 'email.birthday.headingName', { name: customer.name }) : t(lang, 'email.birthday.heading'),
    t(lang, 'email.birthday.body', { shop, units: formatUnits(lang, card, row.change), card: card.name }),
    t(lang, 'email.birthday.closing'),
  ]);
}

