// Files the program carries inside its one bundled script, so that script runs with nothing beside
// it but node_modules/better-sqlite3: the database schema, and the web pages' htmx, CSS, client
// scripts and scanner .wasm.
//
// One list, embedded-assets.json, names every asset once, as either
//   { "file": "path/from/the/project/root" }   any bytes (text or binary), or
//   { "entry": "src/…/client.ts" }              a browser entry point that esbuild bundles with the
//                                               list's "browserBuild" options,
// each with an optional "contentType" for the route that will serve it.
//
// In the bundle: build.mjs loads every listed asset (bundling the entry points first) and puts
// them in the script with esbuild's text and binary loaders, as the module bundled-assets.ts.
// Under tsx (tests, development) that module holds none: each asset is read from disk on first
// use, an entry point bundled then by esbuild (a devDependency, loaded only on that path).
// Both sides read the same list, so the bundle and the sources cannot disagree about what exists.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundledAssets } from './bundled-assets';
import manifest from './embedded-assets.json' with { type: 'json' };

export type AssetSource = { file: string; contentType?: string } | { entry: string; contentType?: string };

export interface AssetManifest {
  /** esbuild options for every "entry" asset (bundle, platform, format, target, minify). */
  browserBuild: Record<string, unknown>;
  assets: Record<string, AssetSource>;
}

/** The assets as the bundle carries them, by name: text as a string, other bytes as a Uint8Array. */
export type BundledAssets = Readonly<Record<string, string | Uint8Array>>;

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

/** Assets from a bundle (`bundled`), or (`root`) from the files and entry points under root. */
export function createAssetStore(list: AssetManifest, from: { bundled: BundledAssets } | { root: string }): AssetStore {
  const loaded = new Map<string, EmbeddedAsset>();
  const load = (name: string, source: AssetSource): Buffer => {
    if ('bundled' in from) {
      const value = Object.hasOwn(from.bundled, name) ? from.bundled[name] : undefined;
      if (value === undefined) throw new Error(`asset ${name} is listed but not embedded in this bundle: rebuild it`);
      return typeof value === 'string' ? Buffer.from(value, 'utf8') : Buffer.from(value.buffer, value.byteOffset, value.byteLength);
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
const store = createAssetStore(productManifest, bundledAssets ? { bundled: bundledAssets } : { root: fileURLToPath(new URL('../../', import.meta.url)) });

export type AssetName = keyof typeof manifest.assets;

/** One asset of embedded-assets.json: from the bundle, or from disk when running the sources. */
export function embeddedAsset(name: AssetName): EmbeddedAsset {
  return store.get(name);
}

export function embeddedAssetNames(): AssetName[] {
  return store.names() as AssetName[];
}
