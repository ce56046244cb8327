import { html, type Markup } from '../../web/html';

/**
 * The pages under Settings, in the order the owner sees them. A feature with a settings page of
 * its own adds one entry here and renders its panels through settingsPage.
 */
export const SETTINGS_PAGES: readonly { href: string; label: string }[] = [
  { href: '/console/settings', label: 'Shop and passes' },
  { href: '/console/settings/admins', label: 'Admins' },
  { href: '/console/settings/backups', label: 'Backups' },
  { href: '/console/settings/email', label: 'Email' },
  { href: '/console/settings/account', label: 'Account' },
];

/** Links to every settings page, the current one marked (aria-current). */
function settingsSubnav(currentHref: string): Markup {
  return html`<nav class="subnav" aria-label="Settings pages"><ul>
  ${SETTINGS_PAGES.map((p) => html`<li><a href="${p.href}"${p.href === currentHref ? html` aria-current="page"` : ''}>${p.label}</a></li>`)}
</ul></nav>`;
}

/** A page under Settings: the heading, the links to every settings page, then its own panels. */
export function settingsPage(currentHref: string, body: Markup): Markup {
  return html`<div class="settings"><div class="page-head"><h1>Settings</h1></div>
${settingsSubnav(currentHref)}
${body}</div>`;
}
