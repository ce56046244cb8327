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
import type { ConsoleLang } from '../../i18n/langs';
import { consoleText, messageMarkup } from '../message-markup';
import { rowMessage } from '../refusals';
import { numberText, timeText } from './lang-format';

// Customers → Import: upload a file, check which column goes where, a dry run, then the import
// with its progress and its report. Every step is a plain form; htmx only refreshes the progress.

const base = (job: Pick<ImportJob, 'id'>) => `/console/customers/import/${job.id}`;
const passType = (lang: ConsoleLang, card: Card) => consoleText(lang)('console.customer.passType', { type: card.passType });

function crumbs(lang: ConsoleLang): Markup {
  return html`<p class="crumbs"><a href="/console/customers">${consoleText(lang)('console.import.crumb')}</a></p>`;
}

function testNote(c: ConsoleContext): Markup {
  return c.livemode
    ? html``
    : html`<div class="notice warn" role="note"><p>${messageMarkup(c.lang, 'console.import.testNote', { test: html`<strong>${consoleText(c.lang)('console.import.testData')}</strong>` }, { limit: TEST_CUSTOMER_LIMIT })}</p></div>`;
}

export interface UploadView {
  cards: Card[];
  cardId: string;
  errors: FormErrors;
  recent: ImportJob[];
  timeZone: string;
}

function recentImports(lang: ConsoleLang, view: UploadView): Markup {
  if (view.recent.length === 0) return html``;
  const m = consoleText(lang);
  const cardName = (id: string) => view.cards.find((c) => c.id === id)?.name ?? m('console.import.deletedCard');
  const col = {
    file: m('console.import.col.file'),
    card: m('console.import.col.card'),
    started: m('console.import.col.started'),
    created: m('console.import.col.created'),
    matched: m('console.import.col.matched'),
    refused: m('console.import.col.refused'),
    status: m('console.import.col.status'),
  };
  return html`<section class="panel" aria-labelledby="recent-heading">
  <h2 id="recent-heading">${m('console.import.earlier')}</h2>
  <div class="table-wrap"><table class="stacked import-table">
    <thead><tr><th scope="col">${col.file}</th><th scope="col">${col.card}</th><th scope="col">${col.started}</th><th scope="col" class="num">${col.created}</th><th scope="col" class="num">${col.matched}</th><th scope="col" class="num">${col.refused}</th><th scope="col">${col.status}</th></tr></thead>
    <tbody>${view.recent.map(
      (job) => html`<tr>
      <td data-label="${col.file}"><a href="${base(job)}">${job.fileName}</a></td>
      <td data-label="${col.card}">${cardName(job.cardId)}</td>
      <td data-label="${col.started}" class="nowrap">${job.startedAt ? timeText(lang, job.startedAt, view.timeZone) : ''}</td>
      <td data-label="${col.created}" class="num">${numberText(lang, job.created)}</td>
      <td data-label="${col.matched}" class="num">${numberText(lang, job.matched)}</td>
      <td data-label="${col.refused}" class="num">${numberText(lang, job.refused)}</td>
      <td data-label="${col.status}">${job.status === 'done' ? html`<span class="badge ok">${m('console.import.status.done')}</span>` : job.status === 'stopped' ? html`<span class="badge danger">${m('console.import.status.stopped')}</span>` : html`<span class="badge">${m('console.import.status.running')}</span>`}</td>
    </tr>`,
    )}</tbody>
  </table></div>
</section>`;
}

export function uploadBody(c: ConsoleContext, view: UploadView): Markup {
  const m = consoleText(c.lang);
  const cardOptions = view.cards.map((card) => ({ value: card.id, label: m('console.import.upload.cardOption', { card: card.name, type: passType(c.lang, card) }) }));
  return html`${crumbs(c.lang)}
<div class="page-head"><h1>${m('console.import.title')}</h1></div>
${testNote(c)}
<section class="panel" aria-labelledby="upload-heading">
  <h2 id="upload-heading">${m('console.import.upload.heading')}</h2>
  <p class="muted small">${m('console.import.upload.hint')}</p>
  ${formError(view.errors.form)}
  <form method="post" action="/console/customers/import?_csrf=${encodeURIComponent(c.csrfToken)}" enctype="multipart/form-data" class="form" novalidate>
    ${csrfField(c)}
    ${selectField({ name: 'card', label: m('console.import.upload.card'), value: view.cardId, options: cardOptions, required: true, error: view.errors.fields.card, hint: m('console.import.upload.cardHint') })}
    <div class="field">
      <label for="f-file">${m('console.import.upload.file')}</label>
      <input id="f-file" name="file" type="file" accept=".csv,.txt,text/csv" required aria-describedby="f-file-hint${view.errors.fields.file ? ' f-file-error' : ''}"${view.errors.fields.file ? html` aria-invalid="true"` : ''}>
      <span class="hint" id="f-file-hint">${m('console.import.upload.fileHint')}</span>
      ${view.errors.fields.file ? html`<span class="error" id="f-file-error">${view.errors.fields.file}</span>` : ''}
    </div>
    <div class="actions"><button type="submit">${m('console.import.upload.button')}</button></div>
  </form>
</section>
${recentImports(c.lang, view)}`;
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
  const m = consoleText(c.lang);
  // The targets' names in the admin's language; each option's value is the mapping's own.
  const targetName = (value: string) => {
    if (value === 'balance') return m('console.import.targetBalance', { unit: card.passType });
    const question = value.startsWith('q:') ? card.questions.find((q) => `q:${q.key}` === value) : undefined;
    return question ? m('console.import.targetQuestion', { label: question.label }) : m('console.import.target', { target: value });
  };
  const options = [{ value: '', label: m('console.import.map.leaveOut') }, ...targetOptions(card).map((o) => ({ value: o.value as string, label: targetName(o.value as string) }))];
  return html`<section class="panel" aria-labelledby="mapping-heading">
  <h2 id="mapping-heading">${m('console.import.map.heading')}</h2>
  <p class="muted small">${m('console.import.map.hint')}</p>
  ${formError(view.errors.form)}
  <form method="post" action="${base(job)}/check" class="form" novalidate>
    ${csrfField(c)}
    <div class="table-wrap"><table class="stacked mapping-table">
      <caption class="visually-hidden">${m('console.import.map.caption')}</caption>
      <thead><tr><th scope="col">${m('console.import.map.col.column')}</th><th scope="col">${m('console.import.map.col.firstValues')}</th><th scope="col">${m('console.import.map.col.goesTo')}</th></tr></thead>
      <tbody>${header.map((cell, i) => {
        const name = cell || m('console.import.map.columnN', { n: i + 1 });
        return html`<tr>
        <td data-label="${m('console.import.map.column')}"><strong>${name}</strong></td>
        <td data-label="${m('console.import.map.col.firstValues')}" class="muted small">${(view.samples[i] ?? []).join(' · ') || m('console.import.map.empty')}</td>
        <td data-label="">${selectField({ name: `map.${i}`, id: `f-map-${i}`, label: m('console.import.map.goesTo', { column: name }), value: view.chosen[i] ?? '', options, required: true, error: view.columnErrors[i] })}</td>
      </tr>`;
      })}</tbody>
    </table></div>
    <div class="actions"><button type="submit"${view.dryRun ? html` class="secondary"` : ''}>${m('console.import.map.check')}</button></div>
  </form>
</section>`;
}

/** The refused rows; `csvHref` offers them all as CSV, with their values, to fix and import again. */
function refusalsTable(lang: ConsoleLang, rows: ReportRow[], total: number, csvHref: string | null): Markup {
  if (rows.length === 0) return html``;
  const m = consoleText(lang);
  const col = { row: m('console.import.refused.col.row'), column: m('console.import.refused.col.column'), problem: m('console.import.refused.col.problem') };
  return html`<h3 id="refused-heading">${m('console.import.refused.heading')}</h3>
<p class="muted small">${m('console.import.refused.hint')} ${csvHref ? m('console.import.refused.download') : m('console.import.refused.fix')}</p>
<div class="table-wrap"><table class="stacked refused-table" aria-labelledby="refused-heading">
  <thead><tr><th scope="col" class="num">${col.row}</th><th scope="col">${col.column}</th><th scope="col">${col.problem}</th></tr></thead>
  <tbody>${rows.slice(0, SHOWN_REFUSALS).map(
    (r) => html`<tr><td data-label="${col.row}" class="num">${r.row}</td><td data-label="${col.column}">${r.column ?? '—'}</td><td data-label="${col.problem}">${rowMessage(lang, r)}</td></tr>`,
  )}</tbody>
</table></div>
${total > SHOWN_REFUSALS ? html`<p class="muted small after-table">${m('console.import.refused.first', { shown: SHOWN_REFUSALS, total: numberText(lang, total) })}</p>` : ''}
${csvHref ? html`<p class="after-table"><a class="button secondary" href="${csvHref}" download>${m('console.import.refused.csv')}</a></p>` : ''}`;
}

function figures(lang: ConsoleLang, counts: { created: number; matched: number; refused: number }, verbs: { created: string; matched: string; refused: string }): Markup {
  return html`<dl class="figures import-figures">
  <div class="figure" id="figure-created"><dt>${verbs.created}</dt><dd class="stat">${numberText(lang, counts.created)}</dd></div>
  <div class="figure" id="figure-matched"><dt>${verbs.matched}</dt><dd class="stat">${numberText(lang, counts.matched)}</dd></div>
  <div class="figure" id="figure-refused"><dt>${verbs.refused}</dt><dd class="stat">${numberText(lang, counts.refused)}</dd></div>
</dl>`;
}

function dryRunPanel(c: ConsoleContext, view: MappingView, report: DryRunReport): Markup {
  const { job } = view;
  const m = consoleText(c.lang);
  return html`<section class="panel" aria-labelledby="dry-run-heading">
  <h2 id="dry-run-heading">${m('console.import.dry.heading')}</h2>
  <p role="status">${m('console.import.dry.nothing')}</p>
  ${figures(c.lang, report, { created: m('console.import.fig.new'), matched: m('console.import.fig.matched'), refused: m('console.import.fig.refused') })}
  ${refusalsTable(c.lang, report.refusedRows, report.refused, `${base(job)}/check.csv`)}
  ${
    report.created > 0
      ? html`<form method="post" action="${base(job)}/start" class="actions">
    ${csrfField(c)}
    <button type="submit">${m('console.import.dry.start', { count: report.created })}</button>
    <span class="muted small">${m('console.import.dry.startHint')}</span>
  </form>`
      : html`<p class="notice warn">${m('console.import.dry.nobody')}</p>`
  }
</section>`;
}

export function mappingBody(c: ConsoleContext, view: MappingView): Markup {
  const { job, card } = view;
  const m = consoleText(c.lang);
  return html`${crumbs(c.lang)}
<div class="page-head"><h1>${m('console.import.title')}</h1></div>
${testNote(c)}
<p>${messageMarkup(c.lang, 'console.import.file', { file: html`<strong>${job.fileName}</strong>`, card: html`<strong>${card.name}</strong>` }, { rows: job.totalRows, type: passType(c.lang, card) })} <a href="/console/customers/import">${m('console.import.another')}</a></p>
${mappingForm(c, view)}
${view.dryRun ? dryRunPanel(c, view, view.dryRun) : ''}`;
}

/** The running import's progress (polled by htmx every second), or its final report once done, with `after` under it. */
export function progressPanel(lang: ConsoleLang, job: ImportJob, timeZone: string, after: Markup = html``): Markup {
  const m = consoleText(lang);
  const counts = figures(lang, job, { created: m('console.import.fig.created'), matched: m('console.import.fig.matched'), refused: m('console.import.fig.refused') });
  if (job.status === 'stopped') {
    return html`<section class="panel" id="import-progress" aria-labelledby="progress-heading">
  <h2 id="progress-heading">${m('console.import.stopped')}</h2>
  <div class="notice error" role="alert"><p>${m('console.import.stoppedText', { done: numberText(lang, job.nextRow), total: job.totalRows, reason: job.stopReason ?? '' })}</p></div>
  ${counts}
  <div class="actions">
    <a class="button" href="${base(job)}/report.csv" download>${m('console.import.report')}</a>
    <a class="button secondary" href="/console/customers/import?card=${encodeURIComponent(job.cardId)}">${m('console.import.again')}</a>
  </div>
</section>`;
  }
  if (job.status !== 'done') {
    return html`<section class="panel" id="import-progress" aria-labelledby="progress-heading" hx-get="${base(job)}/progress" hx-trigger="every 1s" hx-swap="outerHTML">
  <h2 id="progress-heading">${m('console.import.running')}</h2>
  <progress max="${job.totalRows}" value="${job.nextRow}" aria-labelledby="progress-heading">${Math.floor((job.nextRow / Math.max(1, job.totalRows)) * 100)}%</progress>
  <p role="status">${m('console.import.progress', { done: numberText(lang, job.nextRow), total: job.totalRows })}</p>
  ${counts}
  <p class="muted small">${m('console.import.closeHint')} <a href="${base(job)}">${m('console.import.refresh')}</a></p>
</section>`;
  }
  return html`<section class="panel" id="import-progress" aria-labelledby="progress-heading">
  <h2 id="progress-heading">${m('console.import.finished')}</h2>
  <p role="status">${job.finishedAt ? m('console.import.finishedAt', { total: job.totalRows, time: timeText(lang, job.finishedAt, timeZone) }) : m('console.import.finishedText', { total: job.totalRows })}</p>
  ${counts}
  <div class="actions">
    <a class="button" href="${base(job)}/report.csv" download>${m('console.import.report')}</a>
    <a class="button secondary" href="/console/customers?card=${encodeURIComponent(job.cardId)}">${m('console.import.seeCustomers')}</a>
  </div>
  ${after}
</section>`;
}

/** `refusedCsv`: the refused rows' values are still kept, to download. */
export function jobBody(c: ConsoleContext, job: ImportJob, card: Card | undefined, timeZone: string, refusals: ReportRow[], emails: EmailsView, refusedCsv: boolean): Markup {
  const m = consoleText(c.lang);
  return html`${crumbs(c.lang)}
<div class="page-head"><h1>${m('console.import.title')}</h1></div>
${testNote(c)}
<p>${messageMarkup(c.lang, 'console.import.jobFile', { file: html`<strong>${job.fileName}</strong>`, card: html`<strong>${card?.name ?? m('console.import.deletedCard')}</strong>` })}</p>
${progressPanel(c.lang, job, timeZone, emailAction(c, job, emails))}
${job.status === 'done' && refusals.length ? html`<section class="panel" aria-labelledby="refused-heading">${refusalsTable(c.lang, refusals, job.refused, refusedCsv ? `${base(job)}/refused.csv` : null)}</section>` : ''}`;
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
  const m = consoleText(c.lang);
  const done = result
    ? html`<div class="notice ok" role="status"><p>${result.queued === 0 ? m('console.import.mail.none') : m('console.import.mail.queued', { count: result.queued })}${
        result.noEmail ? ` ${m('console.import.mail.noEmail', { count: result.noEmail })}` : ''
      }${result.already ? ` ${m('console.import.mail.already', { count: result.already })}` : ''}</p></div>`
    : html``;
  if (!emails.mailOn) {
    return html`<p class="muted small">${m('console.import.mail.setUp')}</p>`;
  }
  return html`${done}<form method="post" action="${base(job)}/email" class="inline-form">
  ${csrfField(c)}
  <label class="checkbox"><input type="checkbox" name="resend" value="1"> ${m('console.import.mail.resend')}</label>
  <button type="submit">${m('console.import.mail.send')}</button>
</form>`;
}
