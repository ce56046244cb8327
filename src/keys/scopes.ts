export const SCOPES = ['customers:read', 'customers:write', 'loyalty:write', 'webhooks:manage', 'cards:read', 'cards:write'] as const;
export type Scope = (typeof SCOPES)[number];

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}

export type Mode = 'live' | 'test';
