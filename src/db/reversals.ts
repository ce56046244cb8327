/**
 * SQL that holds for a ledger row (`alias`) no reversal undid (the counter's undo, migration 10):
 * an undone award no longer counts toward limits, caps, flags or the dashboard's sums. The unique
 * index transactions_reversal answers it with one probe. The unary `+` drops the id column's TEXT
 * affinity: compared with it, the indexed expression (which has none) cannot be looked up, and
 * SQLite read every reversal of the database for each row it checked. Both sides are text, so the
 * comparison means the same. (The dashboard's trigger customers_slots_forget in schema.sql carries
 * its own copy of this test.)
 */
export function notReversedSql(alias: string): string {
  return `NOT EXISTS (SELECT 1 FROM transactions r WHERE r.kind = 'reversal' AND json_extract(r.details, '$.reverses') = +${alias}.id)`;
}
