import type { BackupRun } from '../../backups/repo';
import { html, type Markup } from '../../web/html';

/** On every console page while the last backup failed: the owner sees it without looking for it. */
export function backupFailedBanner(run: BackupRun | undefined): Markup {
  if (!run?.error) return html``;
  return html`<div class="test-banner" role="alert"><p><strong>The last backup failed.</strong> The shop keeps working; <a href="/console/settings/backups">see Backups</a>.</p></div>`;
}
