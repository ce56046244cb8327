import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { runInNewContext } from 'node:vm';
import { build } from 'esbuild';
import { assetsPlugin, loadAssets } from '../build.mjs';
import { createAssetStore, embeddedAsset, embeddedAssetNames, type AssetManifest, type BundledAssets } from '../src/lib/embedded-assets';
import productManifest from '../src/lib/embedded-assets.json' with { type: 'json' };
import { ROOT } from './support/cli';

// The same manifest read two ways: from disk (tsx, development) and from a script bundled with
// build.mjs's asset plugin, as the product's bundle carries them. A test-only manifest over files
// made here exercises a text file, a binary file and a browser entry point without adding fake
// assets to the product.

describe('embedded assets', () => {
  const root = mkdtempSync(path.join(tmpdir(), 'wl-assets-'));
  after(() => rmSync(root, { recursive: true, force: true }));

  const text = 'CREATE TABLE t (x TEXT); -- café ☕\n';
  // Every byte value, so invalid UTF-8 (0x80…0xff alone) is included: it cannot travel as text.
  const binary = Buffer.from([...Array(256).keys(), 0xc3, 0x28, 0x00, 0xff]);
  mkdirSync(path.join(root, 'client'));
  writeFileSync(path.join(root, 'schema.sql'), text);
  writeFileSync(path.join(root, 'scanner.wasm'), binary);
  writeFileSync(path.join(root, 'client', 'sum.ts'), 'export const sum = (a: number, b: number): number => a + b;\n');
  writeFileSync(path.join(root, 'client', 'main.ts'), "import { sum } from './sum';\n(globalThis as { answer?: number }).answer = sum(20, 22);\n");
  const manifest: AssetManifest = {
    browserBuild: productManifest.browserBuild,
    assets: {
      'schema.sql': { file: 'schema.sql', contentType: 'application/sql; charset=utf-8' },
      'scanner.wasm': { file: 'scanner.wasm', contentType: 'application/wasm' },
      'client.js': { entry: 'client/main.ts', contentType: 'text/javascript; charset=utf-8' },
    },
  };

  /** A script bundled as build.mjs bundles the server, exporting only the assets; imported here. */
  const bundle = async (list: AssetManifest, file: string): Promise<{ bundled: BundledAssets; inputs: string[] }> => {
    const { assets, inputs } = await loadAssets(list, root);
    const entry = path.join(root, `${file}.entry.ts`);
    writeFileSync(entry, `export { bundledAssets } from ${JSON.stringify(path.join(ROOT, 'src/lib/bundled-assets.ts'))};\n`);
    const outfile = path.join(root, `${file}.mjs`);
    await build({ entryPoints: [entry], outfile, bundle: true, platform: 'node', format: 'esm', target: 'node20', logLevel: 'silent', plugins: [assetsPlugin(assets)] });
    const { bundledAssets } = (await import(pathToFileURL(outfile).href)) as { bundledAssets: BundledAssets };
    return { bundled: bundledAssets, inputs };
  };

  it('gives the same bytes, text and hash from disk and from the bundle', async () => {
    const { bundled: carried, inputs } = await bundle(manifest, 'all');
    assert.deepEqual([...inputs].sort(), ['client/main.ts', 'client/sum.ts', 'scanner.wasm', 'schema.sql'], 'the entry point and what it imports are inputs');
    assert.equal(typeof carried['schema.sql'], 'string', 'text rides as a string (esbuild text loader)');
    // Other bytes ride as base64 in a getter: the script holds neither the decoded bytes nor the
    // literal's string until they are first asked for (the counter's scanner: 1 MB, 1.4 MB as base64).
    assert.equal(typeof Object.getOwnPropertyDescriptor(carried, 'scanner.wasm')?.get, 'function', 'other bytes are decoded when first asked for');
    assert.ok(carried['scanner.wasm'] instanceof Uint8Array);

    const disk = createAssetStore(manifest, { root });
    const bundled = createAssetStore(manifest, { bundled: carried });
    for (const name of ['schema.sql', 'scanner.wasm', 'client.js']) {
      const [a, b] = [disk.get(name), bundled.get(name)];
      assert.ok(a.bytes.equals(b.bytes), `${name}: same bytes`);
      assert.equal(a.hash, b.hash, `${name}: same hash`);
      assert.equal(a.hash, createHash('sha256').update(a.bytes).digest('hex').slice(0, 16));
      assert.equal(a.contentType, manifest.assets[name]!.contentType);
    }
    assert.equal(bundled.get('schema.sql').text(), text);
    assert.ok(bundled.get('scanner.wasm').bytes.equals(binary));

    // The entry point arrives bundled (its import inlined) and runs in a page-like context.
    const context: { answer?: number } = {};
    runInNewContext(bundled.get('client.js').text(), context);
    assert.equal(context.answer, 42);
  });

  it('refuses a name the manifest does not list, and a listed asset the bundle lacks', async () => {
    assert.throws(() => createAssetStore(manifest, { root }).get('constructor'), /no asset named constructor/);
    const { bundled } = await bundle({ ...manifest, assets: { 'client.js': manifest.assets['client.js']! } }, 'one');
    assert.throws(() => createAssetStore(manifest, { bundled }).get('schema.sql'), /not embedded in this bundle/);
  });

  it('serves the product manifest from the sources: schema.sql is the file at the project root', () => {
    assert.deepEqual(embeddedAssetNames(), Object.keys(productManifest.assets));
    assert.equal(embeddedAsset('schema.sql').text(), readFileSync(path.join(ROOT, 'schema.sql'), 'utf8'));
  });
});
