import type Router from '@koa/router';
import type { Context } from 'koa';
import type { AppDeps } from '../../deps';
import { ApiError } from '../../lib/errors';
import { MAIL_TLS_OFF_WARNING, mailSetup, queueTestEmail, recentTestEmails, type MailSend } from '../../mail/service';
import { heldBack, SIGNUP_MAIL_PER_CLIENT, type HeldBack } from '../../mail/signup-limits';
import { readOrgSettings } from '../../orgs/settings';
import { formError, inputField } from '../../web/fields';
import { field, formErrorsFrom, type FormErrors } from '../../web/forms';
import { html, type Markup } from '../../web/html';
import { consoleForm, consoleOf, type ConsoleContext } from '../context';
import { formatTime } from '../format';
import { csrfField, sendConsolePage } from '../layout';
import { settingsPage } from './subnav';

// Settings → Email: whether this server sends email (SMTP_URL and MAIL_FROM are the operator's,
// read at start and shown without the password), "Send a test email", which goes through the same
// queue and worker as every other email, its outcome listed below the form, and how many sign-up
// emails the abuse limits held back.

export const EMAIL_SETTINGS_PATH = '/console/settings/email';

interface EmailView {
  to: string;
  errors?: FormErrors;
  queued?: boolean;
  tests: MailSend[];
  timeZone: string;
  heldBack: HeldBack;
}

const emails = (n: number) => `${n} sign-up email${n === 1 ? '' : 's'}`;

/** The sign-up emails the abuse limits held back: how often the form is being misused, if at all. */
function heldBackPanel(held: HeldBack): Markup {
  const { recipient, client } = held.today;
  const why = [
    recipient ? `${recipient} to an address that already had one today` : '',
    client ? `${client} from a network that asked for more than ${SIGNUP_MAIL_PER_CLIENT.limit} in an hour` : '',
  ].filter(Boolean);
  return html`<section class="panel" aria-labelledby="held-heading">
  <h2 id="held-heading">Held back by the abuse limits</h2>
  <p>Anyone can type any email address on your sign-up form. So the card emails asked for there go out at most once a day to the same address, and at most ${SIGNUP_MAIL_PER_CLIENT.limit} an hour from the same network. A customer whose email was held back still sees their card on the screen.</p>
  <dl class="facts" id="held-back">
    <dt>Today</dt><dd>${recipient + client ? `${emails(recipient + client)} held back (${why.join('; ')})` : 'None held back'}</dd>
    <dt>Last 7 days</dt><dd>${held.lastSevenDays ? `${emails(held.lastSevenDays)} held back` : 'None held back'}</dd>
  </dl>
</section>`;
}

function status(send: MailSend, timeZone: string): Markup {
  if (send.status === 'sent') return html`<span class="badge ok">Sent</span>`;
  if (send.status === 'failed') return html`<span class="badge danger">Failed</span> <span class="small">${send.error ?? ''}</span>`;
  return send.attempts === 0
    ? html`<span class="badge">Waiting to be sent</span> <span class="small">reload to see the outcome</span>`
    : html`<span class="badge warn">Retrying</span> <span class="small">${send.error ?? ''}${send.nextAttemptAt ? ` · next try ${formatTime(send.nextAttemptAt, timeZone)}` : ''}</span>`;
}

function emailBody(c: ConsoleContext, deps: Pick<AppDeps, 'config'>, view: EmailView): Markup {
  const setup = mailSetup(deps.config);
  const errors = view.errors ?? { fields: {} };
  const state = setup
    ? html`<p><span class="badge ok">On</span> Customers can be sent their card by email: from the page after they sign up, from their page here and from the counter.</p>
<dl class="facts"><dt>Mail server</dt><dd><code>${setup.server}</code></dd><dt>Sent from</dt><dd><code>${setup.from}</code></dd><dt>Encryption</dt><dd>${setup.tls === 'required' ? 'Required' : html`<span class="badge warn">Not required</span>`}</dd></dl>
${setup.tls === 'off' ? html`<div class="notice warn" role="alert"><p><strong>Email may travel unencrypted.</strong> ${MAIL_TLS_OFF_WARNING}. Whoever runs the server should use <code>smtps://</code> or a mail server with STARTTLS and remove <code>?tls=off</code>.</p></div>` : ''}`
    : html`<p><span class="badge warn">Off</span> This server sends no email. The server operator sets <code>SMTP_URL</code> (such as <code>smtps://user:password@smtp.example.com:465</code>) and <code>MAIL_FROM</code> and restarts the server (README, "Email"). Until then the email buttons are not shown.</p>`;
  const tests = view.tests.length
    ? html`<div class="table-wrap"><table class="stacked"><caption>Recent test emails</caption>
<thead><tr><th scope="col">Time</th><th scope="col">To</th><th scope="col">Status</th></tr></thead>
<tbody>${view.tests.map((t) => html`<tr><td data-label="Time" class="nowrap">${formatTime(t.createdAt, view.timeZone)}</td><td data-label="To">${t.recipient ?? ''}</td><td data-label="Status">${status(t, view.timeZone)}</td></tr>`)}</tbody></table></div>`
    : '';
  return settingsPage(EMAIL_SETTINGS_PATH, html`<section class="panel" aria-labelledby="email-heading">
  <h2 id="email-heading">Email</h2>
  ${state}
  <p class="muted small">Only emails a customer or your staff ask for are sent: a customer's own card. Never newsletters or offers.</p>
</section>
${
  setup
    ? html`<section class="panel" aria-labelledby="test-heading">
  <h2 id="test-heading">Send a test email</h2>
  ${view.queued ? html`<div class="notice ok" role="status"><p>The test email is on its way. Its outcome shows below: reload the page in a moment.</p></div>` : ''}
  ${formError(errors.form)}
  <form method="post" action="${EMAIL_SETTINGS_PATH}/test" class="form" novalidate>
    ${csrfField(c)}
    ${inputField({ name: 'to', label: 'Send to', type: 'email', value: view.to, error: errors.fields.to, required: true, maxlength: 254, autocomplete: 'email' })}
    <div class="actions"><button type="submit">Send a test email</button></div>
  </form>
  ${tests}
</section>
${heldBackPanel(view.heldBack)}`
    : ''
}`);
}

export function bindEmailSettings(router: Router, deps: AppDeps): void {
  const show = (ctx: Context, view: Omit<EmailView, 'tests' | 'timeZone' | 'heldBack'>, status = 200) => {
    const c = consoleOf(ctx);
    const full: EmailView = { ...view, tests: recentTestEmails(deps, c.namespace), timeZone: readOrgSettings(deps.db, c.org.id).timeZone, heldBack: heldBack(deps, c.namespace) };
    sendConsolePage(ctx, deps, c, { section: 'settings', title: 'Email settings', status, body: emailBody(c, deps, full) });
  };

  router.get(EMAIL_SETTINGS_PATH, (ctx) => show(ctx, { to: consoleOf(ctx).admin.email, queued: ctx.query.queued === '1' }));

  router.post(`${EMAIL_SETTINGS_PATH}/test`, (ctx) => {
    const c = consoleOf(ctx);
    const to = field(consoleForm(ctx), 'to').trim().slice(0, 254);
    try {
      queueTestEmail(deps, c.namespace, to);
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      return show(ctx, { to, errors: formErrorsFrom(err, ['to']) }, err.status);
    }
    ctx.status = 303;
    ctx.redirect(`${EMAIL_SETTINGS_PATH}?queued=1`);
  });
}
