import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import { cliEnv, freePort, ROOT, ServeProcess, tempDir } from './support/cli';
import { appleEnv, expectedManifest, getBytes, IPHONE_UA, opensslVerify, unzipPass } from './support/wallet-app';
import { createAppleTestChain } from './support/wallet-fixtures';

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
    // With Apple credentials, so the bundled passkit-generator, node-forge and qrcode are exercised too.
    const chain = createAppleTestChain();
    const server = new ServeProcess(['--data', dir, '--port', String(port)], { script: SCRIPT, env: { ...appleEnv(chain), PUBLIC_URL: `http://127.0.0.1:${port}` } });
    try {
      const [, url, key] = await server.waitFor(/curl -s (\S+) -H 'X-Api-Key: (\S+)'/);
      const res = await fetch(url!, { headers: { 'X-Api-Key': key! } });
      assert.equal(res.status, 200);
      const cards = (await res.json()) as { cardId: string }[];
      assert.equal(cards.length, 2);
      const doc = await fetch(`http://127.0.0.1:${port}/api/openapi.json`);
      assert.equal(((await doc.json()) as { openapi: string }).openapi, '3.1.0');

      const enrolled = await fetch(`http://127.0.0.1:${port}/api/v1/customers`, {
        method: 'POST',
        headers: { 'X-Api-Key': key!, 'Content-Type': 'application/json' },
        body: JSON.stringify({ externalCustomerId: 'bundle-1', cardId: cards[0]!.cardId }),
      });
      assert.equal(enrolled.status, 201);
      const installUrl = ((await enrolled.json()) as { installUrl: string }).installUrl;
      const page = await fetch(installUrl);
      assert.equal(page.status, 200);
      assert.match(await page.text(), /<html/);
      const pkpass = await getBytes(installUrl, { 'User-Agent': IPHONE_UA });
      assert.equal(pkpass.status, 200);
      assert.equal(pkpass.headers.get('content-type'), 'application/vnd.apple.pkpass');
      const pass = unzipPass(pkpass.bytes);
      assert.deepEqual(JSON.parse(pass.files.get('manifest.json')!.toString('utf8')), expectedManifest(pass.files));
      assert.equal(opensslVerify(pass.dir, chain.rootCertPath).status, 0, 'the bundle signs the pass');
      const webPass = await fetch(`http://127.0.0.1:${port}/pass/${new URL(installUrl).searchParams.get('code')}`);
      assert.equal(webPass.status, 200);
      assert.match(await webPass.text(), /<svg/, 'the web pass carries its QR code');

      assert.deepEqual(await server.stop('SIGTERM'), { code: 0, signal: null });
    } finally {
      await server.stop('SIGKILL');
      chain.cleanup();
    }
  });
});
