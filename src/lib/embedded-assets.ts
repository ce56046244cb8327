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
// In the bundle: build.mjs loads every listed asset and hands them all to esbuild as one `define`d
// constant, globalThis.__WALLET_EMBEDDED_ASSETS__ (UTF-8 text as a string, other bytes as base64);
// the bundle reads only that, never the disk, and builds nothing at start.
// Under tsx (tests, development) the constant does not exist: each asset is read from disk on first
// use, an entry point bundled then by esbuild (a devDependency, loaded only on that path).
// Both sides read the same list, so the bundle and the sources cannot disagree about what exists.
//
// Chosen over esbuild's text/binary loaders (`import schema from './schema.sql'`): Node and tsx
// cannot load such imports without a module hook of our own, and an entry point that must itself
// be bundled would need a build step of its own anyway.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import manifest from './embedded-assets.json' with { type: 'json' };

export type AssetSource = { file: string; contentType?: string } | { entry: string; contentType?: string };

export interface AssetManifest {
  /** esbuild options for every "entry" asset (bundle, platform, format, target, minify). */
  browserBuild: Record<string, unknown>;
  assets: Record<string, AssetSource>;
}

/** What build.mjs embeds: each asset's bytes, as UTF-8 text when they are valid UTF-8. */
export type EmbeddedPayload = Record<string, { utf8: string } | { base64: string }>;

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
  var __WALLET_EMBEDDED_ASSETS__: EmbeddedPayload | undefined;
}

/** Assets from the bundle's payload, or (`root`) from the files and entry points under root. */
export function createAssetStore(list: AssetManifest, from: { payload: EmbeddedPayload } | { root: string }): AssetStore {
  const loaded = new Map<string, EmbeddedAsset>();
  const load = (name: string, source: AssetSource): Buffer => {
    if ('payload' in from) {
      const embedded = Object.hasOwn(from.payload, name) ? from.payload[name] : undefined;
      if (!embedded) throw new Error(`asset ${name} is listed but not embedded in this bundle: rebuild it`);
      return 'utf8' in embedded ? Buffer.from(embedded.utf8, 'utf8') : Buffer.from(embedded.base64, 'base64');
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
const bundledPayload = globalThis.__WALLET_EMBEDDED_ASSETS__;
const store = createAssetStore(productManifest, bundledPayload ? { payload: bundledPayload } : { root: fileURLToPath(new URL('../../', import.meta.url)) });

export type AssetName = keyof typeof manifest.assets;

/** One asset of embedded-assets.json: from the bundle, or from disk when running the sources. */
export function embeddedAsset(name: AssetName): EmbeddedAsset {
  return store.get(name);
}

export function embeddedAssetNames(): AssetName[] {
  return store.names() as AssetName[];
}
