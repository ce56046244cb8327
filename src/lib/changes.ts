// What every feature may say about a change to a customer: which channel made it, the staff
// member at the counter, and the kind of ledger row. Shared types, so no feature imports another's
// internals to name them.

/**
 * Which channel made a change: the ledger row's `source`, the events' `data.source`;
 * `import` is a CSV import, `expiry` and `birthday` the sweeps that expire units and give birthday treats.
 */
export type Channel = 'api' | 'scan' | 'signup' | 'console' | 'import' | 'expiry' | 'birthday';

/** The staff member at the counter who made a change; on counter rows only. */
export interface StaffRef {
  id: string;
  name: string;
}

/**
 * `reversal` undoes an earlier row (the counter's undo): a new row with the opposite change, never a
 * deletion. `expiry` takes units that expired, `birthday` gives the birthday treat.
 */
export type LedgerKind = 'initial' | 'earn' | 'redeem' | 'adjust' | 'reversal' | 'expiry' | 'birthday';
