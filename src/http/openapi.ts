import { toJsonSchema } from '@valibot/to-json-schema';
import * as v from 'valibot';
import { ERROR_SCHEMAS, errorSchemaOf } from './error-schemas';
import { NO_BODY, type AnySchema, type RouteDef } from '../routing/route';

type Json = Record<string, unknown>;

// Two fixes to the converter's output. `v.never()` becomes `{ not: {} }`, which generators type
// as `unknown`; JSON Schema's `false` says the same ("no value fits") and they type it `never`, so
// a field a shape forbids stays forbidden in a generated client. And each schema names its
// dialect, which inside an OpenAPI 3.1 document is already the default.
const tidy = (key: string, value: unknown) => {
  if (key === '$schema') return undefined;
  return value && typeof value === 'object' && JSON.stringify(value) === '{"not":{}}' ? false : value;
};

const jsonSchema = (schema: AnySchema): Json =>
  JSON.parse(JSON.stringify(toJsonSchema(schema, { target: 'draft-2020-12', typeMode: 'input', errorMode: 'ignore' }), tidy)) as Json;

const errorRef = (name: string): Json => ({ $ref: `#/components/schemas/${name}` });

/**
 * The errors a route answers besides its own, derived from what it takes: every route the key,
 * scope and rate-limit refusals and the opaque 500; one with inputs VALIDATION_FAILED; one that
 * reads a body (POST, PATCH) INVALID_JSON, 413 and 415. The route's own codes are added to these,
 * never put in their place.
 */
function commonErrors(def: RouteDef): Record<string, string[]> {
  const readsBody = def.method === 'POST' || def.method === 'PATCH';
  const validation = `VALIDATION_FAILED: <paths> (with issues${closedQuery(def) ? '; also a query parameter this operation does not list' : ''})`;
  const hasInput = readsBody || def.params !== undefined || def.query !== undefined || def.idempotent === true;
  const errors: Record<string, string[]> = {
    401: ['MISSING_API_KEY', 'INVALID_API_KEY'],
    403: ['Missing scope(s): <scope>'],
    429: ['RATE_LIMITED (Retry-After gives the seconds to wait)'],
  };
  if (hasInput) errors[400] = [validation, ...(readsBody ? ['INVALID_JSON (malformed, not an object or array, or with a `__proto__` key anywhere)'] : [])];
  if (readsBody) {
    errors[413] = ['PAYLOAD_TOO_LARGE (bodies are limited to 64 KiB, also once decompressed)'];
    errors[415] = ['UNSUPPORTED_MEDIA_TYPE (the body is not UTF-8 application/json, or its Content-Encoding is not gzip, deflate or br)'];
  }
  errors[500] = ['INTERNAL_ERROR (with requestId; the details go to the server log)'];
  return errors;
}

const REQUEST_ID: Json = { 'X-Request-Id': { required: true, schema: { type: 'string' }, description: 'req_…, also in the server log; quote it when reporting a problem' } };
// Answers hold customer data and install links: no cache may keep one.
const NO_STORE: Json = { 'Cache-Control': { required: true, schema: { type: 'string', enum: ['no-store'] }, description: 'Never cached' } };
// Set by the rate-limit check, the first thing every /api request meets; only an unexpected
// failure (500) can come before it.
const RATE_HEADERS = (required: boolean): Json => ({
  'X-RateLimit-Limit': { required, schema: { type: 'integer' }, description: 'Requests per second allowed for this key' },
  'X-RateLimit-Remaining': { required, schema: { type: 'integer' }, description: 'Requests left in the current second' },
});
const RETRY_AFTER: Json = { 'Retry-After': { required: true, schema: { type: 'integer', minimum: 1 }, description: 'Seconds to wait before trying again' } };
const REPLAYED: Json = {
  'Idempotent-Replayed': { schema: { type: 'string', enum: ['true'] }, description: 'Present when this is the stored first answer to a request with the same Idempotency-Key' },
};

/**
 * The headers a response carries: the request id, no-store and the rate-limit pair always (a 500 may come
 * before the rate-limit check), Retry-After on 429, the replay marker where answers are kept (docs/api.md#idempotency).
 */
function headersFor(status: number, idempotent: boolean): Json {
  return {
    ...REQUEST_ID,
    ...NO_STORE,
    ...RATE_HEADERS(status < 500),
    ...(status === 429 ? RETRY_AFTER : {}),
    ...(idempotent && status < 500 && ![401, 403, 429].includes(status) ? REPLAYED : {}),
  };
}

/** The body schema of an error status: the one schema of its codes, or any of them. */
function errorSchema(codes: string[]): Json {
  const names = [...new Set(codes.map(errorSchemaOf))];
  return names.length === 1 ? errorRef(names[0]!) : { anyOf: names.map(errorRef) };
}

const codeOf = (text: string) => /^[^\s:(]+/.exec(text)?.[0] ?? text;

/** A strict query schema refuses parameters it does not list; other routes ignore them. */
const closedQuery = (def: RouteDef): boolean => (def.query as { type?: string } | undefined)?.type === 'strict_object';

/** `/v1/customers/:ref` → `/api/v1/customers/{ref}` */
export function openApiPath(koaPath: string): string {
  return `/api${koaPath.replace(/:([A-Za-z0-9_]+)/g, '{$1}')}`;
}

function parameters(def: RouteDef): Json[] {
  const out: Json[] = [];
  const add = (where: 'path' | 'query', schema: AnySchema | undefined) => {
    if (!schema) return;
    const js = jsonSchema(schema) as { properties?: Record<string, Json>; required?: string[] };
    for (const [name, prop] of Object.entries(js.properties ?? {})) {
      out.push({ name, in: where, required: where === 'path' || (js.required ?? []).includes(name), schema: prop, ...(prop.description ? { description: prop.description } : {}) });
    }
  };
  add('path', def.params);
  add('query', def.query);
  if (def.idempotent) {
    out.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      description:
        'Recommended. A retry with the same key (up to 255 characters, kept 24 h) returns the first response with `Idempotent-Replayed: true` and applies the write once. A longer key is 400 VALIDATION_FAILED; an empty one counts as none.',
      schema: { type: 'string', maxLength: 255 },
    });
  }
  return out;
}

/**
 * A POST or PATCH without a body schema takes none: at most `{}`, which the document says too. A
 * body is required unless `{}` would do, as a missing body is read as `{}` (bind.ts).
 */
function requestBody(def: RouteDef): Json {
  if (def.body) return { requestBody: { required: !v.safeParse(def.body, {}).success, content: { 'application/json': { schema: jsonSchema(def.body) } } } };
  if (def.method !== 'POST' && def.method !== 'PATCH') return {};
  const description = 'Takes no body. Send none, or an empty JSON object; any field is 400 VALIDATION_FAILED.';
  return { requestBody: { required: false, description, content: { 'application/json': { schema: jsonSchema(NO_BODY) } } } };
}

function operation(def: RouteDef): Json {
  const responses: Json = {};
  for (const [status, doc] of Object.entries(def.responses)) {
    responses[status] = {
      description: doc.description,
      headers: headersFor(Number(status), def.idempotent === true),
      ...(doc.schema ? { content: { 'application/json': { schema: jsonSchema(doc.schema) } } } : {}),
    };
  }
  const errors = commonErrors(def);
  for (const [status, codes] of Object.entries(def.errors ?? {})) {
    const known = errors[status] ?? [];
    // A route may name a common code again with its own detail: keep that wording, once.
    errors[status] = [...known.filter((k) => !codes.some((c) => codeOf(c) === codeOf(k))), ...codes];
  }
  for (const status of Object.keys(errors).sort()) {
    const codes = errors[status]!;
    responses[status] = { description: codes.join(', '), headers: headersFor(Number(status), def.idempotent === true), content: { 'application/json': { schema: errorSchema(codes.map(codeOf)) } } };
  }
  return {
    operationId: `${def.method.toLowerCase()}${def.path.replace(/[/:]([a-zA-Z])/g, (_m, c: string) => c.toUpperCase()).replace(/[^A-Za-z0-9]/g, '')}`,
    tags: [def.tag],
    summary: def.summary,
    ...(def.description ? { description: def.description } : {}),
    security: [{ ApiKey: [] }],
    'x-required-scope': def.scope,
    // JSON Schema's word for "nothing else", on the operation's query parameters as a whole.
    ...(closedQuery(def) ? { 'x-additional-query-parameters': false } : {}),
    parameters: parameters(def),
    ...requestBody(def),
    responses,
  };
}

/** The OpenAPI 3.1 document, built from the same definitions that validate requests. */
export function buildOpenApi(defs: readonly RouteDef[], publicUrl: string): Json {
  const paths: Record<string, Json> = {
    // The document describes itself too, so every /api route is in it.
    '/api/openapi.json': {
      get: {
        operationId: 'getOpenApiDocument',
        tags: ['Meta'],
        summary: 'This OpenAPI 3.1 document',
        description: 'Needs no key; limited per client address like other calls without a key.',
        security: [],
        responses: {
          200: { description: 'The document', headers: headersFor(200, false), content: { 'application/json': { schema: { type: 'object', required: ['openapi', 'info', 'paths'] } } } },
          429: { description: 'RATE_LIMITED (Retry-After gives the seconds to wait)', headers: headersFor(429, false), content: { 'application/json': { schema: errorRef('Error') } } },
        },
      },
    },
  };
  for (const def of defs) {
    const path = openApiPath(def.path);
    paths[path] = { ...(paths[path] ?? {}), [def.method.toLowerCase()]: operation(def) };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Wallet Loyalty integration API',
      version: '1',
      description: 'Enroll customers on loyalty cards, award and redeem stamps, points or store credit, and receive signed webhooks. Every path needs X-Api-Key.',
    },
    servers: [{ url: publicUrl }],
    components: {
      securitySchemes: { ApiKey: { type: 'apiKey', in: 'header', name: 'X-Api-Key' } },
      schemas: Object.fromEntries(Object.entries(ERROR_SCHEMAS).map(([name, schema]) => [name, jsonSchema(schema)])),
    },
    paths,
  };
}
