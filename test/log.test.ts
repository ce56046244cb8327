import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { createLogger } from '../src/lib/log';

// The default log writer writes each line as it is logged (lib/log.ts): every line reaches stdout,
// in order, however the process ends, and errors go to stderr.

const LOG_MODULE = path.resolve(import.meta.dirname, '../src/lib/log.ts');

function run(ending: string) {
  const script = `
    import { createLogger } from ${JSON.stringify(LOG_MODULE)};
    const log = createLogger('info');
    log.debug('hidden');
    for (let i = 1; i <= 3; i++) log.info('line ' + i, { i });
    ${ending}
  `;
  const out = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' });
  const lines = (text: string) => text.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as { msg: string; level: string });
  return { code: out.status, stdout: lines(out.stdout), stderr: lines(out.stderr) };
}

describe('the log writer', () => {
  const cases = [
    { name: 'the program ends by itself', ending: '', code: 0 },
    { name: 'process.exit() in the same turn', ending: 'process.exit(3);', code: 3 },
    { name: 'an uncaught error in the same turn', ending: "throw new Error('boom');", code: 1 },
    { name: 'an error line is logged after them, then exit', ending: "log.error('failed'); process.exit(1);", code: 1 },
    { name: 'lines of later turns', ending: "setTimeout(() => log.info('line 4'), 5);", code: 0 },
  ];
  for (const c of cases) {
    it(`writes every line in order when ${c.name}`, () => {
      const result = run(c.ending);
      assert.equal(result.code, c.code);
      const expected = ['line 1', 'line 2', 'line 3', ...(c.ending.includes('line 4') ? ['line 4'] : [])];
      assert.deepEqual(result.stdout.map((l) => l.msg), expected);
      if (c.ending.includes("log.error")) assert.deepEqual(result.stderr.map((l) => l.msg), ['failed']);
    });
  }
});

// A process that keeps running (a server) writes its lines as it logs them: nothing waits for a
// later turn of the event loop or a timer, so a few lines arrive even if the loop is then blocked.
// (Many would not: past what the pipe holds, Node writes the rest from the event loop.) The script
// logs `logged` lines, then stays alive (idle, or blocked in a loop) until the test has read them.
function linesWhileRunning(logged: number, then: 'idle' | 'blocked'): Promise<string[]> {
  const script = `
    import { createLogger } from ${JSON.stringify(LOG_MODULE)};
    const log = createLogger('info');
    for (let i = 1; i <= ${logged}; i++) log.info('line ' + i, { pad: 'x'.repeat(40) });
    ${then === 'idle' ? 'setInterval(() => {}, 1000);' : 'for (;;);'}
  `;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    // Only a writer that holds lines back gets here.
    const deadline = setTimeout(() => {
      child.removeAllListeners('exit');
      child.kill();
      reject(new Error(`${out.split('\n').length - 1} of ${logged} lines written while the process ran`));
    }, 15_000);
    child.on('error', reject);
    child.on('exit', (code) => reject(new Error(`the script ended (${code}) before writing ${logged} lines: ${out.split('\n').length - 1} written`)));
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      const lines = out.split('\n').filter((l) => l.startsWith('{')).slice(0, logged);
      if (lines.length < logged) return;
      clearTimeout(deadline);
      child.removeAllListeners('exit');
      child.kill('SIGKILL');
      resolve(lines.map((l) => (JSON.parse(l) as { msg: string }).msg));
    });
  });
}

describe('the log writer in a process that keeps running', () => {
  const cases = [
    { name: 'one line, then idle', logged: 1, then: 'idle' },
    { name: 'three lines, then a blocked event loop', logged: 3, then: 'blocked' },
    { name: '2,000 lines, then idle', logged: 2000, then: 'idle' },
  ] as const;
  for (const c of cases) {
    it(`writes the lines in order as they are logged: ${c.name}`, async () => {
      const expected = Array.from({ length: c.logged }, (_, i) => `line ${i + 1}`);
      assert.deepEqual(await linesWhileRunning(c.logged, c.then), expected);
    });
  }
});

describe('errors in log fields', () => {
  const cases = [
    { name: 'an info line with an error field', level: 'info', fields: () => ({ err: new TypeError('bad input') }), path: ['err'] },
    { name: 'a warning with an error inside another field', level: 'warn', fields: () => ({ job: { name: 'sweep', err: new TypeError('bad input') } }), path: ['job', 'err'] },
    { name: 'an error line', level: 'error', fields: () => ({ err: new TypeError('bad input') }), path: ['err'] },
  ] as const;
  for (const c of cases) {
    it(`keeps the name, message and stack: ${c.name}`, () => {
      const lines: string[] = [];
      const log = createLogger('debug', (line) => lines.push(line));
      log[c.level]('failed', c.fields());
      let value = JSON.parse(lines[0]!) as Record<string, any>;
      for (const key of c.path) value = value[key];
      assert.equal(value.name, 'TypeError');
      assert.equal(value.message, 'bad input');
      assert.match(value.stack, /^TypeError: bad input\n/);
    });
  }

  it('writes an info line without errors as plain JSON', () => {
    const lines: string[] = [];
    createLogger('info', (line) => lines.push(line)).info('request', { status: 200, path: '/api/v1/cards', ms: 1.5 });
    assert.deepEqual({ ...JSON.parse(lines[0]!), time: 'x' }, { time: 'x', level: 'info', msg: 'request', status: 200, path: '/api/v1/cards', ms: 1.5 });
  });
});
