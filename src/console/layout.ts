import type { Context } from 'koa';
import type { AppDeps } from '../deps';
import { html, jsonForScript, type Markup } from '../web/html';
import { sendDocument, type DocumentOptions } from '../web/page';
import { orgAccent } from '../cards/face';
import { themeCss } from '../web/theme';
import { CSRF_FIELD } from '../web/csrf';
import type { ConsoleContext } from './context';
import { publicAddressBanner } from './public-address';
import { backupFailedBanner } from './backups/banner';
import { backupState } from '../backups/state';
import { TEST_CUSTOMER_LIMIT } from '../customers/test-mode';
import { tConsole, type ConsoleKey } from '../i18n/translate';

export type Section = 'dashboard' | 'cards' | 'customers' | 'messages' | 'report' | 'watch-list' | 'keys' | 'webhooks' | 'staff' | 'settings';

const NAV: { section: Section; label: ConsoleKey; href: string }[] = [
  { section: 'dashboard', label: 'console.nav.dashboard', href: '/console/dashboard' },
  { section: 'cards', label: 'console.nav.cards', href: '/console/cards' },
  { section: 'customers', label: 'console.nav.customers', href: '/console/customers' },
  { section: 'messages', label: 'console.nav.messages', href: '/console/messages' },
  { section: 'report', label: 'console.nav.report', href: '/console/report' },
  { section: 'watch-list', label: 'console.nav.watchList', href: '/console/watch-list' },
  { section: 'keys', label: 'console.nav.keys', href: '/console/keys' },
  { section: 'webhooks', label: 'console.nav.webhooks', href: '/console/webhooks' },
  { section: 'staff', label: 'console.nav.staff', href: '/console/staff' },
  { section: 'settings', label: 'console.nav.settings', href: '/console/settings' },
];

/** The hidden field every console form carries: its session's CSRF token, checked with the Origin on every write. */
export function csrfField(c: ConsoleContext): Markup {
  return html`<input type="hidden" name="${CSRF_FIELD}" value="${c.csrfToken}">`;
}

export interface ConsolePage {
  section: Section | null;
  title: string;
  body: Markup | ((nonce: string) => Markup);
  status?: number;
  scripts?: DocumentOptions['scripts'];
  csp?: DocumentOptions['csp'];
}

function modeSwitch(c: ConsoleContext, returnTo: string): Markup {
  const target = c.livemode ? 'test' : 'live';
  return html`<form method="post" action="/console/mode" class="row">
  ${csrfField(c)}<input type="hidden" name="mode" value="${target}"><input type="hidden" name="returnTo" value="${returnTo}">
  <span class="mode-badge${c.livemode ? '' : ' test'}" id="mode-badge">${tConsole(c.lang, c.livemode ? 'console.layout.liveBadge' : 'console.layout.testBadge')}</span>
  <button type="submit" class="button">${tConsole(c.lang, c.livemode ? 'console.layout.toTest' : 'console.layout.toLive')}</button>
</form>`;
}

/** A console page: the org's colours, the sections, the live/test switch, and the page itself. */
export function sendConsolePage(ctx: Context, deps: Pick<AppDeps, 'db' | 'config'>, c: ConsoleContext, page: ConsolePage): void {
  const returnTo = ctx.method === 'GET' ? ctx.url : '/console';
  const say = (key: ConsoleKey) => tConsole(c.lang, key);
  sendDocument(ctx, {
    lang: c.lang,
    title: `${page.title} · ${c.org.name}`,
    status: page.status,
    css: themeCss(orgAccent(deps.db, c.org.id)),
    // console.js on every page: each of its modules enhances only pages that have its elements.
    scripts: ['htmx.js', 'console.js', ...(page.scripts ?? []).filter((s) => s !== 'htmx.js' && s !== 'console.js')],
    csp: page.csp,
    body: (nonce) => html`<header class="topbar">
  <div class="topbar-inner">
    <a class="brand" href="/console">${c.org.name}</a>
    ${modeSwitch(c, returnTo)}
    <form method="post" action="/console/sign-out">${csrfField(c)}<button type="submit" class="button">${say('console.layout.signOut')}</button></form>
  </div>
</header>
<nav class="nav" aria-label="${say('console.nav.label')}"><ul>
  ${NAV.map((n) => html`<li><a href="${n.href}"${n.section === page.section ? html` aria-current="page"` : ''}>${say(n.label)}</a></li>`)}
  <li class="nav-help"><a href="/console/help${page.section ? `/${page.section}` : ''}">${say('console.nav.help')}</a></li>
</ul></nav>
${
  c.livemode
    ? ''
    : html`<div class="test-banner" role="note"><p><strong>${say('console.layout.testBannerTitle')}</strong> ${tConsole(c.lang, 'console.layout.testBanner', { limit: TEST_CUSTOMER_LIMIT, days: 30 })}</p></div>`
}
${publicAddressBanner(deps.config, c.lang)}
${backupFailedBanner(backupState(deps), c.lang)}
<main class="page" id="main" hx-headers="${jsonForScript({ 'X-CSRF-Token': c.csrfToken })}">
${typeof page.body === 'function' ? page.body(nonce) : page.body}
</main>`,
  });
}
