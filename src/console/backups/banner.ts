import type { Config } from '../../config';
import { backupIsStale, type BackupState } from '../../backups/state';
import type { ConsoleLang } from '../../i18n/langs';
import { tConsole } from '../../i18n/translate';
import { html, type Markup } from '../../web/html';
import { sayMarkup } from '../say';
import { when } from '../widgets';

/** On every console page while the last backup failed: the owner sees it without looking for it. */
export function backupFailedBanner(state: Pick<BackupState, 'lastError'>, lang: ConsoleLang = 'en'): Markup {
  if (!state.lastError) return html``;
  const link = html`<a href="/console/settings/backups">${tConsole(lang, 'console.backup.seeBackups')}</a>`;
  return html`<div class="test-banner" role="alert"><p><strong>${tConsole(lang, 'console.backup.failedTitle')}</strong> ${sayMarkup(lang, 'console.backup.failed', { link })}</p></div>`;
}

/**
 * On the dashboard: no backup in the folder newer than 48 hours, and no copy off this computer.
 * Both are true of a shop that has never looked at its backups, and both lose the shop's data on
 * the day its disk dies.
 */
export function backupNotices(state: BackupState, config: Pick<Config, 'backups' | 'replication'>, now: number, timeZone: string, lang: ConsoleLang = 'en'): Markup {
  const say = (key: Parameters<typeof tConsole>[1]) => tConsole(lang, key);
  const stale = backupIsStale(state, now)
    ? html`<div class="notice warn" role="alert"><p><strong>${say('console.backup.staleTitle')}</strong> ${
        state.newest ? sayMarkup(lang, 'console.backup.newestFrom', { when: when(state.newest.at, timeZone, {}, lang) }) : say('console.backup.noneInFolder')
      } ${config.backups.hour === null ? html`${sayMarkup(lang, 'console.backup.dailyOff', { setting: html`<code>BACKUP_HOUR=off</code>` })} ` : ''}<a href="/console/settings/backups">${say('console.backup.backUpNow')}</a>.</p></div>`
    : '';
  const offSite =
    config.replication === null
      ? html`<div class="notice warn" role="note"><p><strong>${say('console.backup.offSiteTitle')}</strong> ${sayMarkup(lang, 'console.backup.offSite', { setting: html`<code>REPLICATION=litestream</code>` })}</p></div>`
      : '';
  return html`${stale}${offSite}`;
}
