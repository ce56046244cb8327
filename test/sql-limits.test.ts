import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

// SQLite reads the value bound to a bare `LIMIT @limit` while planning, and prepares the statement
// again whenever that parameter is bound: at every call through better-sqlite3 (db/limit.ts says
// more). Nothing a program can read tells a statement prepared again from one prepared once (the
// counter is in the sqlite_stmt table, which better-sqlite3 does not build), so the sources are
// checked: every bound limit or offset goes through LIMIT_BOUND (SQL keywords are upper case here).

describe('bound limits', () => {
  it('no source binds a bare LIMIT or OFFSET parameter', () => {
    const files = readdirSync('src', { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
    assert.ok(files.length > 100, `read ${files.length} files`);
    const bare = files.flatMap((f) =>
      readFileSync(path.join('src', f), 'utf8')
        .split('\n')
        .map((line, i) => ({ at: `src/${f}:${i + 1}`, line: line.trim() }))
        .filter(({ line }) => /\b(LIMIT|OFFSET)\s+[@:$?]/.test(line) && !line.startsWith('*')),
    );
    assert.deepEqual(bare, []);
  });
});
