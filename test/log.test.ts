import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { createLogger } from '../src/lib/log';

// The default log writer gathers lines into one write (lib/log.ts): every line still reaches
// stdout, in order, however the process ends, and errors are not written before earlier lines.

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

// A process that keeps running (a server) still writes its lines: a few after a short wait, many
// as soon as they fill the buffer, even while its event loop is busy. The script logs `logged`
// lines, then stays alive (idle, or blocked in a loop) until the test has read `count` of them.
function linesWhileRunning(logged: number, then: 'idle' | 'blocked', count = logged): Promise<string[]> {
  const script = `
    import { createLogger } from ${JSON.stringify(LOG_MODULE)};
    const log = createLogger('info');
    for (let i = 1; i <= ${logged}; i++) log.info('line ' + i, { pad: 'x'.repeat(40) });
    ${then === 'idle' ? 'setInterval(() => {}, 1000);' : 'for (;;);'}
  `;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    // Far beyond the writer's wait: only a writer that holds lines until the end gets here.
    const deadline = setTimeout(() => {
      child.removeAllListeners('exit');
      child.kill();
      reject(new Error(`${out.split('\n').length - 1} of ${count} lines written while the process ran`));
    }, 15_000);
    child.on('error', reject);
    child.on('exit', (code) => reject(new Error(`the script ended (${code}) before writing ${count} lines: ${out.split('\n').length - 1} written`)));
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      const lines = out.split('\n').filter((l) => l.startsWith('{')).slice(0, count);
      if (lines.length < count) return;
      clearTimeout(deadline);
      child.removeAllListeners('exit');
      child.kill('SIGKILL');
      resolve(lines.map((l) => (JSON.parse(l) as { msg: string }).msg));
    });
  });
}

describe('the log writer in a process that keeps running', () => {
  const cases = [
    { name: 'one line, then idle', logged: 1, then: 'idle', count: 1 },
    { name: 'three lines, then idle', logged: 3, then: 'idle', count: 3 },
    { name: '2,000 lines, then idle', logged: 2000, then: 'idle', count: 2000 },
    // ~90 characters a line: 16 KiB gathered are written at once, whatever the event loop does.
    { name: '2,000 lines, then a blocked event loop (the first 1,500 of them)', logged: 2000, then: 'blocked', count: 1500 },
  ] as const;
  for (const c of cases) {
    it(`writes the lines in order without waiting for the end: ${c.name}`, async () => {
      const expected = Array.from({ length: c.count }, (_, i) => `line ${i + 1}`);
      assert.deepEqual(await linesWhileRunning(c.logged, c.then, c.count), expected);
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
