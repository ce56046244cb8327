import type Router from '@koa/router';
import type { Context } from 'koa';
import type { AppDeps } from '../../deps';
import { ApiError } from '../../lib/errors';
import { MAIL_TLS_OFF_WARNING, mailSetup, queueTestEmail, recentTestEmails, type MailSend } from '../../mail/service';
import { heldBack, SIGNUP_MAIL_PER_CLIENT, type HeldBack } from '../../mail/signup-limits';
import { readOrgSettings } from '../../orgs/settings';
import { formError, inputField } from '../../web/fields';
import { field, type FormErrors } from '../../web/forms';
import { html, type Markup } from '../../web/html';
import { consoleForm, consoleOf, type ConsoleContext } from '../context';
import { formatTime } from '../format';
import { csrfField, sendConsolePage } from '../layout';
import { settingsPage } from './subnav';
import type { ConsoleLang } from '../../i18n/langs';
import { tConsole, type ConsoleKey, type MessageParams } from '../../i18n/translate';
import { sayMarkup } from '../say';
import { consoleFormErrors } from '../refusals';

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

/** The sign-up emails the abuse limits held back: how often the form is being misused, if at all. */
function heldBackPanel(held: HeldBack, lang: ConsoleLang): Markup {
  const say = (key: ConsoleKey, params?: MessageParams) => tConsole(lang, key, params);
  const { recipient, client } = held.today;
  const limit = SIGNUP_MAIL_PER_CLIENT.limit;
  const why = [recipient ? say('console.email.heldRecipient', { n: recipient }) : '', client ? say('console.email.heldClient', { n: client, limit }) : ''].filter(Boolean);
  return html`<section class="panel" aria-labelledby="held-heading">
  <h2 id="held-heading">${say('console.email.heldTitle')}</h2>
  <p>${say('console.email.heldIntro', { limit })}</p>
  <dl class="facts" id="held-back">
    <dt>${say('console.email.today')}</dt><dd>${recipient + client ? say('console.email.heldToday', { n: recipient + client, why: why.join('; ') }) : say('console.email.noneHeld')}</dd>
    <dt>${say('console.email.lastSevenDays')}</dt><dd>${held.lastSevenDays ? say('console.email.heldWeek', { n: held.lastSevenDays }) : say('console.email.noneHeld')}</dd>
  </dl>
</section>`;
}

function status(send: MailSend, timeZone: string, lang: ConsoleLang): Markup {
  const say = (key: ConsoleKey, params?: MessageParams) => tConsole(lang, key, params);
  if (send.status === 'sent') return html`<span class="badge ok">${say('console.email.sent')}</span>`;
  if (send.status === 'failed') return html`<span class="badge danger">${say('console.email.failed')}</span> <span class="small">${send.error ?? ''}</span>`;
  return send.attempts === 0
    ? html`<span class="badge">${say('console.email.waiting')}</span> <span class="small">${say('console.email.reload')}</span>`
    : html`<span class="badge warn">${say('console.email.retrying')}</span> <span class="small">${send.error ?? ''}${
        send.nextAttemptAt ? ` · ${say('console.email.nextTry', { time: formatTime(send.nextAttemptAt, timeZone, lang) })}` : ''
      }</span>`;
}

function emailBody(c: ConsoleContext, deps: Pick<AppDeps, 'config'>, view: EmailView): Markup {
  const lang = c.lang;
  const say = (key: ConsoleKey, params?: MessageParams) => tConsole(lang, key, params);
  const code = (text: string) => html`<code>${text}</code>`;
  const setup = mailSetup(deps.config);
  const errors = view.errors ?? { fields: {} };
  const state = setup
    ? html`<p><span class="badge ok">${say('console.settings.on')}</span> ${say('console.email.on')}</p>
<dl class="facts"><dt>${say('console.email.server')}</dt><dd><code>${setup.server}</code></dd><dt>${say('console.email.from')}</dt><dd><code>${setup.from}</code></dd><dt>${say('console.email.encryption')}</dt><dd>${
        setup.tls === 'required' ? say('console.email.required') : html`<span class="badge warn">${say('console.email.notRequired')}</span>`
      }</dd></dl>
${
  setup.tls === 'off'
    ? html`<div class="notice warn" role="alert"><p><strong>${say('console.email.unencryptedTitle')}</strong> ${lang === 'en' ? MAIL_TLS_OFF_WARNING : say('console.email.tlsOff')}. ${sayMarkup(lang, 'console.email.unencrypted', { smtps: code('smtps://'), tlsOff: code('?tls=off') })}</p></div>`
    : ''
}`
    : html`<p><span class="badge warn">${say('console.settings.off')}</span> ${sayMarkup(lang, 'console.email.off', {
        smtpUrl: code('SMTP_URL'),
        example: code('smtps://user:password@smtp.example.com:465'),
        mailFrom: code('MAIL_FROM'),
      })}</p>`;
  const tests = view.tests.length
    ? html`<div class="table-wrap"><table class="stacked"><caption>${say('console.email.recentTests')}</caption>
<thead><tr><th scope="col">${say('console.email.time')}</th><th scope="col">${say('console.email.to')}</th><th scope="col">${say('console.email.status')}</th></tr></thead>
<tbody>${view.tests.map(
        (t) =>
          html`<tr><td data-label="${say('console.email.time')}" class="nowrap">${formatTime(t.createdAt, view.timeZone, lang)}</td><td data-label="${say('console.email.to')}">${t.recipient ?? ''}</td><td data-label="${say('console.email.status')}">${status(t, view.timeZone, lang)}</td></tr>`,
      )}</tbody></table></div>`
    : '';
  return settingsPage(
    EMAIL_SETTINGS_PATH,
    html`<section class="panel" aria-labelledby="email-heading">
  <h2 id="email-heading">${say('console.settingsNav.email')}</h2>
  ${state}
  <p class="muted small">${say('console.email.onlyAsked')}</p>
</section>
${
  setup
    ? html`<section class="panel" aria-labelledby="test-heading">
  <h2 id="test-heading">${say('console.email.sendTest')}</h2>
  ${view.queued ? html`<div class="notice ok" role="status"><p>${say('console.email.queued')}</p></div>` : ''}
  ${formError(errors.form)}
  <form method="post" action="${EMAIL_SETTINGS_PATH}/test" class="form" novalidate>
    ${csrfField(c)}
    ${inputField({ name: 'to', label: say('console.email.sendTo'), type: 'email', value: view.to, error: errors.fields.to, required: true, maxlength: 254, autocomplete: 'email' })}
    <div class="actions"><button type="submit">${say('console.email.sendTest')}</button></div>
  </form>
  ${tests}
</section>
${heldBackPanel(view.heldBack, lang)}`
    : ''
}`,
    lang,
  );
}

export function bindEmailSettings(router: Router, deps: AppDeps): void {
  const show = (ctx: Context, view: Omit<EmailView, 'tests' | 'timeZone' | 'heldBack'>, status = 200) => {
    const c = consoleOf(ctx);
    const full: EmailView = { ...view, tests: recentTestEmails(deps, c.namespace), timeZone: readOrgSettings(deps.db, c.org.id).timeZone, heldBack: heldBack(deps, c.namespace) };
    sendConsolePage(ctx, deps, c, { section: 'settings', title: tConsole(c.lang, 'console.email.pageTitle'), status, body: emailBody(c, deps, full) });
  };

  router.get(EMAIL_SETTINGS_PATH, (ctx) => show(ctx, { to: consoleOf(ctx).admin.email, queued: ctx.query.queued === '1' }));

  router.post(`${EMAIL_SETTINGS_PATH}/test`, (ctx) => {
    const c = consoleOf(ctx);
    const to = field(consoleForm(ctx), 'to').trim().slice(0, 254);
    try {
      queueTestEmail(deps, c.namespace, to);
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      return show(ctx, { to, errors: consoleFormErrors(c.lang, err, ['to']) }, err.status);
    }
    ctx.status = 303;
    ctx.redirect(`${EMAIL_SETTINGS_PATH}?queued=1`);
  });
}
