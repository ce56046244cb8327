import type { ConsoleLang } from '../../i18n/langs';
import { tConsole, type ConsoleKey } from '../../i18n/translate';
import { html, type Markup } from '../../web/html';

/**
 * The pages under Settings, in the order the owner sees them. A feature with a settings page of
 * its own adds one entry here (its label a console catalogue key) and renders its panels through
 * settingsPage.
 */
export const SETTINGS_PAGES: readonly { href: string; label: ConsoleKey }[] = [
  { href: '/console/settings', label: 'console.settingsNav.shop' },
  { href: '/console/settings/locations', label: 'console.settingsNav.locations' },
  { href: '/console/settings/admins', label: 'console.settingsNav.admins' },
  { href: '/console/settings/backups', label: 'console.settingsNav.backups' },
  { href: '/console/settings/email', label: 'console.settingsNav.email' },
  { href: '/console/settings/account', label: 'console.account.title' },
];

/** Links to every settings page, the current one marked (aria-current). */
function settingsSubnav(currentHref: string, lang: ConsoleLang): Markup {
  return html`<nav class="subnav" aria-label="${tConsole(lang, 'console.settingsNav.label')}"><ul>
  ${SETTINGS_PAGES.map((p) => html`<li><a href="${p.href}"${p.href === currentHref ? html` aria-current="page"` : ''}>${tConsole(lang, p.label)}</a></li>`)}
</ul></nav>`;
}

/** A page under Settings, in the admin's language: the heading, the links to every settings page, then its own panels. */
export function settingsPage(currentHref: string, body: Markup, lang: ConsoleLang = 'en'): Markup {
  return html`<div class="settings"><div class="page-head"><h1>${tConsole(lang, 'console.nav.settings')}</h1></div>
${settingsSubnav(currentHref, lang)}
${body}</div>`;
}
