import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runInNewContext } from 'node:vm';
import { embedAssets, trailerIndex } from '../build.mjs';
import { createAssetStore, scriptTrailer, embeddedAsset, embeddedAssetNames, type AssetManifest } from '../src/lib/embedded-assets';
import productManifest from '../src/lib/embedded-assets.json' with { type: 'json' };
import { ROOT } from './support/cli';

// The same manifest read two ways: from disk (tsx, development) and from the trailer build.mjs
// appends to the bundle. A test-only manifest over
// files made here exercises a text file, a binary file and a browser entry point without adding
// fake assets to the product.

describe('embedded assets', () => {
  const root = mkdtempSync(path.join(tmpdir(), 'wl-assets-'));
  after(() => rmSync(root, { recursive: true, force: true }));

  const text = 'CREATE TABLE t (x TEXT); -- café ☕\n';
  // Every byte value, so invalid UTF-8 (0x80…0xff alone) is included: it must travel as base64.
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

  it('gives the same bytes, text and hash from disk and from the bundle payload', async () => {
    const { trailer, inputs } = await embedAssets(manifest, root);
    assert.match(trailer, /^\n\/\*[^\n]*\n(\S+ [A-Za-z0-9+/=]*\n){3}\*\/\n$/, 'one comment: a head line, then one "<name> <base64>" line per asset');
    assert.deepEqual([...inputs].sort(), ['client/main.ts', 'client/sum.ts', 'scanner.wasm', 'schema.sql'], 'the entry point and what it imports are inputs');

    const disk = createAssetStore(manifest, { root });
    const bundled = createAssetStore(manifest, { trailer: () => trailer });
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

  it('carries each asset compressed, and gives back its exact bytes', async () => {
    // 300 KB of repeated text, as CSS and scripts repeat themselves: as base64 alone, 400 KB.
    const repetitive = Buffer.from('.button { color: #123; }\n'.repeat(12_000));
    writeFileSync(path.join(root, 'repetitive.css'), repetitive);
    const only: AssetManifest = { browserBuild: manifest.browserBuild, assets: { 'repetitive.css': { file: 'repetitive.css' } } };
    const { trailer } = await embedAssets(only, root);
    assert.ok(trailer.length < 5_000, `the trailer is ${trailer.length} characters for ${repetitive.length} bytes`);
    assert.ok(createAssetStore(only, { trailer: () => trailer }).get('repetitive.css').bytes.equals(repetitive));
  });

  it('refuses a name the manifest does not list, and a listed asset the bundle lacks', async () => {
    assert.throws(() => createAssetStore(manifest, { root }).get('constructor'), /no asset named constructor/);
    const { trailer } = await embedAssets({ ...manifest, assets: { 'client.js': manifest.assets['client.js']! } }, root);
    assert.throws(() => createAssetStore(manifest, { trailer: () => trailer }).get('schema.sql'), /not embedded in this bundle/);
  });

  it('reads the trailer of the script it opened, and refuses one that does not match the code', async () => {
    const { trailer } = await embedAssets(manifest, root);
    const script = path.join(root, 'bundle.mjs');
    writeFileSync(script, `console.log('code');\n${trailer}`);
    const read = scriptTrailer(script, trailerIndex(trailer));
    // A rebuild renames another script into place after the start: the process keeps its own.
    writeFileSync(`${script}.new`, 'console.log("rebuilt");\n/* x\n*/\n');
    renameSync(`${script}.new`, script);
    assert.equal(read(), trailer);
    assert.equal(read(), trailer, 'asked again, the same text');

    const edited = trailer.replace(/ ([A-Za-z0-9])/, (_, c: string) => ` ${c === 'A' ? 'B' : 'A'}`);
    writeFileSync(script, `console.log('code');\n${edited}`);
    assert.throws(scriptTrailer(script, trailerIndex(trailer)), /the assets at its end do not match its code; rebuild it/);
    writeFileSync(script, trailer.slice(10));
    assert.throws(scriptTrailer(script, trailerIndex(trailer)), /do not match its code/, 'a file shorter than the trailer');
  });

  it('serves the product manifest from the sources: schema.sql is the file at the project root', () => {
    assert.deepEqual(embeddedAssetNames(), Object.keys(productManifest.assets));
    assert.equal(embeddedAsset('schema.sql').text(), readFileSync(path.join(ROOT, 'schema.sql'), 'utf8'));
  });
});
