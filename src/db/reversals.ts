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

/**
 * SQL for the rowid of the row that the reversal `alias` undoes, or NULL when `alias` is not a
 * reversal (nothing is read then). The ledger's ids have no index of their own, and an undo is
 * always of the same customer's row: the customer's rows (transactions_customer) are walked back
 * from the reversal's time and the first with the id is the one, so an undo made soon after its
 * row costs a probe or two, not a read of the customer's whole history. Should the clock have gone
 * back between the two (a row newer than its undo), the customer's other rows are searched.
 */
export function undoneRowSql(alias: string): string {
  const named = `u.customer_id = ${alias}.customer_id AND u.id = json_extract(${alias}.details, '$.reverses')`;
  return `CASE WHEN ${alias}.kind = 'reversal' THEN coalesce(
      (SELECT u.rowid FROM transactions u WHERE ${named} AND u.created_at <= ${alias}.created_at ORDER BY u.created_at DESC LIMIT 1),
      (SELECT u.rowid FROM transactions u WHERE ${named} AND u.created_at > ${alias}.created_at)) END`;
}
