/** An org and mode as statement parameters: SQLite stores livemode as 0 or 1. */
export type NamespaceParams = { orgId: string; livemode: number };

/**
 * The org and mode as statement parameters, plus `more`. Assigned, not `{ ...params, id }`: in
 * Node 20's V8 a key added to an object made by a spread takes a slow path, ~1 µs each time
 * (issue 13), and a repo's lookups run on every API request.
 */
export function namespaceParams<T extends object = object>(orgId: string, livemode: boolean, more?: T): NamespaceParams & T {
  return Object.assign({ orgId, livemode: livemode ? 1 : 0 }, more);
}
