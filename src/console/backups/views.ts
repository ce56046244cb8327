import type { Config } from '../../config';
import type { BackupFile } from '../../db/file-names';
import type { BackupState } from '../../backups/state';
import { html, type Markup } from '../../web/html';
import type { ConsoleContext } from '../context';
import { csrfField } from '../layout';
import { settingsPage } from '../settings/subnav';
import { when } from '../widgets';

export const BACKUPS_PATH = '/console/settings/backups';

export interface BackupsView {
  /** The backup folder's newest file and the last run's failure. */
  state: BackupState;
  files: BackupFile[];
  timeZone: string;
  /** Downloads only where the file holds this org's data alone (one org on the server). */
  downloads: boolean;
  notice?: 'ok' | 'failed';
}

export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

function schedule(config: Pick<Config, 'backups' | 'replication'>, timeZone: string): Markup {
  const { hour, dir, keep } = config.backups;
  const daily = hour === null ? html`<strong>Daily backups are off</strong> (<code>BACKUP_HOUR=off</code>).` : html`Every day at ${String(hour).padStart(2, '0')}:00 (${timeZone.replace(/_/g, ' ')}), the server copies its database into the backup folder and keeps the newest ${keep}.`;
  return html`<p>${daily}</p>
<dl class="facts"><dt>Backup folder</dt><dd><code>${dir}</code></dd>
<dt>Copy off this computer</dt><dd>${config.replication === 'litestream' ? 'Litestream (declared with REPLICATION=litestream)' : html`<span class="badge warn">None</span>`}</dd></dl>
<p class="small muted">A backup on the same disk does not survive the disk: copy the files elsewhere now and then, or replicate with Litestream (README, "Backups and restore").</p>`;
}

/** The newest file in the folder, whatever the database remembers; a failure when it is the latest news. */
function lastBackup(state: BackupState, timeZone: string): Markup {
  const failure = state.lastError
    ? html`<div class="notice error" role="alert"><p><strong>The last backup failed</strong> (${when(state.lastError.at, timeZone)}): ${state.lastError.message}</p><p>The shop keeps working. Whoever runs the server should check the backup folder (it must exist and be writable) and the server's log.</p></div>`
    : '';
  if (!state.newest) return html`${failure}<p>There is no backup in the backup folder yet.</p>`;
  return html`${failure}<dl class="facts">
  <dt>Last backup</dt><dd>${when(state.newest.at, timeZone)}</dd>
  <dt>Size</dt><dd>${formatSize(state.newest.sizeBytes)}</dd>
  <dt>Result</dt><dd><span class="badge ok">OK</span> in the backup folder, checked when written</dd>
</dl>`;
}

export function backupsBody(c: ConsoleContext, config: Pick<Config, 'backups' | 'replication'>, view: BackupsView): Markup {
  return settingsPage(BACKUPS_PATH, html`${view.notice === 'ok' ? html`<div class="notice ok" role="status"><p>Backup written and checked.</p></div>` : ''}
<section class="panel" aria-labelledby="backup-last-heading">
  <h2 id="backup-last-heading">Backups</h2>
  ${lastBackup(view.state, view.timeZone)}
  <form method="post" action="${BACKUPS_PATH}" class="actions">${csrfField(c)}<button type="submit">Back up now</button></form>
</section>
<section class="panel" aria-labelledby="backup-schedule-heading">
  <h2 id="backup-schedule-heading">Schedule</h2>
  ${schedule(config, view.timeZone)}
</section>
<section class="panel" aria-labelledby="backup-files-heading">
  <h2 id="backup-files-heading">Kept backups</h2>
  ${
    view.files.length === 0
      ? html`<p class="empty">None in the backup folder.</p>`
      : html`<div class="table-wrap"><table>
  <thead><tr><th scope="col">Made</th><th scope="col">Size</th><th scope="col">${view.downloads ? 'Download' : 'File'}</th></tr></thead>
  <tbody>${view.files.map(
    (f) => html`<tr><td class="nowrap">${when(f.at, view.timeZone)}</td><td class="nowrap">${formatSize(f.sizeBytes)}</td>
  <td>${view.downloads ? html`<a href="${BACKUPS_PATH}/${f.name}" download aria-label="Download ${f.name}" title="${f.name}">Download</a>` : html`<code>${f.name}</code>`}</td></tr>`,
  )}</tbody>
</table></div>`
  }
  ${view.downloads ? '' : html`<p class="small muted">This server holds several businesses, and a backup holds them all: the files are for whoever runs the server, not for download here.</p>`}
  <p class="small muted">To put a backup back: stop the server, run <code>wallet-loyalty restore &lt;file&gt;</code>, start it again.</p>
</section>`);
}
