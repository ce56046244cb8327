import type { Config } from '../../config';
import { backupIsStale, type BackupState } from '../../backups/state';
import { html, type Markup } from '../../web/html';
import { when } from '../widgets';

/** On every console page while the last backup failed: the owner sees it without looking for it. */
export function backupFailedBanner(state: Pick<BackupState, 'lastError'>): Markup {
  if (!state.lastError) return html``;
  return html`<div class="test-banner" role="alert"><p><strong>The last backup failed.</strong> The shop keeps working; <a href="/console/settings/backups">see Backups</a>.</p></div>`;
}

/**
 * On the dashboard: no backup in the folder newer than 48 hours, and no copy off this computer.
 * Both are true of a shop that has never looked at its backups, and both lose the shop's data on
 * the day its disk dies.
 */
export function backupNotices(state: BackupState, config: Pick<Config, 'backups' | 'replication'>, now: number, timeZone: string): Markup {
  const stale = backupIsStale(state, now)
    ? html`<div class="notice warn" role="alert"><p><strong>No backup in the last 48 hours.</strong> ${
        state.newest ? html`The newest in the backup folder is from ${when(state.newest.at, timeZone)}.` : 'There is no backup in the backup folder.'
      } ${config.backups.hour === null ? html`Daily backups are off (<code>BACKUP_HOUR=off</code>). ` : ''}<a href="/console/settings/backups">Back up now</a>.</p></div>`
    : '';
  const offSite =
    config.replication === null
      ? html`<div class="notice warn" role="note"><p><strong>No copy off this computer.</strong> The backups are on this computer's disk: a dead disk, a theft or a fire takes them with it. Whoever runs the server can replicate the database elsewhere with Litestream and set <code>REPLICATION=litestream</code> (README, "Backups and restore"), or copy the backup files elsewhere regularly.</p></div>`
      : '';
  return html`${stale}${offSite}`;
}
