import { Readable } from 'node:stream';
import type Router from '@koa/router';
import type { Context } from 'koa';
import { findCard, listCards } from '../../cards/service';
import type { AppDeps } from '../../deps';
import { tConsole, type ConsoleKey } from '../../i18n/translate';
import type { ConsoleLang } from '../../i18n/langs';
import { reasonWords, rowMessage } from '../refusals';
import { ImportFileError, parseCsvText } from '../../import/csv-file';
import { checkMapping, readStoredMapping, suggestMapping } from '../../import/mapping';
import { createdCustomerIds, findImport, findImportSummary, firstRefusedRows, keepsRefusedValues, recentImports, refusedRowBatches, reportBatches, storedDryRun, type ImportJob, type ReportRow } from '../../import/jobs';
import { importRunner } from '../../import/runner';
import { createDraft, draftPreview, saveCheckedMapping, startImport, storedCheck } from '../../import/drafts';
import { dryRun, REFUSED_VALUES_DAYS } from '../../import/service';
import { readSource } from '../../import/source';
import { ApiError } from '../../lib/errors';
import { readOrgSettings } from '../../orgs/settings';
import { sendFragment } from '../../web/errors';
import { field, noErrors } from '../../web/forms';
import { consoleForm, consoleOf, type ConsoleContext } from '../context';
import { sendConsolePage } from '../layout';
import { csvLine, CSV_BOM } from './csv';
import { refusedCsvHeader, refusedCsvLine } from './import-csv';
import { readImportUpload } from './import-upload';
import { jobBody, mappingBody, progressPanel, uploadBody, type EmailsView, type MappingView } from './import-views';
import { queueCardEmails } from '../../mail/service';

// Customers → Import (docs/import.md). A file becomes a draft import (the file kept until the import
// is done), its mapping is checked by a dry run that writes nothing, and the import then runs in
// the server (import/runner.ts) whether or not this page stays open. Bound before the customer
// page, whose /console/customers/:passUserId would otherwise take /console/customers/import.

const REPORT_BATCH = 1000;

/** The import, without its file's text (`withFile`: with it). */
function findJob(deps: Pick<AppDeps, 'db'>, c: ConsoleContext, id: string, withFile = false): ImportJob {
  const job = findImport(deps.db, c.namespace, id, { withFile });
  if (!job) throw new ApiError(404, 'IMPORT_NOT_FOUND', { detail: 'there is no such import in this data; start one from Customers → Import' });
  return job;
}

function sendCsv(ctx: Context, name: string, lines: Iterable<string> | AsyncIterable<string>): void {
  ctx.set('Content-Disposition', `attachment; filename="${name}"`);
  ctx.set('Cache-Control', 'no-store');
  ctx.type = 'text/csv; charset=utf-8';
  ctx.body = Readable.from(lines);
}

/** The import report as CSV, in the admin's language. */
const REPORT_HEADER: readonly ConsoleKey[] = ['console.csv.row', 'console.csv.outcome', 'console.csv.column', 'console.csv.message', 'console.csv.customerId'];
const reportLine = (lang: ConsoleLang, r: ReportRow) =>
  csvLine([r.row, tConsole(lang, 'console.csv.outcome.value', { outcome: r.outcome }), r.column, r.message === null ? null : rowMessage(lang, r), r.customerId ? `pu_${r.customerId}` : null]);

export function bindCustomerImport(router: Router, deps: AppDeps): void {
  const uploadPage = (ctx: Context, view: { cardId: string; errors: ReturnType<typeof noErrors> }, status = 200) => {
    const c = consoleOf(ctx);
    const body = uploadBody(c, {
      cards: listCards(deps, c.org.id),
      recent: recentImports(deps.db, c.namespace),
      timeZone: readOrgSettings(deps.db, c.org.id).timeZone,
      ...view,
    });
    sendConsolePage(ctx, deps, c, { section: 'customers', title: tConsole(c.lang, 'console.import.title'), status, body });
  };

  router.get('/console/customers/import', (ctx) => uploadPage(ctx, { cardId: typeof ctx.query.card === 'string' ? ctx.query.card : '', errors: noErrors() }));

  router.post('/console/customers/import', async (ctx) => {
    const c = consoleOf(ctx);
    const upload = await readImportUpload(ctx);
    const errors = noErrors();
    const card = findCard(deps, upload.cardId);
    if (!card || card.orgId !== c.org.id) errors.fields.card = tConsole(c.lang, 'console.import.rule.card');
    if (upload.tooLarge) errors.fields.file = tConsole(c.lang, 'console.import.rule.tooLarge');
    else if (!upload.fileName) errors.fields.file = tConsole(c.lang, 'console.import.rule.file');
    if (Object.keys(errors.fields).length) return uploadPage(ctx, { cardId: upload.cardId, errors }, 400);
    try {
      const { job } = await createDraft(deps, c.namespace, { cardId: card!.id, fileName: upload.fileName, bytes: upload.bytes });
      ctx.status = 303;
      ctx.redirect(`/console/customers/import/${job.id}`);
    } catch (err) {
      if (!(err instanceof ImportFileError)) throw err;
      errors.fields.file = reasonWords(c.lang, err.reason) ?? err.message;
      return uploadPage(ctx, { cardId: upload.cardId, errors }, 400);
    }
  });

  /** The draft's page: the mapping form, and after a check its dry run, both as stored with the draft (the file is not read). */
  const draftPage = async (ctx: Context, job: ImportJob, view: Partial<MappingView> & { chosen?: string[] }, status = 200) => {
    const c = consoleOf(ctx);
    const card = findCard(deps, job.cardId)!;
    const { header, samples } = await draftPreview(deps.db, c.namespace, job);
    const stored = readStoredMapping(card, header, job.mapping);
    const chosen = view.chosen ?? (stored ?? suggestMapping(card, header)).map((t) => t ?? '');
    const dryRun = view.dryRun ?? (view.chosen ? null : storedCheck(job));
    const body = mappingBody(c, { job, card, header, samples, chosen, errors: view.errors ?? noErrors(), columnErrors: view.columnErrors ?? {}, ...(dryRun ? { dryRun } : {}) });
    sendConsolePage(ctx, deps, c, { section: 'customers', title: tConsole(c.lang, 'console.import.title'), status, body });
  };

  router.get('/console/customers/import/:id', async (ctx) => {
    const c = consoleOf(ctx);
    const job = findJob(deps, c, ctx.params.id!);
    if (job.status === 'draft') return draftPage(ctx, job, {});
    const timeZone = readOrgSettings(deps.db, c.org.id).timeZone;
    const refusals = job.status === 'done' ? firstRefusedRows(deps.db, job.id, 100) : [];
    const emails: EmailsView = { mailOn: deps.config.mail !== null, result: emailResult(ctx.query.emails) };
    const refusedCsv = job.header !== null && keepsRefusedValues(deps.db, job.id);
    sendConsolePage(ctx, deps, c, { section: 'customers', title: tConsole(c.lang, 'console.import.title'), body: jobBody(c, job, findCard(deps, job.cardId), timeZone, refusals, emails, refusedCsv) });
  });

  router.post('/console/customers/import/:id/email', async (ctx) => {
    const c = consoleOf(ctx);
    const job = findJob(deps, c, ctx.params.id!);
    if (job.status !== 'done') throw new ApiError(409, 'IMPORT_NOT_DONE', { detail: 'the import is not finished yet' });
    if (!deps.config.mail) throw new ApiError(409, 'MAIL_OFF', { detail: 'email is not set up on this server (Settings → Email)' });
    const resend = field(consoleForm(ctx), 'resend') === '1';
    const result = await queueCardEmails(deps, createdCustomerIds(deps.db, job.id), { resend, namespace: c.namespace });
    ctx.status = 303;
    ctx.redirect(`/console/customers/import/${job.id}?emails=${result.queued}.${result.skippedNoEmail}.${result.skippedAlreadySent}`);
  });

  router.post('/console/customers/import/:id/check', async (ctx) => {
    const c = consoleOf(ctx);
    const job = findJob(deps, c, ctx.params.id!, true);
    if (job.status !== 'draft') return ctx.redirect(`/console/customers/import/${job.id}`);
    const card = findCard(deps, job.cardId)!;
    const form = consoleForm(ctx);
    const table = await parseCsvText(job.csv!);
    const chosen = table.header.map((_, i) => field(form, `map.${i}`));
    const checked = checkMapping(card, table.header, chosen);
    if (!checked.mapping) {
      const columnErrors = Object.fromEntries(Object.entries(checked.columnErrors).map(([i, message]) => [i, reasonWords(c.lang, checked.columnReasons[Number(i)]) ?? message]));
      const form = checked.formError === undefined ? undefined : (reasonWords(c.lang, checked.formReason) ?? checked.formError);
      return draftPage(ctx, job, { chosen, columnErrors, errors: { fields: {}, form } }, 400);
    }
    const report = await dryRun(deps.db, c.namespace, await readSource(deps.db, { card, table, mapping: checked.mapping, fileSha256: job.fileSha256 }));
    // The refused rows as the owner downloads them, made once with the dry run.
    const csv = refusedCsvHeader(c.lang, table.header) + report.refusedRows.map((r) => refusedCsvLine(c.lang, r, checked.mapping)).join('');
    saveCheckedMapping(deps.db, job.id, checked.mapping, { report, csv });
    return draftPage(ctx, { ...job, mapping: JSON.stringify(checked.mapping) }, { chosen, dryRun: report });
  });

  // The refused rows of the draft's dry run, as it stored them.
  router.get('/console/customers/import/:id/check.csv', (ctx) => {
    const c = consoleOf(ctx);
    const job = findJob(deps, c, ctx.params.id!);
    if (job.status !== 'draft') return ctx.redirect(`/console/customers/import/${job.id}/refused.csv`);
    const check = storedDryRun(deps.db, c.namespace, job.id);
    if (!check?.csv || !storedCheck({ mapping: check.mapping, checkReport: check.report })) throw new ApiError(409, 'IMPORT_NOT_CHECKED', { detail: 'check the file (dry run) first' });
    sendCsv(ctx, `refused-rows-${job.id}.csv`, [check.csv]);
  });

  // The refused rows of a started import, with their values while they are kept.
  router.get('/console/customers/import/:id/refused.csv', (ctx) => {
    const c = consoleOf(ctx);
    const job = findJob(deps, c, ctx.params.id!);
    if (job.status === 'draft') return ctx.redirect(`/console/customers/import/${job.id}/check.csv`);
    if (job.header === null || !keepsRefusedValues(deps.db, job.id)) {
      throw new ApiError(404, 'REFUSED_ROWS_GONE', { detail: `this import keeps no values of refused rows (they are kept ${REFUSED_VALUES_DAYS} days); download the report instead` });
    }
    const header = JSON.parse(job.header) as string[];
    const card = findCard(deps, job.cardId);
    const mapping = card ? readStoredMapping(card, header, job.mapping) : null;
    function* lines() {
      yield refusedCsvHeader(c.lang, header);
      for (const rows of refusedRowBatches(deps.db, job.id, REPORT_BATCH)) yield rows.map((r) => refusedCsvLine(c.lang, r, mapping)).join('');
    }
    sendCsv(ctx, `refused-rows-${job.id}.csv`, lines());
  });

  router.post('/console/customers/import/:id/start', (ctx) => {
    const c = consoleOf(ctx);
    const job = findJob(deps, c, ctx.params.id!);
    if (job.status === 'draft' && !startImport(deps, job.id)) {
      throw new ApiError(409, 'IMPORT_NOT_CHECKED', { detail: 'check the file (dry run) before importing it' });
    }
    importRunner(deps).wake();
    ctx.status = 303;
    ctx.redirect(`/console/customers/import/${job.id}`);
  });

  router.get('/console/customers/import/:id/progress', (ctx) => {
    const c = consoleOf(ctx);
    const job = findImportSummary(deps.db, c.namespace, ctx.params.id!);
    if (!job) throw new ApiError(404, 'IMPORT_NOT_FOUND', { detail: 'there is no such import in this data' });
    sendFragment(ctx, 200, progressPanel(c.lang, job, readOrgSettings(deps.db, c.org.id).timeZone));
  });

  router.get('/console/customers/import/:id/report.csv', (ctx) => {
    const c = consoleOf(ctx);
    const job = findImportSummary(deps.db, c.namespace, ctx.params.id!);
    if (!job) throw new ApiError(404, 'IMPORT_NOT_FOUND', { detail: 'there is no such import in this data' });
    // One keyset read per batch, as the customer export: a 50,000-row report never holds the loop long.
    function* lines() {
      yield CSV_BOM + csvLine(REPORT_HEADER.map((key) => tConsole(c.lang, key)));
      for (const rows of reportBatches(deps.db, job!.id, REPORT_BATCH)) yield rows.map((r) => reportLine(c.lang, r)).join('');
    }
    sendCsv(ctx, `import-report-${job.id}.csv`, lines());
  });
}

/** `?emails=<queued>.<without an address>.<sent before>`, as the email action redirects. */
function emailResult(raw: unknown): EmailsView['result'] {
  const match = typeof raw === 'string' ? /^(\d{1,6})\.(\d{1,6})\.(\d{1,6})$/.exec(raw) : null;
  return match ? { queued: Number(match[1]), noEmail: Number(match[2]), already: Number(match[3]) } : null;
}
