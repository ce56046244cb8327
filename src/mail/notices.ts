import type { Card } from '../cards/model';
import type { Config } from '../config';
import type { Customer } from '../customers/model';
import { installUrl } from '../customers/install-url';
import type { Db } from '../db/connection';
import { fromHundredths } from '../lib/money';
import { expiringFor, expiringText } from '../loyalty/expiring';
import { ledgerRepo } from '../loyalty/repo';
import { orgsRepo } from '../orgs/repo';
import { readOrgSettings } from '../orgs/settings';
import { html } from '../web/html';
import { cardEmail, page, type MailMessage } from './card-email';
import type { MailKind } from './repo';
import { customerPassContent } from '../wallet/customer-content';
import type { Clock } from '../lib/clock';
import { unsubscribedAt, unsubscribeUrl } from './unsubscribe';

// The sweeps' emails: a reminder that units expire soon, and a birthday greeting. Each says what is
// true when it is sent (the amount that expires, the treat given), read from the ledger and the
// lots then; a reminder for units already used or gone is not sent. Each carries the link that
// stops them (unsubscribe.ts), in its footer and as List-Unsubscribe, for the mail program's own
// button; nothing is sent to a customer who followed it, even an email queued before.

type NoticeDeps = { db: Db; clock: Clock; config: Pick<Config, 'installBaseUrl'> };

/** The email a customer's mail row asks for: their card, or one of the sweeps' emails; a string when there is nothing to send. */
export async function customerEmail(deps: NoticeDeps, kind: Exclude<MailKind, 'test'>, customer: Customer, card: Card, to: string): Promise<MailMessage | string> {
  if (kind === 'card') return cardEmail(deps, customer, card, to);
  if (unsubscribedAt(deps.db, customer.id) !== undefined) return 'not sent: the customer unsubscribed from reminder and birthday emails';
  return kind === 'expiry_reminder' ? expiryReminderEmail(deps, customer, card, to) : birthdayEmail(deps, customer, card, to);
}

function notice(deps: NoticeDeps, customer: Customer, card: Card, to: string, subject: string, lines: string[]): MailMessage {
  const shop = orgsRepo(deps.db).findOrg(card.orgId)?.name ?? card.name;
  const link = installUrl(deps.config, customer);
  const content = customerPassContent(deps.db, card, customer);
  const balance = `${content.balance.label}: ${content.balance.text}`;
  const footer = `You receive this email because you are a member of ${shop}'s loyalty card.`;
  const unsubscribe = unsubscribeUrl(deps, customer.id);
  const body = html`<tr><td style="padding:0 0 16px;font-size:15px;color:#5b6270">${shop}</td></tr>
<tr><td style="font-size:16px;line-height:1.5">
  ${lines.map((line) => html`<p style="margin:0 0 12px">${line}</p>`)}
  <p style="margin:0 0 12px;font-weight:600">${balance}</p>
  <p style="margin:16px 0"><a href="${link}" style="display:inline-block;background:#1f4e8c;color:#ffffff;text-decoration:none;font-weight:600;padding:12px 20px;border-radius:8px">Open my card</a></p>
</td></tr>
<tr><td style="padding:16px 0 0;font-size:12px;color:#5b6270;border-top:1px solid #d8dbe0">${footer} No more reminder and birthday emails? <a href="${unsubscribe}" style="color:#5b6270">Unsubscribe</a>.</td></tr>`;
  const text = [...lines, '', balance, '', `Open your card: ${link}`, '', footer, `No more reminder and birthday emails? Unsubscribe: ${unsubscribe}`, ''].join('\n');
  return { to, subject, text, html: page(subject, body), attachments: [], headers: { 'List-Unsubscribe': `<${unsubscribe}>` } };
}

function expiryReminderEmail(deps: NoticeDeps, customer: Customer, card: Card, to: string): MailMessage | string {
  const expiring = expiringFor(deps.db, customer, card);
  if (!expiring || expiring.amount <= 0) return 'not sent: no units are about to expire any more';
  const what = expiringText(card, expiring, readOrgSettings(deps.db, card.orgId).timeZone);
  const shop = orgsRepo(deps.db).findOrg(card.orgId)?.name ?? card.name;
  return notice(deps, customer, card, to, `${shop}: ${what}`, [
    `Hello${customer.name ? ` ${customer.name}` : ''}, ${what.charAt(0).toLowerCase()}${what.slice(1)} on your ${card.name} card.`,
    `Use them at ${shop} before then.`,
  ]);
}

function birthdayEmail(deps: NoticeDeps, customer: Customer, card: Card, to: string): MailMessage | string {
  // The treat as it was given: the customer's newest birthday row.
  const row = ledgerRepo(deps.db).page(customer.id, 20).find((r) => r.kind === 'birthday');
  if (!row) return 'not sent: no birthday treat was given';
  const units = fromHundredths(row.change);
  const word = card.passType === 'stamp_card' ? (units === 1 ? 'stamp' : 'stamps') : units === 1 ? 'point' : 'points';
  const shop = orgsRepo(deps.db).findOrg(card.orgId)?.name ?? card.name;
  return notice(deps, customer, card, to, `Happy birthday from ${shop}!`, [
    `Happy birthday${customer.name ? `, ${customer.name}` : ''}!`,
    `${shop} added ${units} ${word} to your ${card.name} card as a birthday treat.`,
  ]);
}
