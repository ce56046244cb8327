// Files the program carries inside its one bundled script, so that script runs with nothing beside
// it but node_modules/better-sqlite3: the database schema today; the web pages' htmx, CSS, client
// script and scanner .wasm next.
//
// One list, embedded-assets.json, names every asset once, as either
//   { "file": "path/from/the/project/root" }   any bytes (text or binary), or
//   { "entry": "src/…/client.ts" }              a browser entry point that esbuild bundles with the
//                                               list's "browserBuild" options,
// each with an optional "contentType" for the route that will serve it.
//
// In the bundle: build.mjs loads every listed asset and appends them after the code,
// brotli-compressed and base64 in one comment (build.mjs `assetTrailer` says why not in the code,
// and why compressed); the code holds only the trailer's length and SHA-256, the `define`d
// constant globalThis.__WALLET_EMBEDDED_ASSETS__. The bundle reads its own script for them at the
// first use of any, never another file, and builds nothing.
// Under tsx (tests, development) the constant does not exist: each asset is read from disk on first
// use, an entry point bundled then by esbuild (a devDependency, loaded only on that path).
// Both sides read the same list, so the bundle and the sources cannot disagree about what exists.
//
// Chosen over esbuild's text/binary loaders (`import schema from './schema.sql'`): Node and tsx
// cannot load such imports without a module hook of our own, and an entry point that must itself
// be bundled would need a build step of its own anyway.
import { createHash } from 'node:crypto';
import { closeSync, fstatSync, openSync, readFileSync, readSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliDecompressSync } from 'node:zlib';
import manifest from './embedded-assets.json' with { type: 'json' };

export type AssetSource = { file: string; contentType?: string } | { entry: string; contentType?: string };

export interface AssetManifest {
  /** esbuild options for every "entry" asset (bundle, platform, format, target, minify). */
  browserBuild: Record<string, unknown>;
  assets: Record<string, AssetSource>;
}

/** What the bundle's code holds about the assets that end its script (build.mjs `trailerIndex`). */
export interface TrailerIndex {
  bytes: number;
  sha256: string;
}

export interface EmbeddedAsset {
  readonly name: string;
  readonly bytes: Buffer;
  /** The first 16 hex digits of the bytes' SHA-256: for cache-busting URLs and ETags. */
  readonly hash: string;
  readonly contentType: string | undefined;
  /** The bytes as UTF-8 text. */
  text(): string;
}

export interface AssetStore {
  names(): string[];
  get(name: string): EmbeddedAsset;
}

declare global {
  // Set only inside the bundle, by build.mjs through esbuild's `define`.
  var __WALLET_EMBEDDED_ASSETS__: TrailerIndex | undefined;
}

/**
 * Assets from a bundle's trailer (`trailer` gives its text, asked at most once), or (`root`) from
 * the files and entry points under root.
 */
export function createAssetStore(list: AssetManifest, from: { trailer: () => string } | { root: string }): AssetStore {
  const loaded = new Map<string, EmbeddedAsset>();
  let trailer: Map<string, string> | undefined;
  const load = (name: string, source: AssetSource): Buffer => {
    if ('trailer' in from) {
      trailer ??= parseTrailer(from.trailer());
      const base64 = trailer.get(name);
      if (base64 === undefined) throw new Error(`asset ${name} is listed but not embedded in this bundle: rebuild it`);
      return brotliDecompressSync(Buffer.from(base64, 'base64'));
    }
    return 'entry' in source ? bundleEntry(list, from.root, source.entry) : readFileSync(path.join(from.root, source.file));
  };
  return {
    names: () => Object.keys(list.assets),
    get(name) {
      const cached = loaded.get(name);
      if (cached) return cached;
      const source = Object.hasOwn(list.assets, name) ? list.assets[name] : undefined;
      if (!source) throw new Error(`no asset named ${name} in embedded-assets.json`);
      const bytes = load(name, source);
      const asset: EmbeddedAsset = {
        name,
        bytes,
        hash: createHash('sha256').update(bytes).digest('hex').slice(0, 16),
        contentType: source.contentType,
        text: () => bytes.toString('utf8'),
      };
      loaded.set(name, asset);
      return asset;
    },
  };
}

/** name → base64 of each "<name> <base64>" line between the comment's first line and its end. */
function parseTrailer(text: string): Map<string, string> {
  const assets = new Map<string, string>();
  for (const line of text.split('\n').slice(2, -2)) {
    const space = line.indexOf(' ');
    assets.set(line.slice(0, space), line.slice(space + 1));
  }
  return assets;
}

/**
 * The trailer of a bundle script (the one this process runs), read at the first call. The file is
 * opened now: a rebuild renames a new script into place, and this process goes on reading the one
 * it started from. A trailer that does not match the code's index (an edited or cut file) is refused.
 */
export function scriptTrailer(script: string, index: TrailerIndex): () => string {
  const fd = openSync(script, 'r');
  let outcome: { text: string } | { error: Error } | undefined;
  const read = (): string => {
    try {
      const tail = Buffer.alloc(index.bytes);
      const start = fstatSync(fd).size - tail.length;
      let got = 0;
      while (start >= 0 && got < tail.length) {
        const n = readSync(fd, tail, got, tail.length - got, start + got);
        if (n === 0) break;
        got += n;
      }
      if (got !== tail.length || createHash('sha256').update(tail).digest('hex') !== index.sha256) {
        throw new Error(`${script}: the assets at its end do not match its code; rebuild it (npm run build)`);
      }
      return tail.toString('latin1');
    } finally {
      closeSync(fd);
    }
  };
  return () => {
    if (!outcome) {
      try {
        outcome = { text: read() };
      } catch (error) {
        outcome = { error: error as Error };
      }
    }
    if ('error' in outcome) throw outcome.error;
    return outcome.text;
  };
}

/** Development only: the same esbuild options build.mjs uses, run synchronously on first use. */
function bundleEntry(list: AssetManifest, root: string, entry: string): Buffer {
  // Loaded here, not imported: esbuild is a devDependency and must stay out of the bundle.
  const esbuild = createRequire(import.meta.url)('esbuild') as typeof import('esbuild');
  const options = list.browserBuild as import('esbuild').BuildOptions;
  const result = esbuild.buildSync({ ...options, entryPoints: [path.join(root, entry)], write: false, logLevel: 'silent' });
  const output = result.outputFiles[0];
  if (!output || result.outputFiles.length !== 1) throw new Error(`${entry} must bundle to exactly one file`);
  return Buffer.from(output.contents);
}

const productManifest: AssetManifest = manifest;
const bundled = globalThis.__WALLET_EMBEDDED_ASSETS__;
const store = createAssetStore(productManifest, bundled ? { trailer: scriptTrailer(fileURLToPath(import.meta.url), bundled) } : { root: fileURLToPath(new URL('../../', import.meta.url)) });

export type AssetName = keyof typeof manifest.assets;

/** One asset of embedded-assets.json: from the bundle, or from disk when running the sources. */
export function embeddedAsset(name: AssetName): EmbeddedAsset {
  return store.get(name);
}

export function embeddedAssetNames(): AssetName[] {
  return store.names() as AssetName[];
}
