import QRCode from 'qrcode';
import type { Card } from '../cards/model';
import { cardsRepo } from '../cards/repo';
import type { Config } from '../config';
import type { Customer } from '../customers/model';
import { installUrl } from '../customers/install-url';
import type { Db } from '../db/connection';
import type { Lang } from '../i18n/langs';
import { t } from '../i18n/translate';
import type { Rgb } from '../lib/colors';
import { cardColors, rewardLine } from '../cards/face';
import { webLogoPng } from '../wallet/logo-images';
import { html, type Markup } from '../web/html';
import { customerPassContent } from '../wallet/customer-content';

// The emails themselves: the customer's card (the shop's name, colours and logo, the balance, the
// install link as a button and as a QR code to scan from another screen) with a plain-text part,
// and the console's test email. Images travel as inline attachments (cid:), which mail programs
// show without fetching anything from this server. A customer's email is in their language (the
// one their pass is in), from the catalogues.

export interface MailAttachment {
  filename: string;
  content: Buffer;
  contentType: string;
  cid: string;
}

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  attachments: MailAttachment[];
  /** More header fields (List-Unsubscribe on the sweeps' emails). */
  headers?: Record<string, string>;
}

const css = ([r, g, b]: Rgb) => `rgb(${r},${g},${b})`;

/** The frame every email of ours shares: a centred column on a light background. */
export function page(lang: Lang, title: string, body: Markup): string {
  return html`<!doctype html>
<html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title></head>
<body style="margin:0;padding:0;background:#f2f3f5;font-family:system-ui,-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;color:#1d2127">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f2f3f5"><tr><td align="center" style="padding:24px 12px">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:480px">
${body}
</table>
</td></tr></table>
</body></html>`.value;
}

/** The card email for `customer`, whose address is `to`. */
export async function cardEmail(deps: { db: Db; config: Pick<Config, 'installBaseUrl'> }, customer: Customer, card: Card, to: string): Promise<MailMessage> {
  const link = installUrl(deps.config, customer);
  const content = customerPassContent(deps.db, card, customer);
  const { lang, organizationName: shop } = content;
  const colors = cardColors(deps.db, card);
  const logo = cardsRepo(deps.db).logoOf(card.id);
  const reward = rewardLine(card, lang);
  const greeting = greetingOf(lang, customer);
  const attachments: MailAttachment[] = [
    { filename: 'card-qr.png', content: await QRCode.toBuffer(link, { type: 'png', errorCorrectionLevel: 'M', margin: 2, width: 240 }), contentType: 'image/png', cid: 'card-qr' },
  ];
  if (logo) attachments.push({ filename: 'logo.png', content: webLogoPng(logo), contentType: 'image/png', cid: 'shop-logo' });

  // The shop's own words only: anyone can type anything as a name on the sign-up form and have the
  // card sent to any address, and the subject is what a recipient reads before opening the email.
  const subject = t(lang, 'email.card.subject', { card: content.title, shop });
  const button = css(colors.accent);
  const body = html`<tr><td style="padding:0 0 16px;font-size:15px;color:#5b6270">${shop}</td></tr>
<tr><td style="background:${css(colors.background)};color:${colors.text};border-radius:16px;padding:20px">
  ${logo ? html`<img src="cid:shop-logo" alt="${shop}" style="max-height:48px;max-width:200px;display:block;margin:0 0 12px">` : ''}
  <div style="font-size:22px;font-weight:700;margin:0 0 8px">${content.title}</div>
  <div style="font-size:13px;text-transform:uppercase;letter-spacing:.05em;opacity:.8">${content.balance.label}</div>
  <div style="font-size:34px;font-weight:700;line-height:1.2">${content.balance.text}</div>
  ${content.details.map((d) => html`<div style="font-size:14px;margin-top:6px">${t(lang, 'common.labelValue', { label: d.label, value: d.value })}</div>`)}
</td></tr>
<tr><td style="padding:20px 0 8px;font-size:16px;line-height:1.5">
  <p style="margin:0 0 12px">${greeting}</p>
  <p style="margin:0 0 12px">${t(lang, 'email.card.intro')}${reward ? html` ${reward}.` : ''}</p>
  <p style="margin:16px 0;text-align:center"><a href="${link}" style="display:inline-block;background:${button};color:#ffffff;text-decoration:none;font-weight:600;padding:12px 20px;border-radius:8px">${t(lang, 'email.card.button')}</a></p>
  <p style="margin:0;text-align:center"><img src="cid:card-qr" width="200" height="200" alt="${t(lang, 'email.card.qrAlt')}"></p>
  <p style="margin:12px 0 0;font-size:13px;color:#5b6270;word-break:break-all">${t(lang, 'email.card.orLink')} <a href="${link}" style="color:#5b6270">${link}</a></p>
</td></tr>
<tr><td style="padding:16px 0 0;font-size:12px;color:#5b6270;border-top:1px solid #d8dbe0">${t(lang, 'email.card.footer', { shop })}</td></tr>`;

  const text = [
    t(lang, 'email.card.title', { shop, card: content.title }),
    '',
    greeting,
    t(lang, 'email.card.introText'),
    link,
    '',
    t(lang, 'common.labelValue', { label: content.balance.label, value: content.balance.text }),
    ...content.details.map((d) => t(lang, 'common.labelValue', { label: d.label, value: d.value })),
    ...(reward ? [`${reward}.`] : []),
    '',
    t(lang, 'email.card.footer', { shop }),
    '',
  ].join('\n');
  return { to, subject, text, html: page(lang, subject, body), attachments };
}

/** "Hello Anna," — or without a name, "Hello,": the first line of every email to a customer. */
export function greetingOf(lang: Lang, customer: Pick<Customer, 'name'>): string {
  return customer.name ? t(lang, 'email.greeting', { name: customer.name }) : t(lang, 'email.greeting.noName');
}

/** The console's "Send a test email": proves the settings without a customer. */
export function testEmail(shop: string, to: string): MailMessage {
  const subject = `Test email from ${shop}`;
  const text = `This is a test email from Wallet Loyalty for ${shop}. Your mail settings work: customers can be sent their cards.\n`;
  const body = html`<tr><td style="font-size:16px;line-height:1.5"><p>This is a test email from Wallet Loyalty for <strong>${shop}</strong>.</p><p>Your mail settings work: customers can be sent their cards.</p></td></tr>`;
  // Read by the shop's staff member who sent it from the console, not by a customer.
  return { to, subject, text, html: page('en', subject, body), attachments: [] };
}
