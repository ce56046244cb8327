import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { serverLogSummary } from '../bench/server-log';

// The bench's report lists what each server under test logged above info (bench/server-log.ts):
// a run whose numbers stand out is then told apart from one where the server complained.

const dir = mkdtempSync(path.join(tmpdir(), 'server-log-'));
const entry = (level: string, msg: string) => JSON.stringify({ time: '2026-11-26T12:00:00.000Z', level, msg, requestId: 'req_1' });

describe('serverLogSummary', () => {
  const cases: { name: string; lines: string[]; summary: string }[] = [
    {
      name: 'a quiet server: its start, requests and stop',
      lines: ['Wallet Loyalty listening on http://127.0.0.1:4000 (data in /tmp/x)', entry('info', 'request'), entry('debug', 'job finished'), 'SIGTERM: shutting down'],
      summary: 'none',
    },
    {
      name: 'warnings and errors, counted per message, the most frequent first',
      lines: [entry('warn', 'webhook attempt failed'), entry('info', 'request'), entry('error', 'database: the checkpoint thread failed'), entry('warn', 'webhook attempt failed')],
      summary: '2 × warn: webhook attempt failed; 1 × error: database: the checkpoint thread failed',
    },
    {
      name: 'lines that are no log entry (a library\'s own warning, a stack)',
      lines: ['[NODE-CRON] [WARN] missed execution at 14:17:00', entry('info', 'request'), '    at main (file.js:1:1)'],
      summary: '1 × other output: [NODE-CRON] [WARN] missed execution at 14:17:00; 1 × other output:     at main (file.js:1:1)',
    },
  ];
  for (const [i, c] of cases.entries()) {
    it(c.name, () => {
      const file = path.join(dir, `server-${i}.log`);
      writeFileSync(file, c.lines.join('\n') + '\n');
      assert.equal(serverLogSummary(file), c.summary);
    });
  }

  it('says so when there is no log', () => {
    assert.equal(serverLogSummary(path.join(dir, 'missing.log')), 'no log');
  });
});
