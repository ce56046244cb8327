import type { Context } from 'koa';
import * as v from 'valibot';
import { ApiError, type Reason } from '../lib/errors';
import { toIssues } from '../lib/validation';
import { readBodyBytes } from '../routing/json-body';

// HTML forms post application/x-www-form-urlencoded. Their bytes are read by the same reader as
// JSON bodies (routing/json-body.ts: 64 KiB, Content-Encoding), then decoded as UTF-8 only (a byte
// sequence that is not UTF-8 is refused, never mangled).

export const FORM_LIMIT_BYTES = 64 * 1024;

export type FormFields = Record<string, string | string[]>;

/** The posted fields; a name sent twice (checkbox groups) becomes an array. */
export async function readForm(ctx: Context, limit = FORM_LIMIT_BYTES): Promise<FormFields> {
  if (!ctx.request.is('application/x-www-form-urlencoded')) {
    throw new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE', { detail: 'send the form as application/x-www-form-urlencoded' });
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode((await readBodyBytes(ctx, limit)) ?? Buffer.alloc(0));
  } catch (err) {
    if (err instanceof ApiError) throw err;
    throw new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE', { detail: 'the form is not UTF-8' });
  }
  const fields: FormFields = Object.create(null);
  for (const [name, value] of new URLSearchParams(text)) {
    const existing = fields[name];
    if (existing === undefined) fields[name] = value;
    else fields[name] = Array.isArray(existing) ? [...existing, value] : [existing, value];
  }
  return fields;
}

/** One field as text ('' when absent; the first when sent twice). */
export function field(fields: FormFields, name: string): string {
  const value = fields[name];
  return (Array.isArray(value) ? value[0] : value) ?? '';
}

/** Every value of a field (checkbox groups, repeated rows). */
export function fieldAll(fields: FormFields, name: string): string[] {
  const value = fields[name];
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}

/** What a form shows after a refused submit: a message per field, and one for the whole form. */
export interface FormErrors {
  fields: Record<string, string>;
  form?: string;
  /** A service's messages above as values (lib/reasons.ts), by field and for the form: what a page in another language words them from. */
  reasons?: { fields: Record<string, Reason>; form?: Reason };
}

export const noErrors = (): FormErrors => ({ fields: {} });

export function hasErrors(errors: FormErrors): boolean {
  return errors.form !== undefined || Object.keys(errors.fields).length > 0;
}

/**
 * A service's refusal as form errors: VALIDATION_FAILED issues land on their fields (paths are
 * the form's field names, e.g. `reward.cost`), an error naming a `field` lands there, anything
 * else is a message for the whole form. The message is the one the API gives, without its code.
 */
export function formErrorsFrom(err: ApiError, fieldNames?: readonly string[]): FormErrors {
  const errors = noErrors();
  if (err.code === 'VALIDATION_FAILED' && Array.isArray(err.extra.issues)) {
    for (const issue of err.issues) {
      const name = issue.path;
      if (!fieldNames || fieldNames.includes(name)) addFieldError(errors, name, issue.message, issue.reason);
      else addFormError(errors, `${name}: ${issue.message}`, issue.reason);
    }
    return errors;
  }
  const named = err.extra.field;
  const message = humanMessage(err);
  if (typeof named === 'string') addFieldError(errors, named, message, err.reason);
  else addFormError(errors, message, err.reason);
  return errors;
}

/** The errors' reasons, made when the first one is added. */
const withReasons = (errors: FormErrors): NonNullable<FormErrors['reasons']> => (errors.reasons ??= { fields: {} });

/** Puts `message` (and its reason, when it has one) on field `name`, unless that field has a message already. */
export function addFieldError(errors: FormErrors, name: string, message: string, reason?: Reason): void {
  if (name in errors.fields) return;
  errors.fields[name] = message;
  if (reason) withReasons(errors).fields[name] = reason;
}

/** Puts `message` (and its reason) on the form as a whole, unless it has a message already. */
export function addFormError(errors: FormErrors, message: string, reason?: Reason): void {
  if (errors.form !== undefined) return;
  errors.form = message;
  if (reason) withReasons(errors).form = reason;
}

/** "AWARD_WAIT_ACTIVE: this card awards …" → "This card awards …". */
export function humanMessage(err: ApiError): string {
  const text = err.message.startsWith(`${err.code}: `) ? err.message.slice(err.code.length + 2) : err.message === err.code ? err.code.replace(/_/g, ' ').toLowerCase() : err.message;
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Validates form input with a valibot schema; issues come back per field. */
export function parseForm<S extends v.GenericSchema>(schema: S, input: unknown): { ok: true; value: v.InferOutput<S> } | { ok: false; errors: FormErrors } {
  const result = v.safeParse(schema, input, { abortEarly: false });
  if (result.success) return { ok: true, value: result.output };
  const errors = noErrors();
  for (const issue of toIssues(result.issues)) {
    addFieldError(errors, issue.path || 'form', issue.message, issue.reason);
  }
  return { ok: false, errors };
}
