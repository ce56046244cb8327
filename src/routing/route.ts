import * as v from 'valibot';
import type { Scope, Mode } from '../keys/scopes';
import type { AppDeps } from '../deps';

export type AnySchema = v.GenericSchema<unknown, unknown>;
type Out<S> = S extends AnySchema ? v.InferOutput<S> : undefined;

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/** The body of a POST or PATCH that declares none: strict like every body (a field is 400), so `{}` at most. */
export const NO_BODY = v.strictObject({});

/** Who is calling: resolved from X-Api-Key before any route logic runs. */
export interface Auth {
  keyId: string;
  orgId: string;
  mode: Mode;
  livemode: boolean;
  scopes: readonly Scope[];
}

export interface Reply {
  status: number;
  body: unknown;
}

export interface RouteInput<P, Q, B> {
  deps: AppDeps;
  auth: Auth;
  params: P;
  query: Q;
  body: B;
  /** The Idempotency-Key header when the route takes one (stored on ledger rows). */
  idempotencyKey: string | undefined;
  requestId: string;
}

export interface ResponseDoc {
  description: string;
  schema?: AnySchema;
}

/**
 * One route, declared once: the same definition binds the handler, validates the request and
 * produces its OpenAPI operation, so the document cannot drift from the code.
 */
export interface RouteDef<PS extends AnySchema | undefined = AnySchema | undefined, QS extends AnySchema | undefined = AnySchema | undefined, BS extends AnySchema | undefined = AnySchema | undefined> {
  method: HttpMethod;
  /** Koa-style path under /api, e.g. `/v1/cards/:cardId`. */
  path: string;
  tag: string;
  summary: string;
  description?: string;
  scope: Scope;
  params?: PS;
  query?: QS;
  /** The JSON body; a POST or PATCH without one takes NO_BODY. */
  body?: BS;
  /** A write that takes Idempotency-Key; its handler must be synchronous (it runs inside the write's transaction, with or without a key). */
  idempotent?: boolean;
  responses: Record<number, ResponseDoc>;
  /** Error codes this route can answer, for the document. */
  errors?: Record<number, string[]>;
  handle(input: RouteInput<Out<PS>, Out<QS>, Out<BS>>): Reply | Promise<Reply>;
}

/** The reply of a handler that runs inside a transaction: one that returned a promise would await with the transaction open. */
export function synchronousReply(reply: Reply | Promise<Reply>): Reply {
  if (typeof (reply as Partial<Promise<Reply>>).then === 'function') {
    throw new Error('the handler of an idempotent route must be synchronous: it runs inside the write\'s transaction');
  }
  return reply as Reply;
}

/** Keeps the definition's schema types flowing into its handler. */
export function defineRoute<PS extends AnySchema | undefined = undefined, QS extends AnySchema | undefined = undefined, BS extends AnySchema | undefined = undefined>(
  def: RouteDef<PS, QS, BS>,
): RouteDef {
  return def as unknown as RouteDef;
}
