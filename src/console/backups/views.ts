import type { Config } from '../../config';
import type { BackupFile } from '../../db/file-names';
import type { BackupState } from '../../backups/state';
import { html, type Markup } from '../../web/html';
import type { ConsoleContext } from '../context';
import { csrfField } from '../layout';
import { settingsPage } from '../settings/subnav';
import { when } from '../widgets';
import { formatNumber } from '../../i18n/format';
import type { ConsoleLang } from '../../i18n/langs';
import { tConsole, type ConsoleKey, type MessageParams } from '../../i18n/translate';
import { sayMarkup } from '../say';

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

/** "812 bytes", "1.5 MB" ("1,5 MB"). */
export function formatSize(bytes: number, lang: ConsoleLang = 'en'): string {
  if (bytes < 1024) return tConsole(lang, 'console.backups.bytes', { n: bytes });
  const one = (n: number) => formatNumber(lang, n, { decimals: 1, fixed: true });
  if (bytes < 1024 * 1024) return `${one(bytes / 1024)} KB`;
  return `${one(bytes / (1024 * 1024))} MB`;
}

function schedule(config: Pick<Config, 'backups' | 'replication'>, timeZone: string, lang: ConsoleLang): Markup {
  const say = (key: ConsoleKey, params?: MessageParams) => tConsole(lang, key, params);
  const { hour, dir, keep } = config.backups;
  const daily =
    hour === null
      ? html`<strong>${say('console.backups.dailyOff')}</strong> (<code>BACKUP_HOUR=off</code>).`
      : say('console.backups.daily', { time: `${String(hour).padStart(2, '0')}:00`, timeZone: timeZone.replace(/_/g, ' '), keep });
  return html`<p>${daily}</p>
<dl class="facts"><dt>${say('console.backups.folder')}</dt><dd><code>${dir}</code></dd>
<dt>${say('console.backups.offSite')}</dt><dd>${config.replication === 'litestream' ? say('console.backups.litestream') : html`<span class="badge warn">${say('console.backups.none')}</span>`}</dd></dl>
<p class="small muted">${say('console.backups.sameDisk')}</p>`;
}

/** The newest file in the folder, whatever the database remembers; a failure when it is the latest news. */
function lastBackup(state: BackupState, timeZone: string, lang: ConsoleLang): Markup {
  const say = (key: ConsoleKey) => tConsole(lang, key);
  const failure = state.lastError
    ? html`<div class="notice error" role="alert"><p>${sayMarkup(lang, 'console.backups.lastFailed', {
        title: html`<strong>${say('console.backups.lastFailedTitle')}</strong>`,
        when: when(state.lastError.at, timeZone, {}, lang),
        message: state.lastError.message,
      })}</p><p>${say('console.backups.keepsWorking')}</p></div>`
    : '';
  if (!state.newest) return html`${failure}<p>${say('console.backups.noneYet')}</p>`;
  return html`${failure}<dl class="facts">
  <dt>${say('console.backups.last')}</dt><dd>${when(state.newest.at, timeZone, {}, lang)}</dd>
  <dt>${say('console.backups.size')}</dt><dd>${formatSize(state.newest.sizeBytes, lang)}</dd>
  <dt>${say('console.backups.result')}</dt><dd><span class="badge ok">OK</span> ${say('console.backups.checked')}</dd>
</dl>`;
}

export function backupsBody(c: ConsoleContext, config: Pick<Config, 'backups' | 'replication'>, view: BackupsView): Markup {
  const lang = c.lang;
  const say = (key: ConsoleKey, params?: MessageParams) => tConsole(lang, key, params);
  return settingsPage(
    BACKUPS_PATH,
    html`${view.notice === 'ok' ? html`<div class="notice ok" role="status"><p>${say('console.backups.done')}</p></div>` : ''}
<section class="panel" aria-labelledby="backup-last-heading">
  <h2 id="backup-last-heading">${say('console.settingsNav.backups')}</h2>
  ${lastBackup(view.state, view.timeZone, lang)}
  <form method="post" action="${BACKUPS_PATH}" class="actions">${csrfField(c)}<button type="submit">${say('console.backup.backUpNow')}</button></form>
</section>
<section class="panel" aria-labelledby="backup-schedule-heading">
  <h2 id="backup-schedule-heading">${say('console.backups.schedule')}</h2>
  ${schedule(config, view.timeZone, lang)}
</section>
<section class="panel" aria-labelledby="backup-files-heading">
  <h2 id="backup-files-heading">${say('console.backups.kept')}</h2>
  ${
    view.files.length === 0
      ? html`<p class="empty">${say('console.backups.noneInFolder')}</p>`
      : html`<div class="table-wrap"><table>
  <thead><tr><th scope="col">${say('console.backups.made')}</th><th scope="col">${say('console.backups.size')}</th><th scope="col">${say(view.downloads ? 'console.backups.download' : 'console.backups.file')}</th></tr></thead>
  <tbody>${view.files.map(
    (f) => html`<tr><td class="nowrap">${when(f.at, view.timeZone, {}, lang)}</td><td class="nowrap">${formatSize(f.sizeBytes, lang)}</td>
  <td>${
    view.downloads
      ? html`<a href="${BACKUPS_PATH}/${f.name}" download aria-label="${say('console.backups.downloadFile', { file: f.name })}" title="${f.name}">${say('console.backups.download')}</a>`
      : html`<code>${f.name}</code>`
  }</td></tr>`,
  )}</tbody>
</table></div>`
  }
  ${view.downloads ? '' : html`<p class="small muted">${say('console.backups.severalShops')}</p>`}
  <p class="small muted">${sayMarkup(lang, 'console.backups.restore', { command: html`<code>wallet-loyalty restore &lt;${say('console.backups.file')}&gt;</code>` })}</p>
</section>`,
    lang,
  );
}
