// Imports nothing: the card editor's browser script reads it too (console/cards/question-keys.ts).

/** customFields keys that are never settable, in any case; no question may use them either. */
export const RESERVED_KEYS = ['name', 'email', 'phone', 'status', 'custom'] as const;
