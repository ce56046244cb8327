import * as v from 'valibot';
import type { ConsoleLang } from '../../i18n/langs';
import { tConsole } from '../../i18n/translate';
import type { Customer } from '../../customers/model';
import type { AppDeps, WriteDeps } from '../../deps';
import { findCustomer as findInNamespace, findCustomerAnywhere } from '../../customers/service';
import type { ConsoleContext } from '../context';
import { ApiError, validationFailed } from '../../lib/errors';
import { toHundredths } from '../../lib/money';
import { reason } from '../../lib/reasons';
import { toIssues } from '../../lib/validation';
import type { BalanceChangeResult } from '../../loyalty/ledger';
import { AdjustBody } from '../../loyalty/schemas';
import { adjust } from '../../loyalty/service';
import { noErrors, type FormErrors } from '../../web/forms';
import type { CorrectionForm } from './customer-page';
import { consoleFormErrors } from '../refusals';

// "Correct the balance" is the API's adjust with source `console`: the form is read into the
// API's own body (so its validation and messages are the API's), then the same service function
// decides — earning limits on what adds value, never below zero, whole units except store credit.

/** The API's field names, as the form's. */
const FIELD_OF_PATH: Record<string, keyof CorrectionForm> = { balanceCorrection: 'amount', setPoints: 'amount', note: 'note' };

function renamed(errors: FormErrors): FormErrors {
  const fields: Record<string, string> = {};
  for (const [path, message] of Object.entries(errors.fields)) fields[FIELD_OF_PATH[path] ?? path] ??= message;
  return { ...errors, fields };
}

/** "5", "2.50" and "2,50" (a decimal comma, as much of the world writes it) as a number. */
function readAmount(text: string): number | null {
  const compact = text.trim().replace(/\s/g, '');
  if (!/^\d+([.,]\d+)?$/.test(compact)) return null;
  return Number(compact.replace(',', '.'));
}

export type CorrectionOutcome = { ok: true; result: BalanceChangeResult } | { ok: false; status: number; errors: FormErrors };

/** A correction as the owner typed it, checked and made; its messages in the admin's language. */
export function correctBalance(deps: WriteDeps, customer: Customer, form: CorrectionForm, lang: ConsoleLang = 'en'): CorrectionOutcome {
  const errors = noErrors();
  const note = form.note.trim();
  if (!note) errors.fields.note = tConsole(lang, 'console.customer.rule.note');
  if (!['add', 'remove', 'set'].includes(form.action)) errors.fields.action = tConsole(lang, 'console.customer.rule.action');
  const amount = readAmount(form.amount);
  if (amount === null) errors.fields.amount = tConsole(lang, form.amount.trim() ? 'console.customer.rule.amount' : 'console.customer.rule.amountMissing');
  if (Object.keys(errors.fields).length) return { ok: false, status: 400, errors };

  const body = form.action === 'set' ? { setPoints: amount!, note } : { balanceCorrection: form.action === 'remove' ? -amount! : amount!, note };
  const parsed = v.safeParse(AdjustBody, body, { abortEarly: false });
  try {
    if (!parsed.success) throw validationFailed(toIssues(parsed.issues));
    const input = { customer, source: 'console' as const, note };
    const result =
      parsed.output.setPoints !== undefined
        ? adjust(deps, { ...input, setPoints: toHundredths(parsed.output.setPoints) })
        : adjust(deps, { ...input, balanceCorrection: toHundredths(parsed.output.balanceCorrection) });
    return { ok: true, result };
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    return { ok: false, status: err.status, errors: renamed(consoleFormErrors(lang, err, Object.keys(FIELD_OF_PATH))) };
  }
}

/**
 * The customer of the console's namespace; one of the org's other mode or none at all is 404 with
 * what to do. `id` is the passUserId, bare (as the console's own links have it) or as the page
 * shows it and the API takes it, `pu_…`: an owner pastes what they see. A passUserId is base62,
 * so it never starts with `pu_` itself.
 */
export function findCustomer(deps: Pick<AppDeps, 'db'>, c: ConsoleContext, pasted: string): Customer {
  const id = pasted.startsWith('pu_') ? pasted.slice(3) : pasted;
  const found = findInNamespace(deps, c.namespace, id);
  if (found) return found;
  const elsewhere = findCustomerAnywhere(deps, id);
  if (elsewhere && elsewhere.orgId === c.org.id && elsewhere.erasedAt === null) {
    const mode = elsewhere.livemode ? 'live' : 'test';
    throw new ApiError(404, 'CUSTOMER_IN_OTHER_MODE', { detail: `this customer is in your ${mode} data: use "Switch to ${mode} data" at the top to see them`, reason: reason('otherMode', { mode }) });
  }
  throw new ApiError(404, 'CUSTOMER_NOT_FOUND', { detail: 'there is no such customer; find them in the customer list' });
}
