import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { seedStandardOrg, startTestApp, type StandardOrg, type TestApp, type TestResponse } from './support/app';
import { ISO_TIME } from '../src/sweeps/schemas';

// The contract, read from the served GET /api/openapi.json alone: for every operation, requests
// that break one documented rule (a length, a pattern, a bound, an enum, a required or forbidden
// field, a decimal) must be refused with 400, and requests the document allows must never be
// refused with VALIDATION_FAILED. The probes are made from the document's own schemas, starting
// from one valid request per operation and changing one value at a time; Ajv, taught what the
// document's extensions mean (x-max-decimals, x-max-decimals-by-card-type and
// x-additional-query-parameters), says which of them the document allows. A rule the server
// enforces but the document does not state shows up as an allowed probe the server refuses; a
// stated rule the server does not keep, as the opposite.
//
// The document is also read as a validating proxy (Prism) or a plain Ajv reads it, knowing no
// extension: every refusal it misses must be one of the few rules JSON Schema has no word for
// (decimals that depend on the customer's card, "at most 2 decimals" of a sum of money, no
// unlisted query parameter), never a length, a pattern, a type or a bound.

type Json = Record<string, any>;
type Place = 'path' | 'query' | 'header' | 'body';
type Key = string | number;

/** A request as the document sees it. `cardType` is the card behind the ref or cardId. */
interface Req {
  path: Record<string, string>;
  query: Record<string, unknown>;
  header: Record<string, string>;
  body?: unknown;
  cardType?: string;
  /** The questions of the card the request is about (a rule may name one of them). */
  questions?: { key: string; type: string }[];
  /** Sent with the test key (the sandbox's own operations); the live key otherwise. */
  testKey?: boolean;
}

const ABSENT = Symbol('absent');
interface Probe {
  place: Place;
  at: Key[];
  value: unknown;
  what: string;
}

// --- What the document says of a request ---

/** Digits after the point in the shortest decimal form (Infinity for 1e-7 and the like). */
function decimalsOf(n: number): number {
  const text = String(n);
  if (text.includes('e')) return Number.isInteger(n) ? 0 : Infinity;
  const dot = text.indexOf('.');
  return dot === -1 ? 0 : text.length - dot - 1;
}

/** The card type the request at hand is about: the extensions read it while Ajv validates. */
let cardTypeInPlay: string | undefined;
/** …and its questions. */
let questionsInPlay: { key: string; type: string }[] | undefined;

/** The document as a proxy or a generated client reads it: JSON Schema alone, `x-` keywords ignored. */
function standardValidator(coerceTypes: boolean): Ajv2020 {
  return new Ajv2020({ strict: false, allErrors: true, coerceTypes });
}

/** The document with its extensions understood. */
function documentValidator(coerceTypes: boolean): Ajv2020 {
  const ajv = standardValidator(coerceTypes);
  ajv.addKeyword({ keyword: 'x-max-decimals', schemaType: 'number', validate: (max: number, data: unknown) => typeof data !== 'number' || decimalsOf(data) <= max });
  ajv.addKeyword({
    keyword: 'x-max-decimals-by-card-type',
    schemaType: 'object',
    validate: (byType: Record<string, number>, data: unknown) => typeof data !== 'number' || cardTypeInPlay === undefined || decimalsOf(data) <= (byType[cardTypeInPlay] ?? Infinity),
  });
  // The key of one of the card's questions of that type (the birthday's date question).
  ajv.addKeyword({
    keyword: 'x-question-type',
    schemaType: 'string',
    validate: (type: string, data: unknown) =>
      typeof data !== 'string' || questionsInPlay === undefined || questionsInPlay.some((q) => q.key.toLowerCase() === data.toLowerCase() && q.type === type),
  });
  return ajv;
}

type Reader = 'extended' | 'standard';
// A query value travels as text; a validator of requests reads it back as the documented type.
const validators = {
  extended: { plain: documentValidator(false), fromQuery: documentValidator(true) },
  standard: { plain: standardValidator(false), fromQuery: standardValidator(true) },
};
const compiled = new Map<string, Map<object, ValidateFunction>>();
function allows(schema: Json | boolean, value: unknown, query = false, reader: Reader = 'extended'): boolean {
  if (typeof schema === 'boolean') return schema;
  const which = query ? 'fromQuery' : 'plain';
  const cache = compiled.get(`${reader} ${which}`) ?? compiled.set(`${reader} ${which}`, new Map()).get(`${reader} ${which}`)!;
  let validate = cache.get(schema);
  if (!validate) {
    validate = validators[reader][which].compile(schema);
    cache.set(schema, validate);
  }
  return validate(value);
}

/** Why the document refuses the request; empty when it allows it. */
function documentRefusals(op: Json, req: Req, reader: Reader = 'extended'): string[] {
  cardTypeInPlay = req.cardType;
  questionsInPlay = req.questions;
  const out: string[] = [];
  for (const p of op.parameters as Json[]) {
    const place = p.in as 'path' | 'query' | 'header';
    const value = req[place][p.name];
    if (value === undefined) {
      if (p.required) out.push(`${p.name} is required`);
    } else if (!allows(p.schema, String(value), place === 'query', reader)) out.push(`${p.name} breaks its schema`);
  }
  if (reader === 'extended' && op['x-additional-query-parameters'] === false) {
    const listed = new Set((op.parameters as Json[]).filter((p) => p.in === 'query').map((p) => p.name));
    for (const name of Object.keys(req.query)) if (!listed.has(name)) out.push(`query parameter ${name} is not listed`);
  }
  const bodySchema = op.requestBody?.content?.['application/json']?.schema;
  if (req.body === undefined) {
    if (op.requestBody?.required) out.push('the body is required');
  } else if (!bodySchema || !allows(bodySchema, req.body, false, reader)) out.push('the body breaks its schema');
  return out;
}

// --- Probes: one value changed at a time ---

/**
 * Values to try against each documented pattern (the document decides which it allows), and a
 * way to make a string of a given length that the pattern allows, for the length bounds. A new
 * pattern in the document fails the test until it has its row here.
 */
const PATTERNS: Record<string, { values: string[]; ofLength?: (n: number) => string }> = {
  [/^[A-Za-z]{3}$/.source]: { values: ['EUR', 'usd', 'EURO', 'EU', 'E1R', '€UR'] },
  [/^(pu_|email:|phone:)/.source]: { values: ['pu_abc', 'email:ada@example.com', 'phone:+4912345678', 'upu_abc', 'emails', 'Pu_abc'] },
  // Webhook URLs.
  [/^\s*[Hh][Tt][Tt][Pp][Ss]?:[/\\]*[^\s/\\?#@:][^\s/\\?#@]*(?:[/\\?#]|\s*$)/.source]: {
    values: [
      'https://example.com/hook',
      'HTTP://example.com/h?x=1#y',
      ' https://example.com ',
      'https:example.com/h',
      'https://example.com:8443',
      'https://[2001:db8::1]/h',
      'https://example.com/a@b',
      'https://example.com\\@other.example/',
      'ftp://example.com/hook',
      'example.com/hook',
      'https://',
      'https://:80/',
      'https://user:pass@example.com/hook',
      'https://user@example.com/hook',
      'https://a@b@example.com/',
      'https://exa mple.com/',
    ],
    ofLength: (n) => `https://example.com/${'x'.repeat(n - 20)}`,
  },
  // Enroll's email.
  [/^\s*(?:[^\s@".]+(?:\.[^\s@".]+)*@[^\s@.]+(?:\.[^\s@.]+)+)?\s*$/.source]: {
    values: ['ada@example.com', 'Ada.L+x@Example.COM', 'jörg@bücher.de', 'a@xn--bcher-kva.de', '', ' ada@example.com ', 'nope', 'ada@', '@example.com', 'ada@example', 'ada@example.com.', 'a b@example.com', '"john doe"@example.com', '.ada@example.com', 'a..b@example.com'],
    ofLength: (n) => {
      // `a@`, labels of at most 63 characters and `.com`: an address of n octets.
      const labels: string[] = [];
      let left = n - 6;
      while (left > 0) {
        const take = left - 63 === 1 ? 62 : Math.min(63, left);
        labels.push('x'.repeat(take));
        left -= take + 1;
      }
      return `a@${[...labels, 'com'].join('.')}`;
    },
  },
  // The transactions cursor.
  [/^([0-9]{1,15})-([0-9]{1,15})$/.source]: {
    values: ['1700000000000-42', '1-1', '123456789012345-123456789012345', '0-0', 'garbage', '1-', '-1', '1234567890123456-1', '1-1234567890123456', '1.1', '1-2-3', ' 1-1', '1-1 ', '١-1', 'MTcwMDAwMDAwMDAwMC4x'],
  },
  // A card's reward ids. A well-formed id the card does not have is refused too (its description
  // says so): that depends on the card, so the base requests send the card's own ids, and only
  // malformed ones are tried here.
  [/^rw_[0-9A-Za-z]{20}$/.source]: { values: ['rw_short', `rw_${'A'.repeat(21)}`, `RW_${'A'.repeat(20)}`, `rw-${'A'.repeat(20)}`, `rw_${'A'.repeat(19)}!`, ''] },
  // Promotion dates (2000–2099). The valid ones lie between the base requests' startsAt
  // (2026-01-01) and endsAt (2030-12-31), so that endsAt stays after startsAt, a rule between two
  // fields the description states.
  [/^(?:20\d{2}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\d|30)|02-(?:0[1-9]|1\d|2[0-8]))|20(?:[02468][048]|[13579][26])-02-29)$/.source]: {
    values: ['2026-06-15', '2028-02-29', '2030-12-31', '2027-02-29', '2026-04-31', '2026-13-01', '2026-00-10', '2026-1-5', '26-01-01', '1999-12-31', '2100-01-01', '2026-06-15T00:00:00Z', ''],
  },
  // A promotion's hours: from before the base requests' to (17:00), to after their from (14:00).
  [/^(?:[01]\d|2[0-3]):[0-5]\d$/.source]: { values: ['00:00', '09:30', '13:59', '24:00', '7:00', '14:60', '25:00', '1400', '14:00:00', ''] },
  [/^(?:00:(?:0[1-9]|[1-5]\d)|(?:0[1-9]|1\d|2[0-3]):[0-5]\d|24:00)$/.source]: { values: ['17:01', '23:59', '24:00', '00:00', '24:01', '7:00', '17:60', '1700', ''] },
  // The test clock's `to`: times after the clock (each probe starts from a clock reset to real time).
  [ISO_TIME.source]: { values: ['2026-06-01T09:00:00Z', '2026-06-01T09:00Z', '2026-06-01T09:00:00.250+02:00', '2026-06-01T09:00:00-05:30', '2026-06-01', '2026-06-01T09:00:00', '2026-06-01 09:00:00Z', 'tomorrow', '2026-6-1T09:00Z'] },
};

/** Patterns to try a value against, and the values to try. */
function patternRow(pattern: string) {
  const row = PATTERNS[pattern];
  assert.ok(row, `the document has a pattern this test has no values for; add a row to PATTERNS: ${JSON.stringify(pattern)}`);
  return row;
}

const branchesOf = (schema: Json): Json[] | undefined => schema.oneOf ?? schema.anyOf;

/** A value the schema allows, to start from where the base request leaves a field out. */
function sample(schema: Json | boolean): unknown {
  if (typeof schema === 'boolean') return undefined;
  const branches = branchesOf(schema);
  if (branches) return sample(branches.find((b) => b.type !== 'null') ?? branches[0]!);
  if ('const' in schema) return schema.const;
  if (schema.enum) return schema.enum[0];
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'string':
      if (!schema.pattern) return 'x'.repeat(Math.max(schema.minLength ?? 1, 1));
      return patternRow(schema.pattern).ofLength?.(Math.max(schema.minLength ?? 1, 24)) ?? patternRow(schema.pattern).values[0];
    case 'number':
    case 'integer':
      return Math.max(1, schema.minimum ?? -Infinity);
    case 'object':
      return Object.fromEntries((schema.required ?? []).map((name: string) => [name, sample(schema.properties[name])]));
    case 'array':
      return Array.from({ length: Math.max(schema.minItems ?? 1, 1) }, () => sample(schema.items));
    default:
      return undefined;
  }
}

/** Probes for one value and everything inside it, each changing one thing. */
function probesOf(schema: Json | boolean, value: unknown, place: Place, at: Key[]): Probe[] {
  const out: Probe[] = [];
  const put = (v: unknown, what: string, where: Key[] = at) => out.push({ place, at: where, value: v, what });
  if (typeof schema === 'boolean') {
    if (!schema) put(1, 'a field this shape forbids');
    return out;
  }
  const branches = branchesOf(schema);
  if (branches) {
    if (branches.some((b) => b.type === 'null')) put(null, 'null');
    const open = branches.filter((b) => b.type !== 'null');
    const branch = value === undefined ? open[0]! : (open.find((b) => allows(b, value)) ?? open[0]!);
    return [...out, ...probesOf(branch, value, place, at)];
  }
  if (value === undefined) {
    // Left out of the base: start from a sample, and change it as a whole.
    const sampled = sample(schema);
    if (sampled === undefined) return out;
    put(sampled, 'a value of the documented shape');
    const inside = probesOf(schema, sampled, place, []);
    return [...out, ...inside.map((p) => ({ ...p, at, value: setIn(sampled, p.at, p.value) }))];
  }
  const onWire = place !== 'body';
  const type = Array.isArray(schema.type) ? undefined : schema.type;

  if ('const' in schema) put(`${String(schema.const)}x`, 'another constant');
  if (schema.enum) {
    for (const member of schema.enum) put(member, `enum member ${JSON.stringify(member)}`);
    put(`${String(schema.enum[0])}x`, 'not an enum member');
  }
  if (type === 'string') {
    const ofLength = (n: number) => (schema.pattern ? (patternRow(schema.pattern).ofLength?.(n) ?? 'x'.repeat(n)) : 'x'.repeat(n));
    // An empty path segment is another URL, not this operation with an empty value.
    const least = place === 'path' ? 1 : 0;
    if (schema.minLength !== undefined && schema.minLength > least) put(ofLength(schema.minLength - 1), `${schema.minLength - 1} characters`);
    if (schema.minLength !== undefined && schema.minLength > 0) put(ofLength(schema.minLength), `${schema.minLength} characters`);
    if (schema.maxLength !== undefined) {
      put(ofLength(schema.maxLength), `${schema.maxLength} characters`);
      put(ofLength(schema.maxLength + 1), `${schema.maxLength + 1} characters`);
    }
    if (schema.pattern) for (const v of patternRow(schema.pattern).values) put(v, `${JSON.stringify(v)} against the pattern`);
    if (schema.not?.pattern) for (const v of patternRow(schema.not.pattern).values) put(v, `${JSON.stringify(v)} against the refused pattern`);
    if (!onWire) put(1, 'a number for a string');
  }
  if ((type === 'number' || type === 'integer') && typeof value === 'number') {
    const step = type === 'integer' ? 1 : 0.01;
    if (schema.minimum !== undefined) {
      put(schema.minimum, `the minimum ${schema.minimum}`);
      put(schema.minimum - 1, `below the minimum ${schema.minimum}`);
    }
    if (schema.exclusiveMinimum !== undefined) {
      put(schema.exclusiveMinimum, `the exclusive minimum ${schema.exclusiveMinimum}`);
      put(schema.exclusiveMinimum + step, `just above the exclusive minimum ${schema.exclusiveMinimum}`);
    }
    if (schema.maximum !== undefined) {
      put(schema.maximum, `the maximum ${schema.maximum}`);
      put(schema.maximum + 1, `above the maximum ${schema.maximum}`);
    }
    if (schema.not && 'const' in schema.not) put(schema.not.const, `the refused value ${schema.not.const}`);
    // Fractions: JSON numbers have them whatever the type says; the decimals rules decide.
    for (const fraction of [0.5, 0.25, 0.125]) put(value + fraction, `${value + fraction} (a fraction)`);
    put(onWire ? 'ten' : String(value), 'a string for a number');
  }
  if (type === 'object' && value && typeof value === 'object' && !Array.isArray(value)) {
    const fields = value as Record<string, unknown>;
    for (const name of schema.required ?? []) put(ABSENT, `without the required ${name}`, [...at, name]);
    for (const [name, sub] of Object.entries((schema.properties ?? {}) as Record<string, Json | boolean>)) {
      out.push(...probesOf(sub, fields[name], place, [...at, name]));
      if (sub !== false && fields[name] !== undefined && !(schema.required ?? []).includes(name)) put(ABSENT, `without the optional ${name}`, [...at, name]);
    }
    if (schema.additionalProperties === false) put(1, 'an unknown field', [...at, 'surelyUnknown']);
    else if (schema.additionalProperties) {
      for (const v of ['x', 1, true, null, [], {}]) put(v, `an extra entry ${JSON.stringify(v)}`, [...at, 'surelyUnknown']);
    }
    put([], 'an array for an object');
  }
  if (type === 'array' && Array.isArray(value)) {
    const first = value[0] ?? sample(schema.items);
    const many = (n: number) => Array.from({ length: n }, () => structuredClone(first));
    if (schema.minItems !== undefined && schema.minItems > 0) put(many(schema.minItems - 1), `${schema.minItems - 1} items`);
    if (schema.maxItems !== undefined) {
      put(many(schema.maxItems), `${schema.maxItems} items`);
      put(many(schema.maxItems + 1), `${schema.maxItems + 1} items`);
    }
    if (schema.items !== undefined) out.push(...probesOf(schema.items, first, place, [...at, 0]));
    put('x', 'a string for an array');
  }
  return out;
}

/** Every probe of an operation, from one base request of it. */
function probesOfOperation(op: Json, base: Req): Probe[] {
  const out: Probe[] = [];
  for (const p of op.parameters as Json[]) {
    const place = p.in as 'path' | 'query' | 'header';
    out.push(...probesOf(p.schema, base[place][p.name], place, [p.name]));
    if (!p.required && base[place][p.name] !== undefined) out.push({ place, at: [p.name], value: ABSENT, what: `without ${p.name}` });
  }
  out.push({ place: 'query', at: ['surelyUnknown'], value: '1', what: 'an unlisted query parameter' });
  const bodySchema = op.requestBody?.content?.['application/json']?.schema;
  if (op.requestBody) {
    out.push(...probesOf(bodySchema, base.body, 'body', []));
    if (base.body !== undefined) out.push({ place: 'body', at: [], value: ABSENT, what: 'no body' });
  }
  return out;
}

/** `root` with the value at `at` replaced (ABSENT: removed). */
function setIn(root: unknown, at: Key[], value: unknown): unknown {
  if (at.length === 0) return value;
  const out: any = structuredClone(root);
  let holder = out;
  for (const key of at.slice(0, -1)) holder = holder[key];
  if (value === ABSENT) delete holder[at[at.length - 1]!];
  else holder[at[at.length - 1]!] = structuredClone(value);
  return out;
}

function applyProbe(req: Req, probe: Probe): Req {
  const out: Req = structuredClone(req);
  if (probe.place !== 'body') out[probe.place] = setIn(out[probe.place], probe.at, probe.value) as Record<string, string>;
  else {
    const body = setIn(out.body, probe.at, probe.value);
    out.body = body === ABSENT ? undefined : body;
  }
  return out;
}

// --- The operations: one or more valid requests each, made fresh for every probe ---

interface Fixture {
  app: TestApp;
  org: StandardOrg;
  uid(prefix: string): string;
  /** A new customer on the card (ref by externalCustomerId), so no probe meets another's balance. */
  customer(card: keyof StandardOrg['cards'], initialPoints?: number): Promise<string>;
  webhookId: string;
  deliveryId: string;
  stampsCustomer: string;
  /** A promotion of the stamps card that the reads and PATCH probes act on. */
  promotionId: string;
  stampsQuestions: { key: string; type: string }[];
}

const CARD_TYPES = { stamps: 'stamp_card', points: 'point_card', levels: 'level_card', prepaid: 'prepaid_card' } as const;

interface Base {
  name: string;
  make(f: Fixture): Promise<Req>;
  /** Undo what the base or an accepted probe made, where later probes would meet it (the 20-endpoint limit). */
  cleanup?(f: Fixture, base: Req, res?: TestResponse): Promise<void>;
}

const req = (parts: Partial<Req>): Req => ({ path: {}, query: {}, header: {}, ...parts });
const onCustomer = (card: keyof typeof CARD_TYPES, body: unknown, initialPoints?: number): Base['make'] => async (f) =>
  req({ path: { ref: await f.customer(card, initialPoints) }, body, cardType: CARD_TYPES[card] });
const deleteCreatedWebhook = async (f: Fixture, _base: Req, res?: TestResponse) => {
  if (res?.status === 201) await f.app.request('DELETE', `/api/v1/webhooks/${res.body.id}`, { key: f.org.keys.live });
};
const deleteBaseWebhook = async (f: Fixture, base: Req) => {
  await f.app.request('DELETE', `/api/v1/webhooks/${base.path.id}`, { key: f.org.keys.live });
};
// The sandbox's clock back at real time, so every probe's `to` lies ahead of it.
const resetTestClock = async (f: Fixture) => void f.app.db.prepare('DELETE FROM test_clocks').run();
const freshWebhook = async (f: Fixture) => (await f.app.request('POST', '/api/v1/webhooks', { key: f.org.keys.live, body: { url: 'https://example.com/gone', events: ['*'] } })).body.id as string;
/** The stamps card's rewards as a PATCH sends them back: with their ids, so they are kept. */
const stampRewards = async (f: Fixture) => {
  const cards = await f.app.request('GET', '/api/v1/cards', { key: f.org.keys.live });
  return (cards.body.find((c: { cardId: string }) => c.cardId === f.org.cards.stamps).rewards as { id: string; name: string; cost: number }[]).slice(0, 1);
};
const PROMOTION = { name: 'Double stamps', kind: 'multiplier', value: 2, startsAt: '2026-01-01', endsAt: '2030-12-31', weekdays: [2, 4], hours: { from: '14:00', to: '17:00' } };
const promotionsPath = (f: Fixture) => `/api/v1/cards/${f.org.cards.stamps}/promotions`;
const freshPromotion = async (f: Fixture) => (await f.app.request('POST', promotionsPath(f), { key: f.org.keys.live, body: PROMOTION })).body.id as string;
/** Every promotion a probe made goes again, so the card stays below its limit of ones not ended. */
const deleteCreatedPromotion = async (f: Fixture, _base: Req, res?: TestResponse) => {
  if (res?.status === 201) await f.app.request('DELETE', `${promotionsPath(f)}/${res.body.id}`, { key: f.org.keys.live });
};
const resetPromotion = async (f: Fixture) => {
  const res = await f.app.request('PATCH', `${promotionsPath(f)}/${f.promotionId}`, { key: f.org.keys.live, body: PROMOTION });
  assert.equal(res.status, 200, res.text);
  return { cardId: f.org.cards.stamps, promotionId: f.promotionId };
};
const deleteBasePromotion = async (f: Fixture, base: Req) => {
  await f.app.request('DELETE', `${promotionsPath(f)}/${base.path.promotionId}`, { key: f.org.keys.live });
};

const OPERATIONS: Record<string, Base[]> = {
  'GET /api/v1/cards': [{ name: 'the list', make: async () => req({}) }],
  'PATCH /api/v1/cards/{cardId}': [
    { name: 'an identifier question', make: async (f) => req({ path: { cardId: f.org.cards.stamps }, body: { identifierQuestionKey: 'memberNo' }, questions: f.stampsQuestions, cardType: 'stamp_card' }) },
    {
      name: 'the program fields',
      make: async (f) =>
        req({
          path: { cardId: f.org.cards.stamps },
          body: { rewards: [...(await stampRewards(f)), { name: 'Cake', cost: 6, description: 'Any slice' }], flagAwardsPerDay: 6, unitValue: 0.3 },
          questions: f.stampsQuestions,
          cardType: 'stamp_card',
        }),
    },
    {
      name: 'expiry and a birthday treat',
      make: async (f) => req({ path: { cardId: f.org.cards.stamps }, body: { expiry: { inactiveDays: 90, remindDays: 7 }, birthday: { questionKey: 'birthday', units: 2 } }, questions: f.stampsQuestions, cardType: 'stamp_card' }),
    },
  ],
  'GET /api/v1/cards/{cardId}/promotions': [{ name: 'the list', make: async (f) => req({ path: { cardId: f.org.cards.stamps } }) }],
  'POST /api/v1/cards/{cardId}/promotions': [
    { name: 'a multiplier', make: async (f) => req({ path: { cardId: f.org.cards.stamps }, body: PROMOTION }), cleanup: deleteCreatedPromotion },
    {
      name: 'a bonus',
      make: async (f) => req({ path: { cardId: f.org.cards.stamps }, body: { name: 'Two more', kind: 'bonus', value: 2, startsAt: '2026-01-01', endsAt: '2030-12-31' } }),
      cleanup: deleteCreatedPromotion,
    },
  ],
  'GET /api/v1/cards/{cardId}/promotions/{promotionId}': [{ name: 'a promotion', make: async (f) => req({ path: { cardId: f.org.cards.stamps, promotionId: f.promotionId } }) }],
  // Each from the promotion as it was made: a probe before may have moved its dates.
  'PATCH /api/v1/cards/{cardId}/promotions/{promotionId}': [
    { name: 'the schedule', make: async (f) => req({ path: await resetPromotion(f), body: { name: 'Renamed', endsAt: '2030-12-31' } }) },
    { name: 'kind and value', make: async (f) => req({ path: await resetPromotion(f), body: { kind: 'bonus', value: 3 } }) },
  ],
  'DELETE /api/v1/cards/{cardId}/promotions/{promotionId}': [
    { name: 'a promotion', make: async (f) => req({ path: { cardId: f.org.cards.stamps, promotionId: await freshPromotion(f) } }), cleanup: deleteBasePromotion },
  ],
  'POST /api/v1/customers': [
    ...(['points', 'prepaid'] as const).map((card) => ({
      name: `a new customer on the ${card} card`,
      make: async (f: Fixture) =>
        req({ body: { externalCustomerId: f.uid('enroll'), cardId: f.org.cards[card], name: 'Ada', email: `${f.uid('ada')}@example.com`, initialPoints: 5 }, cardType: CARD_TYPES[card] }),
    })),
  ],
  'GET /api/v1/customers/lookup': [{ name: 'by email', make: async () => req({ query: { email: 'lookup@example.com' } }) }],
  'GET /api/v1/customers/{ref}': [{ name: 'a customer', make: async (f) => req({ path: { ref: f.stampsCustomer } }) }],
  'PATCH /api/v1/customers/{ref}': [
    { name: 'a new id', make: async (f) => req({ path: { ref: f.stampsCustomer }, body: { externalCustomerId: f.uid('renamed'), customFields: { nickname: 'Ada' } } }) },
  ],
  // A fresh customer for every probe: an accepted one erases it.
  'DELETE /api/v1/customers/{ref}': [{ name: 'a customer', make: async (f) => req({ path: { ref: await f.customer('points') } }) }],
  'POST /api/v1/customers/{ref}/earn': [
    { name: 'points by amount', make: onCustomer('points', { type: 'points', amount: 5, note: 'till 1' }) },
    { name: 'stamps by amount', make: onCustomer('stamps', { type: 'stamps', amount: 2 }) },
    { name: 'credit by amount', make: onCustomer('prepaid', { type: 'points', amount: 5 }) },
    // On the prepaid card: its rate (0.05) keeps the largest sale's change under 1,000,000,000, a
    // rule of the change (amount × rate) that the description states and a schema cannot.
    { name: 'credit by spend', make: onCustomer('prepaid', { type: 'points', from: 'spend', spend: { amount: 10, currency: 'EUR' } }) },
    { name: 'stamps by items', make: onCustomer('stamps', { type: 'stamps', from: 'items', items: [{ key: 'latte', quantity: 2 }] }) },
  ],
  'POST /api/v1/customers/{ref}/redeem': [
    { name: 'points', make: onCustomer('points', { type: 'points', amount: 5 }, 1000) },
    { name: 'credit', make: onCustomer('prepaid', { type: 'points', amount: 5 }, 1000) },
    { name: 'the reward', make: onCustomer('points', { type: 'reward' }, 1000) },
  ],
  'POST /api/v1/customers/{ref}/adjust': [
    // From a balance of 0, so the largest correction does not pass 1,000,000,000 (a rule of the balance).
    { name: 'a points correction', make: onCustomer('points', { balanceCorrection: 5 }) },
    { name: 'a credit correction', make: onCustomer('prepaid', { balanceCorrection: 5 }) },
    { name: 'setPoints', make: onCustomer('levels', { setPoints: 5 }) },
  ],
  'GET /api/v1/customers/{ref}/transactions': [
    { name: 'a page', make: async (f) => req({ path: { ref: f.stampsCustomer }, query: { limit: 10, cursor: '1700000000000-1' } }) },
  ],
  'POST /api/v1/webhooks': [
    { name: 'every event', make: async () => req({ body: { url: 'https://example.com/hook', events: ['*'] } }), cleanup: deleteCreatedWebhook },
    { name: 'named events', make: async () => req({ body: { url: 'https://example.com/hook', events: ['balance.updated'] } }), cleanup: deleteCreatedWebhook },
  ],
  'GET /api/v1/webhooks': [{ name: 'the list', make: async () => req({}) }],
  'GET /api/v1/webhooks/{id}': [{ name: 'an endpoint', make: async (f) => req({ path: { id: f.webhookId } }) }],
  'PATCH /api/v1/webhooks/{id}': [
    { name: 'every field', make: async (f) => req({ path: { id: f.webhookId }, body: { url: 'https://example.com/hook', events: ['*'], status: 'active' } }) },
  ],
  'DELETE /api/v1/webhooks/{id}': [{ name: 'an endpoint', make: async (f) => req({ path: { id: await freshWebhook(f) } }), cleanup: deleteBaseWebhook }],
  'GET /api/v1/webhooks/{id}/deliveries': [{ name: 'a page', make: async (f) => req({ path: { id: f.webhookId }, query: { limit: 10 } }) }],
  'POST /api/v1/webhooks/deliveries/{deliveryId}/replay': [{ name: 'a delivery', make: async (f) => req({ path: { deliveryId: f.deliveryId } }) }],
  'GET /api/v1/test_clock': [{ name: 'the clock', make: async () => req({ testKey: true }) }],
  'POST /api/v1/test_clock/advance': [
    {
      name: 'a month on',
      make: async (f) => {
        await resetTestClock(f);
        return req({ body: { to: '2026-02-01T00:00:00Z' }, testKey: true });
      },
      cleanup: resetTestClock,
    },
  ],
};

/**
 * The rules validating proxies (Prism, Ajv) saw the server enforce without the document saying so,
 * and how the document states each now: in JSON Schema's own words, which every validator and
 * generator reads, or, where only the customer's card decides, as an extension and in words.
 */
const KNOWN_REFUSALS: { what: string; operation: string; base: string; probe: Omit<Probe, 'what'>; stated: 'json-schema' | 'extension' }[] = [
  { what: 'a ref over 300 characters', operation: 'GET /api/v1/customers/{ref}', base: 'a customer', probe: { place: 'path', at: ['ref'], value: 'x'.repeat(301) }, stated: 'json-schema' },
  { what: 'a ref of 301 emoji', operation: 'POST /api/v1/customers/{ref}/earn', base: 'stamps by amount', probe: { place: 'path', at: ['ref'], value: '😀'.repeat(301) }, stated: 'json-schema' },
  { what: 'a fraction of a stamp', operation: 'POST /api/v1/customers/{ref}/earn', base: 'stamps by amount', probe: { place: 'body', at: ['amount'], value: 2.5 }, stated: 'json-schema' },
  { what: 'a fraction on a point card’s earn', operation: 'POST /api/v1/customers/{ref}/earn', base: 'points by amount', probe: { place: 'body', at: ['amount'], value: 2.5 }, stated: 'extension' },
  { what: 'a malformed cursor', operation: 'GET /api/v1/customers/{ref}/transactions', base: 'a page', probe: { place: 'query', at: ['cursor'], value: 'garbage' }, stated: 'json-schema' },
  { what: 'a cursor of the base64url form', operation: 'GET /api/v1/customers/{ref}/transactions', base: 'a page', probe: { place: 'query', at: ['cursor'], value: 'MTcwMDAwMDAwMDAwMC4x' }, stated: 'json-schema' },
  { what: 'a webhook URL with user:pass@', operation: 'POST /api/v1/webhooks', base: 'every event', probe: { place: 'body', at: ['url'], value: 'https://user:pass@example.com/hook' }, stated: 'json-schema' },
];

/**
 * Where a validator that knows no extension may let a request through that the server refuses:
 * decimals that depend on the customer's card (whole units on point and level cards, cents on
 * prepaid ones), "at most 2 decimals" of a sum of money and a multiplier's one decimal (multipleOf
 * misjudges binary numbers: Ajv refuses 0.07 and 1.1 with 0.01), a birthday key that must name one
 * of the card's own date questions (x-question-type), and no unlisted query parameter. By
 * operation, base request and probed field; anything else it lets through is a rule the document
 * fails to state.
 */
const ONLY_BY_EXTENSION: Record<string, string[]> = {
  'POST /api/v1/customers': ['a new customer on the points card: body initialPoints', 'a new customer on the prepaid card: body initialPoints'],
  'POST /api/v1/customers/{ref}/earn': ['points by amount: body amount', 'credit by amount: body amount', 'credit by spend: body spend.amount'],
  'POST /api/v1/customers/{ref}/redeem': ['points: body amount', 'credit: body amount'],
  'POST /api/v1/customers/{ref}/adjust': ['a points correction: body balanceCorrection', 'a credit correction: body balanceCorrection'],
  'GET /api/v1/customers/lookup': ['by email: query surelyUnknown'],
  'PATCH /api/v1/cards/{cardId}': ['an identifier question: body birthday', 'the program fields: body birthday', 'expiry and a birthday treat: body birthday.questionKey'],
  'POST /api/v1/cards/{cardId}/promotions': ['a multiplier: body value'],
  'GET /api/v1/customers/{ref}/transactions': ['a page: query surelyUnknown'],
};

/** The headers a response lacks or carries otherwise than the document says of it. */
function headerMismatches(op: Json, res: TestResponse): string[] {
  const documented = (op.responses[String(res.status)]?.headers ?? {}) as Record<string, Json>;
  const out: string[] = [];
  for (const [name, header] of Object.entries(documented)) {
    const value = res.headers.get(name);
    if (value === null) {
      if (header.required) out.push(`${res.status}: no ${name}`);
    } else if (!allows(header.schema, value, true, 'standard')) out.push(`${res.status}: ${name}: ${value} is not ${JSON.stringify(header.schema)}`);
  }
  return out;
}

function send(f: Fixture, operation: string, r: Req): Promise<TestResponse> {
  const [method, template] = operation.split(' ') as [string, string];
  const path = template.replace(/\{(\w+)\}/g, (_m, name: string) => encodeURIComponent(r.path[name]!));
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(r.query)) for (const one of [value].flat()) query.append(name, String(one));
  const url = query.size > 0 ? `${path}?${query}` : path;
  return f.app.request(method, url, { key: r.testKey ? f.org.keys.test : f.org.keys.live, body: r.body, headers: r.header });
}

const show = (v: unknown) => (v === ABSENT ? 'left out' : JSON.stringify(v)?.slice(0, 80));

describe('OpenAPI contract: the served document decides what the server refuses', () => {
  let app: TestApp;
  let doc: Json;
  let f: Fixture;
  const operationOf = (operation: string): Json => {
    const [method, path] = operation.split(' ') as [string, string];
    return doc.paths[path]?.[method.toLowerCase()];
  };

  before(async () => {
    // Enough requests per second for a probe run; the limiter is tested elsewhere.
    app = await startTestApp({ env: { RATE_LIMIT_LIVE: '100000' } });
    const org = seedStandardOrg(app);
    doc = (await app.request('GET', '/api/openapi.json')).body;
    let n = 0;
    const uid = (prefix: string) => `${prefix}-${++n}`;
    const customer = async (card: keyof StandardOrg['cards'], initialPoints?: number) => {
      const id = uid(card);
      const res = await app.request('POST', '/api/v1/customers', { key: org.keys.live, body: { externalCustomerId: id, cardId: org.cards[card], initialPoints } });
      assert.equal(res.status, 201, res.text);
      return id;
    };
    const hook = await app.request('POST', '/api/v1/webhooks', { key: org.keys.live, body: { url: 'https://example.com/kept', events: ['*'] } });
    const enrolled = await app.request('POST', '/api/v1/customers', { key: org.keys.live, body: { externalCustomerId: uid('kept'), cardId: org.cards.stamps, email: 'lookup@example.com' } });
    // By passUserId: PATCH probes change its externalCustomerId.
    const stampsCustomer = `pu_${enrolled.body.passUserId}`;
    const deliveries = await app.request('GET', `/api/v1/webhooks/${hook.body.id}/deliveries`, { key: org.keys.live });
    assert.ok(deliveries.body[0]?.id, 'the enroll queued a delivery');
    const promotion = await app.request('POST', `/api/v1/cards/${org.cards.stamps}/promotions`, { key: org.keys.live, body: PROMOTION });
    assert.equal(promotion.status, 201, promotion.text);
    const cards = await app.request('GET', '/api/v1/cards', { key: org.keys.live });
    const stampsQuestions = cards.body.find((c: { cardId: string }) => c.cardId === org.cards.stamps).questions;
    f = { app, org, uid, customer, webhookId: hook.body.id, deliveryId: deliveries.body[0].id, stampsCustomer, stampsQuestions, promotionId: promotion.body.id };
  });
  after(() => app.close());

  it('is a valid OpenAPI 3.1 document, and this test has valid requests for each of its operations', async () => {
    assert.deepEqual(await new Validator().validate(structuredClone(doc)), { valid: true });
    const documented = Object.entries(doc.paths as Json).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`));
    assert.deepEqual(documented.filter((o) => o !== 'GET /api/openapi.json').sort(), Object.keys(OPERATIONS).sort());
    for (const [operation, bases] of Object.entries(OPERATIONS)) {
      for (const base of bases) {
        const r = await base.make(f);
        assert.deepEqual(documentRefusals(operationOf(operation), r), [], `${operation} (${base.name}): the base request is valid by the document`);
        const res = await send(f, operation, r);
        assert.ok(res.status < 300, `${operation} (${base.name}): the base request succeeds: ${res.status} ${res.text}`);
        assert.deepEqual(headerMismatches(operationOf(operation), res), [], `${operation} (${base.name}): the headers are as documented`);
        await base.cleanup?.(f, r, res);
      }
    }
  });

  it('states the rules proxies found enforced without a word: ref length, fractions of stamps and points, cursors, URL credentials', async () => {
    const unstated: string[] = [];
    for (const known of KNOWN_REFUSALS) {
      const base = OPERATIONS[known.operation]!.find((b) => b.name === known.base)!;
      const r = applyProbe(await base.make(f), { ...known.probe, what: known.what });
      const res = await send(f, known.operation, r);
      assert.equal(res.status, 400, `${known.what}: ${res.text}`);
      assert.match(res.body.message, /^VALIDATION_FAILED/);
      if (documentRefusals(operationOf(known.operation), r).length === 0) unstated.push(known.what);
      if (known.stated === 'json-schema' && documentRefusals(operationOf(known.operation), r, 'standard').length === 0) unstated.push(`${known.what} (in JSON Schema's own words)`);
    }
    assert.deepEqual(unstated, [], 'refused by the server, allowed by the document');
  });

  it('GET /api/openapi.json answers with the headers it documents for itself (no-store, not a cached copy)', async () => {
    const res = await app.request('GET', '/api/openapi.json');
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('cache-control'), 'no-store');
    assert.deepEqual(headerMismatches(doc.paths['/api/openapi.json'].get, res), []);
  });

  for (const [operation, bases] of Object.entries(OPERATIONS)) {
    it(`${operation}: refuses with 400 what the document refuses, and never refuses as VALIDATION_FAILED what it allows`, async () => {
      const op = operationOf(operation);
      const mismatches: string[] = [];
      let refused = 0;
      let allowed = 0;
      for (const base of bases) {
        const template = await base.make(f);
        await base.cleanup?.(f, template);
        const probes = probesOfOperation(op, template);
        assert.ok(probes.length > 0, `${operation} (${base.name}): some probes`);
        for (const probe of probes) {
          const fresh = await base.make(f);
          const r = applyProbe(fresh, probe);
          const reasons = documentRefusals(op, r);
          const res = await send(f, operation, r);
          await base.cleanup?.(f, fresh, res);
          const label = `${base.name}: ${probe.place} ${probe.at.join('.') || '(root)'} = ${show(probe.value)} (${probe.what})`;
          const field = `${base.name}: ${probe.place} ${probe.at.filter((k) => typeof k === 'string').join('.') || '(root)'}`;
          if (res.status === 400 && /^VALIDATION_FAILED/.test(res.body?.message) && documentRefusals(op, r, 'standard').length === 0 && !(ONLY_BY_EXTENSION[operation] ?? []).includes(field)) {
            mismatches.push(`${label}: a validator that reads JSON Schema alone allows it, but the server answered ${res.text.slice(0, 200)}`);
          }
          if (reasons.length > 0) {
            refused++;
            if (res.status !== 400) mismatches.push(`${label}: the document refuses it (${reasons.join('; ')}) but the server answered ${res.status} ${res.text.slice(0, 160)}`);
          } else {
            allowed++;
            if (res.status === 400 && /^VALIDATION_FAILED/.test(res.body?.message)) mismatches.push(`${label}: the document allows it but the server answered ${res.text.slice(0, 200)}`);
          }
        }
      }
      assert.deepEqual(mismatches, []);
      assert.ok(allowed > 0, `${operation}: some probes are allowed`);
      if (op.parameters.length > 0 || op.requestBody || op['x-additional-query-parameters'] === false) assert.ok(refused > 0, `${operation}: some probes are refused`);
    });
  }
});
