import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import { cliEnv, freePort, ROOT, ServeProcess, tempDir } from './support/cli';

// `npm run build` bundles the server into one script that serves without tsx or the sources.

const SCRIPT = path.join(ROOT, 'dist', 'wallet-loyalty.mjs');

function npmRunBuild(): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('npm', ['run', 'build'], { cwd: ROOT, env: cliEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d));
    child.stderr.on('data', (d: Buffer) => (output += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

describe('the bundled script', { timeout: 60_000 }, () => {
  const dir = tempDir('wl-dist-');
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('npm run build produces dist/wallet-loyalty.mjs, and it serves', async () => {
    rmSync(SCRIPT, { force: true });
    const build = await npmRunBuild();
    assert.equal(build.code, 0, build.output);
    assert.ok(existsSync(SCRIPT), 'dist/wallet-loyalty.mjs');
    assert.ok(existsSync(path.join(ROOT, 'dist', 'schema.sql')), 'the schema travels with the script');

    const port = await freePort();
    const server = new ServeProcess(['--data', dir, '--port', String(port)], { script: SCRIPT });
    try {
      const [, url, key] = await server.waitFor(/curl -s (\S+) -H 'X-Api-Key: (\S+)'/);
      const res = await fetch(url!, { headers: { 'X-Api-Key': key! } });
      assert.equal(res.status, 200);
      assert.equal(((await res.json()) as unknown[]).length, 2);
      const doc = await fetch(`http://127.0.0.1:${port}/api/openapi.json`);
      assert.equal(((await doc.json()) as { openapi: string }).openapi, '3.1.0');
      assert.deepEqual(await server.stop('SIGTERM'), { code: 0, signal: null });
    } finally {
      await server.stop('SIGKILL');
    }
  });
});
