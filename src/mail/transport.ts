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

/**
 * What a send that failed because the server offers no TLS says, in the mail's row and the console:
 * nodemailer's own words ("Error upgrading connection with STARTTLS") do not say what to change.
 */
export const NO_TLS_ERROR =
  'the mail server offers no encryption (STARTTLS), so nothing was sent: the password and the email would travel in clear. Use smtps:// or a server with STARTTLS, or add ?tls=off to SMTP_URL to send unencrypted';

/**
 * The SMTP transport of SMTP_URL, loaded at the first email: a server without mail never loads
 * nodemailer. On smtp:// the connection is upgraded with STARTTLS before AUTH (`requireTLS`), unless
 * SMTP_URL says `?tls=off`; smtps:// is TLS from the start.
 */
export function smtpTransport(settings: MailSettings): MailTransport {
  let transporter: Promise<import('nodemailer').Transporter> | undefined;
  const open = () =>
    (transporter ??= import('nodemailer').then((nodemailer) =>
      nodemailer.createTransport(
        { url: settings.smtpUrl, requireTLS: settings.tlsRequired, ...SMTP_TIMEOUTS },
        { from: settings.from, headers: { 'Auto-Submitted': 'auto-generated' } },
      ),
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
        ...(message.headers ? { headers: message.headers } : {}),
      }).catch((err: unknown) => {
        // The server answered STARTTLS with a refusal (a failed handshake has no answer, and keeps
        // its own message). Retried like a server that is down, without the server's 5xx code, so
        // the mail waiting meanwhile goes out once the setting is fixed.
        const { command, response } = err as { command?: string; response?: unknown };
        if (settings.tlsRequired && command === 'STARTTLS' && typeof response === 'string') throw new Error(NO_TLS_ERROR, { cause: err });
        throw err;
      });
    },
    close() {
      void transporter?.then((t) => t.close());
    },
  };
}
