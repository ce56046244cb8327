import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { cliEnv, freePort, ROOT, ServeProcess, tempDir } from './support/cli';
import { appleEnv, expectedManifest, getBytes, IPHONE_UA, opensslVerify, unzipPass } from './support/wallet-app';
import { createAppleTestChain } from './support/wallet-fixtures';
import { startReceiver } from './support/receiver';
import { assetUrl } from '../src/web/assets';
import { oneBytePerCharacter } from '../build.mjs';

// `node build.mjs` bundles the server into one script that serves with nothing beside it but
// node_modules/better-sqlite3; bin/wallet-loyalty.mjs (npx wallet-loyalty, npm start) rebuilds it
// when a source changed. Everything is built in temp folders: the checkout's dist/ is not touched.

function run(command: string, args: string[], cwd: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: cliEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d));
    child.stderr.on('data', (d: Buffer) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('oneBytePerCharacter: the script V8 keeps at one byte per character', () => {
  it('escapes each character past Latin-1, and the code means what it meant', () => {
    const source = "const tag = (s) => s.join('|');\n// It’s a comment → kept\nexport const a = tag`Don’t ${1} ←`, b = '✓ 😀', c = /[→]/u.test('→'), d = 'é';\n";
    const escaped = oneBytePerCharacter(source);
    assert.match(escaped, /^[\u0000-\u00ff]*$/u);
    assert.match(escaped, /Don\\u2019t/);
    assert.ok(escaped.includes("'é'"), 'Latin-1 stays as it is');
    const url = `data:text/javascript,${encodeURIComponent(escaped)}`;
    return import(url).then((m: { a: string; b: string; c: boolean; d: string }) => assert.deepEqual([m.a, m.b, m.c, m.d], ['Don’t | ←', '✓ 😀', true, 'é']));
  });

  it('stops the build when a backslash precedes such a character: its escape would be other text', () => {
    assert.throws(() => oneBytePerCharacter('const s = String.raw`\\’`;'), /a backslash precedes a character past Latin-1/);
  });
});

describe('the bundled script', () => {
  const dir = tempDir('wl-dist-');
  after(() => rmSync(dir, { recursive: true, force: true }));
  const out = path.join(dir, 'out');
  let built: ReturnType<typeof run> | undefined;
  /** One build for the tests below; each asserts it succeeded. */
  const build = async () => {
    const result = await (built ??= run(process.execPath, ['build.mjs', '--outdir', out], ROOT));
    assert.equal(result.code, 0, result.stderr);
  };
  /** A folder with a copy of the built script and, of node_modules, only the native addon it keeps external. */
  const scriptAlone = (folder: string) => {
    mkdirSync(path.join(folder, 'node_modules'), { recursive: true });
    copyFileSync(path.join(out, 'wallet-loyalty.mjs'), path.join(folder, 'wallet-loyalty.mjs'));
    symlinkSync(path.join(ROOT, 'node_modules', 'better-sqlite3'), path.join(folder, 'node_modules', 'better-sqlite3'));
    return path.join(folder, 'wallet-loyalty.mjs');
  };

  it('node build.mjs --outdir builds one script, and it serves from a folder that holds only it', async () => {
    await build();
    assert.deepEqual(readdirSync(out).sort(), ['wallet-loyalty.inputs.json', 'wallet-loyalty.mjs', 'wallet-loyalty.mjs.map'], 'no schema.sql or other file beside the script');
    const wide = readFileSync(path.join(out, 'wallet-loyalty.mjs'), 'utf8').match(/[^\u0000-\u00ff]/u);
    assert.equal(wide, null, 'every character of the script fits in one byte, so V8 keeps its source at one byte per character');

    const alone = path.join(dir, 'alone');
    const aloneScript = scriptAlone(alone);

    const port = await freePort();
    // With Apple credentials, so the bundled passkit-generator, node-forge and qrcode are exercised too.
    const chain = createAppleTestChain();
    // A webhook receiver over HTTPS, which the script trusts through NODE_EXTRA_CA_CERTS.
    const tls = selfSignedFor127(dir);
    const receiver = await startReceiver('/hook', tls);
    const data = path.join(dir, 'data');
    const server = new ServeProcess(['--data', data, '--port', String(port)], { script: aloneScript, env: { ...appleEnv(chain), PUBLIC_URL: `http://127.0.0.1:${port}`, NODE_EXTRA_CA_CERTS: tls.certFile } });
    try {
      const [, url, key] = await server.waitFor(/curl -s (\S+) -H 'X-Api-Key: (\S+)'/);
      const hook = await fetch(`http://127.0.0.1:${port}/api/v1/webhooks`, {
        method: 'POST',
        headers: { 'X-Api-Key': key!, 'Content-Type': 'application/json' },
        body: JSON.stringify({ url: receiver.url, events: ['*'] }),
      });
      assert.equal(hook.status, 201, await hook.clone().text());
      const res = await fetch(url!, { headers: { 'X-Api-Key': key! } });
      assert.equal(res.status, 200);
      const cards = (await res.json()) as { cardId: string }[];
      assert.equal(cards.length, 2, 'the embedded schema created the database and the demo org');
      const doc = await fetch(`http://127.0.0.1:${port}/api/openapi.json`);
      assert.equal(((await doc.json()) as { openapi: string }).openapi, '3.1.0');

      const enrolled = await fetch(`http://127.0.0.1:${port}/api/v1/customers`, {
        method: 'POST',
        headers: { 'X-Api-Key': key!, 'Content-Type': 'application/json' },
        body: JSON.stringify({ externalCustomerId: 'bundle-1', cardId: cards[0]!.cardId }),
      });
      assert.equal(enrolled.status, 201);
      await Promise.race([receiver.waitFor(1), sleep(15_000).then(() => assert.fail('no delivery reached the HTTPS receiver within 15 s'))]);
      assert.equal(JSON.parse(receiver.requests[0]!.body).type, 'customer.enrolled', 'the enrolment reached the HTTPS receiver');
      const installUrl = ((await enrolled.json()) as { installUrl: string }).installUrl;
      const page = await fetch(installUrl);
      assert.equal(page.status, 200);
      const pageText = await page.text();
      assert.match(pageText, /<html/);
      assert.doesNotMatch(pageText, /\\u[0-9a-f]{4}/, 'the characters esbuild escapes in the script are characters again in a page');
      const pkpass = await getBytes(installUrl, { 'User-Agent': IPHONE_UA });
      assert.equal(pkpass.status, 200);
      assert.equal(pkpass.headers.get('content-type'), 'application/vnd.apple.pkpass');
      const pass = unzipPass(pkpass.bytes);
      assert.deepEqual(JSON.parse(pass.files.get('manifest.json')!.toString('utf8')), expectedManifest(pass.files));
      assert.equal(opensslVerify(pass.dir, chain.rootCertPath).status, 0, 'the bundle signs the pass');
      const webPass = await fetch(`http://127.0.0.1:${port}/pass/${new URL(installUrl).searchParams.get('code')}`);
      assert.equal(webPass.status, 200);
      assert.match(await webPass.text(), /<svg/, 'the web pass carries its QR code');
      // Every asset comes from the bundle (no CDN), at the URL and with the type the sources give it:
      // the same content hash, so the same bytes.
      for (const [name, contentType, file] of [
        ['htmx.js', 'text/javascript; charset=utf-8', 'node_modules/htmx.org/dist/htmx.min.js'],
        ['app.css', 'text/css; charset=utf-8', 'src/web/assets/app.css'],
        // Binary, in the script as base64 decoded on first use: it must come back byte for byte.
        ['zxing-reader.wasm', 'application/wasm', 'node_modules/zxing-wasm/dist/reader/zxing_reader.wasm'],
      ] as const) {
        const asset = await getBytes(`http://127.0.0.1:${port}${assetUrl(name)}`, {});
        assert.equal(asset.status, 200, name);
        assert.equal(asset.headers.get('content-type'), contentType, name);
        assert.ok(asset.bytes.equals(readFileSync(path.join(ROOT, file))), `${name}, byte for byte`);
      }
      for (const name of ['console.js', 'counter.js'] as const) {
        const script = await fetch(`http://127.0.0.1:${port}${assetUrl(name)}`);
        assert.equal(script.status, 200, name);
        assert.equal(script.headers.get('content-type'), 'text/javascript; charset=utf-8', name);
      }
      const worker = await fetch(`http://127.0.0.1:${port}/counter/sw.js`);
      assert.equal(worker.headers.get('content-type'), 'text/javascript; charset=utf-8');
      assert.match(await worker.text(), /counter-shell-v1/);

      assert.deepEqual(await server.stop('SIGTERM'), { code: 0, signal: null });

      // A backup's integrity check runs on a worker thread, which the one script must start by itself.
      const copy = await run(process.execPath, [aloneScript, 'backup', path.join(dir, 'copy.db'), '--data', data], alone);
      assert.equal(copy.code, 0, copy.stderr);
      assert.match(copy.stdout, /integrity checked/);
    } finally {
      await server.stop('SIGKILL');
      await receiver.close();
      chain.cleanup();
    }
    assert.deepEqual(readdirSync(alone).sort(), ['node_modules', 'wallet-loyalty.mjs'], 'the script wrote nothing beside itself (no code cache)');
  });

  it('the bin builds the bundle when it is missing, rebuilds it after an edit to src/, and not otherwise; so does build.mjs --if-stale (npm start)', async () => {
    // A copy of the project (node_modules linked), so the edit and the builds stay out of the checkout.
    const project = path.join(dir, 'project');
    mkdirSync(project);
    for (const entry of ['src', 'bin', 'build.mjs', 'schema.sql', 'package.json', 'package-lock.json', 'tsconfig.json']) {
      cpSync(path.join(ROOT, entry), path.join(project, entry), { recursive: true });
    }
    symlinkSync(path.join(ROOT, 'node_modules'), path.join(project, 'node_modules'));
    const help = () => run(process.execPath, ['bin/wallet-loyalty.mjs', '--help'], project);

    const first = await help();
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stderr, /wallet-loyalty\.mjs has not been built; building dist\/wallet-loyalty\.mjs/);
    assert.match(first.stdout, /^wallet-loyalty — self-hosted loyalty backend$/m);

    const cli = path.join(project, 'src', 'cli.ts');
    writeFileSync(cli, readFileSync(cli, 'utf8').replace('wallet-loyalty — self-hosted loyalty backend', 'wallet-loyalty — edited since the build'));
    const edited = await help();
    assert.equal(edited.code, 0, edited.stderr);
    assert.match(edited.stderr, /src\/cli\.ts changed since the last build; building/);
    assert.match(edited.stdout, /^wallet-loyalty — edited since the build$/m, 'the edit runs, not the stale bundle');

    const again = await help();
    assert.equal(again.code, 0, again.stderr);
    assert.equal(again.stderr, '', 'a fresh bundle is not rebuilt');
    assert.match(again.stdout, /edited since the build/);

    // An embedded asset is an input too, down to a module a browser entry imports.
    const ifStale = () => run(process.execPath, ['build.mjs', '--if-stale'], project);
    const fresh = await ifStale();
    assert.deepEqual([fresh.code, fresh.stdout, fresh.stderr], [0, '', ''], 'a fresh bundle is not rebuilt');
    const worker = path.join(project, 'src', 'counter', 'client', 'sw.ts');
    writeFileSync(worker, readFileSync(worker, 'utf8').replace("'counter-shell-v1'", "'counter-shell-edited'"));
    const rebuilt = await ifStale();
    assert.equal(rebuilt.code, 0, rebuilt.stderr);
    assert.match(rebuilt.stderr, /src\/counter\/client\/sw\.ts changed since the last build; building dist\/wallet-loyalty\.mjs/);
    assert.match(readFileSync(path.join(project, 'dist', 'wallet-loyalty.mjs'), 'utf8'), /counter-shell-edited/, 'the edited worker is in the new bundle');
    assert.deepEqual(readdirSync(path.join(project, 'dist')).sort(), ['wallet-loyalty.inputs.json', 'wallet-loyalty.mjs', 'wallet-loyalty.mjs.map'], 'each file renamed into place, none left aside');
  });

  // Two test files, or npm start beside npx, may find the bundle stale at the same moment.
  it('two starts that find the bundle stale build it once; a lock left by a killed build and a script its record does not describe are dealt with', async () => {
    const project = path.join(dir, 'project-concurrent');
    mkdirSync(project);
    for (const entry of ['src', 'bin', 'build.mjs', 'schema.sql', 'package.json', 'package-lock.json', 'tsconfig.json']) {
      cpSync(path.join(ROOT, entry), path.join(project, entry), { recursive: true });
    }
    symlinkSync(path.join(ROOT, 'node_modules'), path.join(project, 'node_modules'));
    const help = () => run(process.execPath, ['bin/wallet-loyalty.mjs', '--help'], project);
    const dist = path.join(project, 'dist');
    const built = ['wallet-loyalty.inputs.json', 'wallet-loyalty.mjs', 'wallet-loyalty.mjs.map'];

    const both = await Promise.all([help(), help()]);
    for (const start of both) {
      assert.equal(start.code, 0, start.stderr);
      assert.match(start.stdout, /^wallet-loyalty — self-hosted loyalty backend$/m);
    }
    assert.deepEqual(both.map((start) => /building/.test(start.stderr)).sort(), [false, true], 'one start built the bundle, the other waited for it');
    assert.deepEqual(readdirSync(dist).sort(), built);

    // A build killed mid-way: its lock names a process that is gone, and the script was replaced
    // without the record that describes it.
    const gone = spawnSync(process.execPath, ['-e', '0']).pid;
    writeFileSync(path.join(dist, 'wallet-loyalty.build.lock'), String(gone));
    writeFileSync(path.join(dist, 'wallet-loyalty.mjs'), `${readFileSync(path.join(dist, 'wallet-loyalty.mjs'), 'utf8')}\n// half of another build\n`);
    const after = await help();
    assert.equal(after.code, 0, after.stderr);
    assert.match(after.stderr, /wallet-loyalty\.mjs is not the script wallet-loyalty\.inputs\.json describes; building dist\/wallet-loyalty\.mjs/);
    assert.doesNotMatch(readFileSync(path.join(dist, 'wallet-loyalty.mjs'), 'utf8'), /half of another build/);
    assert.deepEqual(readdirSync(dist).sort(), built, 'the lock is gone');
  });
});

describe('the production set (npm ci --omit=dev): no dev tool at run time', () => {
  const dir = tempDir('wl-prod-');
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('a bundle built with the dev dependencies is used as it is; without it, prepare says how to build it', async () => {
    const project = path.join(dir, 'project');
    mkdirSync(project);
    for (const entry of ['src', 'bin', 'build.mjs', 'schema.sql', 'package.json', 'package-lock.json', 'tsconfig.json']) {
      cpSync(path.join(ROOT, entry), path.join(project, entry), { recursive: true });
    }
    // First with everything (npm ci): prepare builds the bundle.
    symlinkSync(path.join(ROOT, 'node_modules'), path.join(project, 'node_modules'));
    const built = await run(process.execPath, ['build.mjs', '--if-stale'], project);
    assert.equal(built.code, 0, built.stderr);
    // Then as `npm ci --omit=dev` leaves node_modules: no esbuild.
    rmSync(path.join(project, 'node_modules'));
    mkdirSync(path.join(project, 'node_modules'));
    for (const name of readdirSync(path.join(ROOT, 'node_modules'))) {
      if (name !== 'esbuild' && name !== '@esbuild' && name !== '.bin') symlinkSync(path.join(ROOT, 'node_modules', name), path.join(project, 'node_modules', name));
    }
    const prepare = await run(process.execPath, ['build.mjs', '--if-stale'], project);
    assert.deepEqual([prepare.code, prepare.stdout, prepare.stderr], [0, '', ''], 'the fresh bundle needs no esbuild');
    const version = await run(process.execPath, ['bin/wallet-loyalty.mjs', '--version'], project);
    assert.equal(version.code, 0, version.stderr);
    assert.equal(version.stdout.trim(), JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version);

    rmSync(path.join(project, 'dist'), { recursive: true });
    const unbuilt = await run(process.execPath, ['build.mjs', '--if-stale'], project);
    assert.equal(unbuilt.code, 1);
    assert.match(unbuilt.stderr, /esbuild \(a dev dependency\) is not installed, so dist\/wallet-loyalty\.mjs cannot be built: install with the dev dependencies first \(`npm ci` builds it\), then `npm ci --omit=dev --omit=optional`/);
  });
});

/** A key and a self-signed certificate for 127.0.0.1, made with the openssl CLI; the certificate's file too. */
function selfSignedFor127(dir: string): { key: string; cert: string; certFile: string } {
  const keyFile = path.join(dir, 'receiver-key.pem');
  const certFile = path.join(dir, 'receiver-cert.pem');
  const made = spawnSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', keyFile, '-out', certFile, '-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'], { encoding: 'utf8' });
  assert.equal(made.status, 0, made.stderr);
  return { key: readFileSync(keyFile, 'utf8'), cert: readFileSync(certFile, 'utf8'), certFile };
}
