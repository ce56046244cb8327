/** An org and mode as statement parameters: SQLite stores livemode as 0 or 1. */
export type NamespaceParams = { orgId: string; livemode: number };

/** The org and mode as statement parameters, plus `more`. */
export function namespaceParams<T extends object = object>(orgId: string, livemode: boolean, more?: T): NamespaceParams & T {
  return { orgId, livemode: livemode ? 1 : 0, ...(more as T) };
}
