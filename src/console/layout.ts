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

export type Section = 'dashboard' | 'cards' | 'customers' | 'report' | 'watch-list' | 'keys' | 'webhooks' | 'staff' | 'settings';

const NAV: { section: Section; label: string; href: string }[] = [
  { section: 'dashboard', label: 'Dashboard', href: '/console/dashboard' },
  { section: 'cards', label: 'Cards', href: '/console/cards' },
  { section: 'customers', label: 'Customers', href: '/console/customers' },
  { section: 'report', label: 'Report', href: '/console/report' },
  { section: 'watch-list', label: 'Watch list', href: '/console/watch-list' },
  { section: 'keys', label: 'API keys', href: '/console/keys' },
  { section: 'webhooks', label: 'Webhooks', href: '/console/webhooks' },
  { section: 'staff', label: 'Staff', href: '/console/staff' },
  { section: 'settings', label: 'Settings', href: '/console/settings' },
];

/** The hidden field every console form carries (decisions §8 CSRF token). */
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
  <span class="mode-badge${c.livemode ? '' : ' test'}" id="mode-badge">${c.livemode ? 'LIVE DATA' : 'TEST DATA'}</span>
  <button type="submit" class="button">${c.livemode ? 'Switch to test data' : 'Switch to live data'}</button>
</form>`;
}

/** A console page: the org's colours, the sections, the live/test switch, and the page itself. */
export function sendConsolePage(ctx: Context, deps: Pick<AppDeps, 'db' | 'config'>, c: ConsoleContext, page: ConsolePage): void {
  const returnTo = ctx.method === 'GET' ? ctx.url : '/console';
  sendDocument(ctx, {
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
    <form method="post" action="/console/sign-out">${csrfField(c)}<button type="submit" class="button">Sign out</button></form>
  </div>
</header>
<nav class="nav" aria-label="Console sections"><ul>
  ${NAV.map((n) => html`<li><a href="${n.href}"${n.section === page.section ? html` aria-current="page"` : ''}>${n.label}</a></li>`)}
  <li class="nav-help"><a href="/console/help${page.section ? `/${page.section}` : ''}">Help</a></li>
</ul></nav>
${
  c.livemode
    ? ''
    : html`<div class="test-banner" role="note"><p><strong>You are looking at test data.</strong> Test customers come from test API keys and never touch real ones; an org has at most 100, and each is removed 30 days after it was created.</p></div>`
}
${publicAddressBanner(deps.config)}
${backupFailedBanner(backupState(deps))}
<main class="page" id="main" hx-headers="${jsonForScript({ 'X-CSRF-Token': c.csrfToken })}">
${typeof page.body === 'function' ? page.body(nonce) : page.body}
</main>`,
  });
}
