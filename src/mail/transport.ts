import type { MailSettings } from '../config';
import type { MailMessage } from './card-email';

// nodemailer speaks SMTP (TLS, STARTTLS, AUTH, MIME); this file only bounds how long it may take.

export interface MailTransport {
  /** Resolves once the server accepted the message; rejects with the server's or the network's reason. */
  send(message: MailMessage, signal?: AbortSignal): Promise<void>;
  close(): void;
}

/**
 * How long one email may take, in parts: nodemailer's own defaults wait up to 2 minutes for a
 * connection and 10 for an idle socket. A mail server slower than this is retried later.
 */
export const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 } as const;

/** The SMTP transport of SMTP_URL, loaded at the first email: a server without mail never loads nodemailer. */
export function smtpTransport(settings: MailSettings): MailTransport {
  let transporter: Promise<import('nodemailer').Transporter> | undefined;
  const open = () =>
    (transporter ??= import('nodemailer').then((nodemailer) =>
      nodemailer.createTransport({ url: settings.smtpUrl, ...SMTP_TIMEOUTS }, { from: settings.from, headers: { 'Auto-Submitted': 'auto-generated' } }),
    ));
  return {
    async send(message, signal) {
      await (await open()).sendMail({
        ...(signal ? { signal } : {}),
        to: message.to,
        subject: message.subject,
        text: message.text,
        html: message.html,
        attachments: message.attachments.map((a) => ({ filename: a.filename, content: a.content, contentType: a.contentType, cid: a.cid, contentDisposition: 'inline' as const })),
      });
    },
    close() {
      void transporter?.then((t) => t.close());
    },
  };
}
