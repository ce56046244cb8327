/**
 * `LIMIT @limit`, written so SQLite does not compile the statement again at every run. The query
 * planner reads the value bound to a bare LIMIT parameter (sqlite3ExprIsInteger) and marks the
 * statement to be prepared again whenever that parameter is bound, which better-sqlite3 does at
 * every call: each run paid a full parse and plan, ~4 µs on a one-table query and ~15 µs on the
 * webhook worker's claim with its joins (issue 13). The unary plus makes it an expression the
 * planner leaves alone; the limit is the same. `test/sql-limits.test.ts` keeps the bare form out.
 */
export const LIMIT_BOUND = 'LIMIT +@limit';
