import type { Card } from '../../cards/model';
import { TEST_CUSTOMER_LIMIT } from '../../customers/test-mode';
import { targetOptions } from '../../import/mapping';
import type { ImportJob, ReportRow } from '../../import/jobs';
import { SHOWN_REFUSALS } from '../../import/drafts';
import type { DryRunReport } from '../../import/service';
import { formError, selectField } from '../../web/fields';
import type { FormErrors } from '../../web/forms';
import { html, type Markup } from '../../web/html';
import type { ConsoleContext } from '../context';
import { csrfField } from '../layout';
import { formatNumber, formatTime, passTypeLabel } from '../format';

// Customers → Import: upload a file, check which column goes where, a dry run, then the import
// with its progress and its report. Every step is a plain form; htmx only refreshes the progress.

const base = (job: Pick<ImportJob, 'id'>) => `/console/customers/import/${job.id}`;
const plural = (n: number, one: string, many: string) => `${formatNumber(n)} ${n === 1 ? one : many}`;

function crumbs(): Markup {
  return html`<p class="crumbs"><a href="/console/customers">← Customers</a></p>`;
}

function testNote(c: ConsoleContext): Markup {
  return c.livemode
    ? html``
    : html`<div class="notice warn" role="note"><p>You are importing into <strong>test data</strong>: at most ${TEST_CUSTOMER_LIMIT} test customers, removed after 30 days. Switch to live data to import your real customers.</p></div>`;
}

export interface UploadView {
  cards: Card[];
  cardId: string;
  errors: FormErrors;
  recent: ImportJob[];
  timeZone: string;
}

function recentImports(view: UploadView): Markup {
  if (view.recent.length === 0) return html``;
  const cardName = (id: string) => view.cards.find((c) => c.id === id)?.name ?? 'Deleted card';
  return html`<section class="panel" aria-labelledby="recent-heading">
  <h2 id="recent-heading">Earlier imports</h2>
  <div class="table-wrap"><table class="stacked import-table">
    <thead><tr><th scope="col">File</th><th scope="col">Card</th><th scope="col">Started</th><th scope="col" class="num">Created</th><th scope="col" class="num">Matched</th><th scope="col" class="num">Refused</th><th scope="col">Status</th></tr></thead>
    <tbody>${view.recent.map(
      (job) => html`<tr>
      <td data-label="File"><a href="${base(job)}">${job.fileName}</a></td>
      <td data-label="Card">${cardName(job.cardId)}</td>
      <td data-label="Started" class="nowrap">${job.startedAt ? formatTime(job.startedAt, view.timeZone) : ''}</td>
      <td data-label="Created" class="num">${formatNumber(job.created)}</td>
      <td data-label="Matched" class="num">${formatNumber(job.matched)}</td>
      <td data-label="Refused" class="num">${formatNumber(job.refused)}</td>
      <td data-label="Status">${job.status === 'done' ? html`<span class="badge ok">Done</span>` : job.status === 'stopped' ? html`<span class="badge danger">Stopped</span>` : html`<span class="badge">Importing…</span>`}</td>
    </tr>`,
    )}</tbody>
  </table></div>
</section>`;
}

export function uploadBody(c: ConsoleContext, view: UploadView): Markup {
  const cardOptions = view.cards.map((card) => ({ value: card.id, label: `${card.name} (${passTypeLabel(card.passType)})` }));
  return html`${crumbs()}
<div class="page-head"><h1>Import customers</h1></div>
${testNote(c)}
<section class="panel" aria-labelledby="upload-heading">
  <h2 id="upload-heading">1. Upload a CSV file</h2>
  <p class="muted small">Export your customers from your previous loyalty app or spreadsheet as CSV (comma, semicolon or tab; up to 50,000 rows, 200 columns and 10 MB). Next you check which column goes where and see what the import would do: nothing is written before you start it.</p>
  ${formError(view.errors.form)}
  <form method="post" action="/console/customers/import?_csrf=${encodeURIComponent(c.csrfToken)}" enctype="multipart/form-data" class="form" novalidate>
    ${csrfField(c)}
    ${selectField({ name: 'card', label: 'Card', value: view.cardId, options: cardOptions, required: true, error: view.errors.fields.card, hint: 'The customers join this card; their balances are in its units.' })}
    <div class="field">
      <label for="f-file">CSV file</label>
      <input id="f-file" name="file" type="file" accept=".csv,.txt,text/csv" required aria-describedby="f-file-hint${view.errors.fields.file ? ' f-file-error' : ''}"${view.errors.fields.file ? html` aria-invalid="true"` : ''}>
      <span class="hint" id="f-file-hint">The first row must name the columns (Name, Email, Phone, Stamps …).</span>
      ${view.errors.fields.file ? html`<span class="error" id="f-file-error">${view.errors.fields.file}</span>` : ''}
    </div>
    <div class="actions"><button type="submit">Upload and check the columns</button></div>
  </form>
</section>
${recentImports(view)}`;
}

export interface MappingView {
  job: ImportJob;
  card: Card;
  /** The file's header row. */
  header: string[];
  /** The first values of each column. */
  samples: string[][];
  /** The target chosen for each column ('' = left out). */
  chosen: string[];
  errors: FormErrors;
  columnErrors: Record<number, string>;
  dryRun?: DryRunReport;
}

function mappingForm(c: ConsoleContext, view: MappingView): Markup {
  const { job, card, header } = view;
  const options = [{ value: '', label: 'Leave out' }, ...targetOptions(card).map((o) => ({ value: o.value as string, label: o.label }))];
  return html`<section class="panel" aria-labelledby="mapping-heading">
  <h2 id="mapping-heading">2. Which column goes where</h2>
  <p class="muted small">Suggested from the column names; change any of them. A row is matched to an existing customer by external id, then email, then phone, and left as it is.</p>
  ${formError(view.errors.form)}
  <form method="post" action="${base(job)}/check" class="form" novalidate>
    ${csrfField(c)}
    <div class="table-wrap"><table class="stacked mapping-table">
      <caption class="visually-hidden">Columns of the file</caption>
      <thead><tr><th scope="col">Column in the file</th><th scope="col">First values</th><th scope="col">Goes to</th></tr></thead>
      <tbody>${header.map((cell, i) => {
        const name = cell || `Column ${i + 1}`;
        return html`<tr>
        <td data-label="Column"><strong>${name}</strong></td>
        <td data-label="First values" class="muted small">${(view.samples[i] ?? []).join(' · ') || '(empty)'}</td>
        <td data-label="">${selectField({ name: `map.${i}`, id: `f-map-${i}`, label: `Goes to (${name})`, value: view.chosen[i] ?? '', options, required: true, error: view.columnErrors[i] })}</td>
      </tr>`;
      })}</tbody>
    </table></div>
    <div class="actions"><button type="submit"${view.dryRun ? html` class="secondary"` : ''}>Check the file (dry run)</button></div>
  </form>
</section>`;
}

/** The refused rows; `csvHref` offers them all as CSV, with their values, to fix and import again. */
function refusalsTable(rows: ReportRow[], total: number, csvHref: string | null): Markup {
  if (rows.length === 0) return html``;
  return html`<h3 id="refused-heading">Refused rows</h3>
<p class="muted small">Row numbers are those a spreadsheet shows (the header is row 1). A row with the external id, email or phone of an earlier row is refused rather than merged into that customer. ${
    csvHref
      ? 'Download the refused rows: each with its values and the reason, under your file’s own column names. Fix them there and import that file.'
      : 'Fix these rows in the file and import it again: rows already imported are then matched and left as they are.'
  }</p>
<div class="table-wrap"><table class="stacked refused-table" aria-labelledby="refused-heading">
  <thead><tr><th scope="col" class="num">Row</th><th scope="col">Column</th><th scope="col">Problem</th></tr></thead>
  <tbody>${rows.slice(0, SHOWN_REFUSALS).map(
    (r) => html`<tr><td data-label="Row" class="num">${r.row}</td><td data-label="Column">${r.column ?? '—'}</td><td data-label="Problem">${r.message ?? ''}</td></tr>`,
  )}</tbody>
</table></div>
${total > SHOWN_REFUSALS ? html`<p class="muted small after-table">The first ${SHOWN_REFUSALS} of ${formatNumber(total)} refused rows.</p>` : ''}
${csvHref ? html`<p class="after-table"><a class="button secondary" href="${csvHref}" download>Download the refused rows (CSV)</a></p>` : ''}`;
}

function figures(counts: { created: number; matched: number; refused: number }, verbs: { created: string; matched: string; refused: string }): Markup {
  return html`<dl class="figures import-figures">
  <div class="figure" id="figure-created"><dt>${verbs.created}</dt><dd class="stat">${formatNumber(counts.created)}</dd></div>
  <div class="figure" id="figure-matched"><dt>${verbs.matched}</dt><dd class="stat">${formatNumber(counts.matched)}</dd></div>
  <div class="figure" id="figure-refused"><dt>${verbs.refused}</dt><dd class="stat">${formatNumber(counts.refused)}</dd></div>
</dl>`;
}

function dryRunPanel(c: ConsoleContext, view: MappingView, report: DryRunReport): Markup {
  const { job } = view;
  return html`<section class="panel" aria-labelledby="dry-run-heading">
  <h2 id="dry-run-heading">3. Dry run: what the import would do</h2>
  <p role="status">Nothing has been written yet.</p>
  ${figures(report, { created: 'New customers', matched: 'Already customers (left as they are)', refused: 'Refused rows' })}
  ${refusalsTable(report.refusedRows, report.refused, `${base(job)}/check.csv`)}
  ${
    report.created > 0
      ? html`<form method="post" action="${base(job)}/start" class="actions">
    ${csrfField(c)}
    <button type="submit">Import ${plural(report.created, 'customer', 'customers')}</button>
    <span class="muted small">Each gets the card with the balance from the file; webhooks receive customer.enrolled.</span>
  </form>`
      : html`<p class="notice warn">There is nobody new to import with this mapping.</p>`
  }
</section>`;
}

export function mappingBody(c: ConsoleContext, view: MappingView): Markup {
  const { job, card } = view;
  return html`${crumbs()}
<div class="page-head"><h1>Import customers</h1></div>
${testNote(c)}
<p>File <strong>${job.fileName}</strong>: ${plural(job.totalRows, 'row', 'rows')} for the card <strong>${card.name}</strong> (${passTypeLabel(card.passType)}). <a href="/console/customers/import">Upload another file</a></p>
${mappingForm(c, view)}
${view.dryRun ? dryRunPanel(c, view, view.dryRun) : ''}`;
}

/** The running import's progress (polled by htmx every second), or its final report once done, with `after` under it. */
export function progressPanel(job: ImportJob, timeZone: string, after: Markup = html``): Markup {
  const counts = figures(job, { created: 'Customers created', matched: 'Already customers (left as they are)', refused: 'Refused rows' });
  if (job.status === 'stopped') {
    return html`<section class="panel" id="import-progress" aria-labelledby="progress-heading">
  <h2 id="progress-heading">Import stopped</h2>
  <div class="notice error" role="alert"><p>The import stopped after ${formatNumber(job.nextRow)} of ${plural(job.totalRows, 'row', 'rows')}: ${job.stopReason}</p></div>
  ${counts}
  <div class="actions">
    <a class="button" href="${base(job)}/report.csv" download>Download the report (CSV)</a>
    <a class="button secondary" href="/console/customers/import?card=${encodeURIComponent(job.cardId)}">Upload the file again</a>
  </div>
</section>`;
  }
  if (job.status !== 'done') {
    return html`<section class="panel" id="import-progress" aria-labelledby="progress-heading" hx-get="${base(job)}/progress" hx-trigger="every 1s" hx-swap="outerHTML">
  <h2 id="progress-heading">Importing…</h2>
  <progress max="${job.totalRows}" value="${job.nextRow}" aria-labelledby="progress-heading">${Math.floor((job.nextRow / Math.max(1, job.totalRows)) * 100)}%</progress>
  <p role="status">${formatNumber(job.nextRow)} of ${plural(job.totalRows, 'row', 'rows')} done.</p>
  ${counts}
  <p class="muted small">You can close this page: the import goes on in the server, and this page shows where it is when you come back. <a href="${base(job)}">Refresh</a></p>
</section>`;
  }
  return html`<section class="panel" id="import-progress" aria-labelledby="progress-heading">
  <h2 id="progress-heading">Import finished</h2>
  <p role="status">All ${plural(job.totalRows, 'row', 'rows')} done${job.finishedAt ? html` at ${formatTime(job.finishedAt, timeZone)}` : ''}.</p>
  ${counts}
  <div class="actions">
    <a class="button" href="${base(job)}/report.csv" download>Download the report (CSV)</a>
    <a class="button secondary" href="/console/customers?card=${encodeURIComponent(job.cardId)}">See the customers</a>
  </div>
  ${after}
</section>`;
}

/** `refusedCsv`: the refused rows' values are still kept, to download. */
export function jobBody(c: ConsoleContext, job: ImportJob, card: Card | undefined, timeZone: string, refusals: ReportRow[], emails: EmailsView, refusedCsv: boolean): Markup {
  return html`${crumbs()}
<div class="page-head"><h1>Import customers</h1></div>
${testNote(c)}
<p>File <strong>${job.fileName}</strong> for the card <strong>${card?.name ?? 'Deleted card'}</strong>.</p>
${progressPanel(job, timeZone, emailAction(c, job, emails))}
${job.status === 'done' && refusals.length ? html`<section class="panel" aria-labelledby="refused-heading">${refusalsTable(refusals, job.refused, refusedCsv ? `${base(job)}/refused.csv` : null)}</section>` : ''}`;
}


/** Whether mail is set up, and what the last "Email every imported customer" did (from the redirect). */
export interface EmailsView {
  mailOn: boolean;
  result: { queued: number; noEmail: number; already: number } | null;
}

/**
 * "Email every imported customer their card", under a finished import that created customers:
 * customers without an address are skipped, and so is anyone who was sent their card already,
 * unless the owner asks again. Mail goes out a few dozen a minute, after the page has answered.
 */
function emailAction(c: ConsoleContext, job: ImportJob, emails: EmailsView): Markup {
  if (job.status !== 'done' || job.created === 0) return html``;
  const result = emails.result;
  const done = result
    ? html`<div class="notice ok" role="status"><p>${result.queued === 0 ? 'No email was queued.' : `${plural(result.queued, 'email is', 'emails are')} on their way, a few dozen a minute.`}${
        result.noEmail ? ` ${plural(result.noEmail, 'customer has', 'customers have')} no email address.` : ''
      }${result.already ? ` ${plural(result.already, 'customer was', 'customers were')} sent their card already.` : ''}</p></div>`
    : html``;
  if (!emails.mailOn) {
    return html`<p class="muted small">To email each new customer their card, set up email first (Settings → Email).</p>`;
  }
  return html`${done}<form method="post" action="${base(job)}/email" class="inline-form">
  ${csrfField(c)}
  <label class="checkbox"><input type="checkbox" name="resend" value="1"> Also send it again to customers who were sent their card before</label>
  <button type="submit">Email every imported customer their card</button>
</form>`;
}
