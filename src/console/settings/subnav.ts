import { html, type Markup } from '../../web/html';

/**
 * The pages under Settings, in the order the owner sees them. A feature with a settings page of
 * its own adds one entry here and renders settingsSubnav at the top of that page.
 */
export const SETTINGS_PAGES: readonly { href: string; label: string }[] = [
  { href: '/console/settings', label: 'Shop and passes' },
  { href: '/console/settings/admins', label: 'Admins' },
  { href: '/console/settings/backups', label: 'Backups' },
  { href: '/console/settings/email', label: 'Email' },
];

/** Links to every settings page, the current one marked (aria-current). */
export function settingsSubnav(currentHref: string): Markup {
  return html`<nav class="subnav" aria-label="Settings pages"><ul>
  ${SETTINGS_PAGES.map((p) => html`<li><a href="${p.href}"${p.href === currentHref ? html` aria-current="page"` : ''}>${p.label}</a></li>`)}
</ul></nav>`;
}
