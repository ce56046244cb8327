import * as v from 'valibot';
import { validationFailed, type ValidationIssue } from '../http/errors';

type AnySchema = v.GenericSchema<unknown, unknown>;

/** `orgs[0].cards[1].passType` — the form used in every VALIDATION_FAILED and CLI message. */
export function issuePath(issue: v.BaseIssue<unknown>): string {
  let out = '';
  for (const item of issue.path ?? []) {
    const key = item.key as unknown;
    out += typeof key === 'number' ? `[${key}]` : out ? `.${String(key)}` : String(key);
  }
  return out;
}

function issueMessage(issue: v.BaseIssue<unknown>): string {
  // Valibot words an unknown key of a strict object as "Expected never"; say what it means.
  if (issue.type === 'strict_object' && issue.expected === 'never') return 'unknown field';
  // …and a missing key as `Invalid key: Expected "name" but received undefined`.
  if (issue.kind === 'schema' && (issue.type === 'object' || issue.type === 'strict_object') && issue.received === 'undefined') return 'required';
  return issue.message;
}

export function toIssues(issues: readonly v.BaseIssue<unknown>[]): ValidationIssue[] {
  return issues.map((i) => ({ path: issuePath(i), message: issueMessage(i) }));
}

/** Parses or throws 400 VALIDATION_FAILED listing every issue (not just the first). */
export function parseInput<S extends AnySchema>(schema: S, input: unknown, pathPrefix = ''): v.InferOutput<S> {
  const result = v.safeParse(schema, input, { abortEarly: false });
  if (result.success) return result.output;
  const issues = toIssues(result.issues).map((i) => ({ ...i, path: pathPrefix && i.path ? `${pathPrefix}.${i.path}` : pathPrefix || i.path }));
  throw validationFailed(issues);
}
