import * as v from 'valibot';
import { validationFailed, type ValidationIssue } from './errors';

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

const strictEntries = (schema: AnySchema) =>
  (schema as { type?: string }).type === 'strict_object' ? (schema as { entries?: Record<string, unknown> }).entries : undefined;

/**
 * Valibot's strictObject reports only the first unknown key even with abortEarly off. For a strict
 * top-level object (every request body) add the rest, so `{ name, email }` names both.
 */
function otherUnknownTopLevelKeys(schema: AnySchema, input: unknown, issues: ValidationIssue[]): ValidationIssue[] {
  const entries = strictEntries(schema);
  if (!entries || !input || typeof input !== 'object' || Array.isArray(input)) return [];
  const reported = new Set(issues.map((i) => i.path));
  return Object.keys(input)
    .filter((key) => !(key in entries) && !reported.has(key))
    .map((key) => ({ path: key, message: 'unknown field' }));
}

/** Parses or throws 400 VALIDATION_FAILED listing every issue (not just the first). */
export function parseInput<S extends AnySchema>(schema: S, input: unknown, pathPrefix = ''): v.InferOutput<S> {
  // Valibot's object schemas take an array as an object, so a `[]` body would pass as `{}`.
  if (Array.isArray(input) && strictEntries(schema)) throw validationFailed([{ path: pathPrefix, message: 'must be a JSON object' }]);
  const result = v.safeParse(schema, input, { abortEarly: false });
  if (result.success) return result.output;
  const found = toIssues(result.issues);
  const all = [...found, ...otherUnknownTopLevelKeys(schema, input, found)];
  const issues = all.map((i) => ({ ...i, path: pathPrefix && i.path ? `${pathPrefix}.${i.path}` : pathPrefix || i.path }));
  throw validationFailed(issues);
}
