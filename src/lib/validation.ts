import * as v from 'valibot';
import { validationFailed, type ValidationIssue } from './errors';
import { reason, type Reason } from './reasons';

type AnySchema = v.GenericSchema<unknown, unknown>;
type Entries = Record<string, AnySchema>;

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

/** An absolute http:// or https:// address with a host: a webhook URL, a shop's privacy-policy link. */
export function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

const CHECK_REASONS = new WeakMap<object, Reason>();

/** valibot's `check` whose refusal carries `why` (lib/reasons.ts) beside its English message. */
export function checkWithReason<T>(requirement: (input: T) => boolean, message: string, why: Reason): v.CheckAction<T, string> {
  CHECK_REASONS.set(requirement, why);
  return v.check(requirement, message);
}

/**
 * The values of an issue: a check's given reason (checkWithReason), or those of a bound from
 * valibot's own record of it (its type and its requirement), whatever the schema's message says:
 * a text longer than its maximum, a number past its maximum.
 */
function issueReason(issue: v.BaseIssue<unknown>): Reason | undefined {
  const bound = (issue as { requirement?: unknown }).requirement;
  if (typeof bound === 'function') return CHECK_REASONS.get(bound);
  if (typeof bound !== 'number') return undefined;
  if (issue.type === 'max_length' && typeof issue.input === 'string') return reason('tooLong', { max: bound });
  if (issue.type === 'max_value') return reason('tooMuch', { max: bound });
  return undefined;
}

export function toIssues(issues: readonly v.BaseIssue<unknown>[]): ValidationIssue[] {
  return issues.map((i) => {
    const why = issueReason(i);
    return { path: issuePath(i), message: issueMessage(i), ...(why ? { reason: why } : {}) };
  });
}

// --- Bodies of several shapes ---

/** Why no shape fits a value: the field to name (none: the value itself) and what it must be. */
export interface NoShape {
  field?: string;
  message: string;
}

/**
 * A value of one of several complete shapes, say an earn body by amount, by spend or by items.
 * The document states it as a `oneOf` of the shapes: @valibot/to-json-schema writes a schema of
 * type `variant` that way, and code generators turn it into a union type.
 */
export interface OneOfSchema<TShapes extends readonly AnySchema[]>
  extends v.BaseSchema<v.InferInput<TShapes[number]>, v.InferOutput<TShapes[number]>, v.InferIssue<TShapes[number]> | v.VariantIssue> {
  readonly type: 'variant';
  readonly reference: typeof oneOf;
  readonly options: TShapes;
  /** The shape a value evidently means, or why it fits none. */
  readonly pick: (input: unknown) => TShapes[number] | NoShape;
}

/**
 * Validates a value against the one shape `pick` names. Valibot's union tries every shape and, when
 * none fits, answers one "Invalid type" for the whole body; picking first keeps the messages of
 * that shape, field by field (`spend: required`, `items: only with from=items`).
 */
export function oneOf<const TShapes extends readonly [AnySchema, ...AnySchema[]]>(
  options: TShapes,
  pick: (input: unknown) => TShapes[number] | NoShape,
): OneOfSchema<TShapes> {
  return v._standardSchema<OneOfSchema<TShapes>>({
    kind: 'schema',
    type: 'variant',
    reference: oneOf,
    expects: v._joinExpects(options.map((o) => o.expects), '|'),
    async: false,
    options,
    pick,
    '~run'(dataset, config) {
      const input = dataset.value;
      const picked = this.pick(input);
      if ('~run' in picked) return picked['~run']({ value: input }, config) as v.OutputDataset<v.InferOutput<TShapes[number]>, v.InferIssue<TShapes[number]>>;
      const value = picked.field === undefined ? input : (input as Record<string, unknown>)[picked.field];
      const path: [v.ObjectPathItem] | undefined =
        picked.field === undefined ? undefined : [{ type: 'object', origin: 'value', input: input as Record<string, unknown>, key: picked.field, value }];
      v._addIssue(this, 'type', dataset, config, { input: value, message: picked.message, path });
      return dataset as unknown as v.OutputDataset<never, v.VariantIssue>;
    },
  });
}

/** The fields of an object value as a JSON body carries them (arrays and scalars have none). */
export const fieldsOf = (input: unknown): Readonly<Record<string, unknown>> =>
  input !== null && typeof input === 'object' && !Array.isArray(input) ? (input as Record<string, unknown>) : {};

// --- Query parameters ---

/** A whole number as a query string carries it: the plain decimal form only (`25`; not `025`, `2.5e1`, ` 25`). */
const PLAIN_WHOLE_NUMBER = /^(0|[1-9][0-9]{0,8})$/;

/**
 * A number read from a query string. Its type is `number`, so the document states what a client
 * sends — a number, which the client's library writes out — and not the string on the wire. It
 * takes the default too, which valibot hands over as a number.
 */
function queryNumber(message: string): v.BaseSchema<string | number, number, v.NumberIssue> {
  return v._standardSchema<v.BaseSchema<string | number, number, v.NumberIssue> & { type: 'number'; message: string }>({
    kind: 'schema',
    type: 'number',
    reference: queryNumber,
    expects: 'number',
    async: false,
    message,
    '~run'(dataset, config) {
      const input = dataset.value;
      if (typeof input === 'number' || (typeof input === 'string' && PLAIN_WHOLE_NUMBER.test(input))) {
        return { typed: true, value: Number(input) };
      }
      v._addIssue(this as unknown as v.NumberSchema<string>, 'type', dataset, config);
      return dataset as unknown as v.OutputDataset<number, v.NumberIssue>;
    },
  });
}

/** Every list pages up to this many rows. */
const MAX_PAGE_SIZE = 100;

/** `?limit=` of a list: a whole number from 1 to MAX_PAGE_SIZE, `fallback` when left out. */
export function pageLimit(fallback: number, what: string) {
  const max = MAX_PAGE_SIZE;
  const message = `must be a whole number from 1 to ${max}`;
  return v.optional(
    v.pipe(
      queryNumber(message),
      v.integer(message),
      v.minValue(1, message),
      v.maxValue(max, message),
      v.description(`${what}: a whole number, at least 1 and at most ${max} (default ${fallback}), written in plain decimal (\`25\`; not \`025\`, \`+25\` or \`2.5e1\`)`),
    ),
    fallback,
  );
}

// --- Parsing ---

/**
 * The fields a body object may have: a strict object's, or those of the shape a `oneOf` picks for
 * it; when it picks none, those of any shape (a field no shape knows is unknown whatever was meant).
 */
function strictEntries(schema: AnySchema, input: unknown): Entries | undefined {
  const s = schema as { type?: string; entries?: Entries; options?: AnySchema[]; pick?: (input: unknown) => AnySchema | NoShape };
  if (s.type === 'strict_object') return s.entries;
  if (s.type !== 'variant' || !s.pick) return undefined;
  const picked = s.pick(input);
  if ('~run' in picked) return strictEntries(picked, input);
  return Object.assign({}, ...(s.options ?? []).map((option) => strictEntries(option, input) ?? {})) as Entries;
}

/** Bodies are objects: a strict object, or shapes of which every one is. */
function takesObject(schema: AnySchema): boolean {
  const s = schema as { type?: string; options?: AnySchema[]; pick?: unknown };
  if (s.type === 'strict_object') return true;
  return s.type === 'variant' && s.pick !== undefined && (s.options ?? []).every(takesObject);
}

/**
 * Valibot's strictObject reports only the first unknown key even with abortEarly off. For a strict
 * top-level object (every request body) add the rest, so `{ name, email }` names both.
 */
function otherUnknownTopLevelKeys(schema: AnySchema, input: unknown, issues: ValidationIssue[]): ValidationIssue[] {
  const entries = strictEntries(schema, input);
  if (!entries || !input || typeof input !== 'object' || Array.isArray(input)) return [];
  const reported = new Set(issues.map((i) => i.path));
  return Object.keys(input)
    .filter((key) => !(key in entries) && !reported.has(key))
    .map((key) => ({ path: key, message: 'unknown field' }));
}

/** Parses or throws 400 VALIDATION_FAILED listing every issue (not just the first). */
export function parseInput<S extends AnySchema>(schema: S, input: unknown, pathPrefix = ''): v.InferOutput<S> {
  // Valibot's object schemas take an array as an object, so a `[]` body would pass as `{}`.
  if (Array.isArray(input) && takesObject(schema)) throw validationFailed([{ path: pathPrefix, message: 'must be a JSON object' }]);
  const result = v.safeParse(schema, input, { abortEarly: false });
  if (result.success) return result.output;
  const found = toIssues(result.issues);
  const all = [...found, ...otherUnknownTopLevelKeys(schema, input, found)];
  const issues = all.map((i) => ({ ...i, path: pathPrefix && i.path ? `${pathPrefix}.${i.path}` : pathPrefix || i.path }));
  throw validationFailed(issues);
}
