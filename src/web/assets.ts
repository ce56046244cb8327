import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type Router from '@koa/router';

// Static files of the merchant pages, served by this process (no CDN, decisions §8). Each is
// addressed by a content hash (`/assets/app.3f9a0c1e.css`), so it can be cached for a year and a
// new release can never meet a stale copy.

interface AssetSource {
  contentType: string;
  load(): Buffer;
}

const require = createRequire(import.meta.url);
const local = (file: string) => () => readFileSync(new URL(`./assets/${file}`, import.meta.url));

const SOURCES = {
  'app.css': { contentType: 'text/css; charset=utf-8', load: local('app.css') },
  'htmx.js': { contentType: 'text/javascript; charset=utf-8', load: () => readFileSync(require.resolve('htmx.org/dist/htmx.min.js')) },
} satisfies Record<string, AssetSource>;

export type AssetName = keyof typeof SOURCES;

interface LoadedAsset {
  path: string;
  contentType: string;
  body: Buffer;
  etag: string;
}

let loaded: Map<AssetName, LoadedAsset> | undefined;
let byPath: Map<string, LoadedAsset> | undefined;

function assets(): Map<AssetName, LoadedAsset> {
  if (!loaded) {
    loaded = new Map();
    byPath = new Map();
    for (const [name, source] of Object.entries(SOURCES) as [AssetName, AssetSource][]) {
      const body = source.load();
      const hash = createHash('sha256').update(body).digest('hex').slice(0, 12);
      const dot = name.lastIndexOf('.');
      const path = `/assets/${name.slice(0, dot)}.${hash}${name.slice(dot)}`;
      const asset = { path, contentType: source.contentType, body, etag: `"${hash}"` };
      loaded.set(name, asset);
      byPath.set(path, asset);
    }
  }
  return loaded;
}

/** The URL of an asset, with its content hash. */
export function assetUrl(name: AssetName): string {
  return assets().get(name)!.path;
}

export function bindAssetRoutes(router: Router): void {
  router.get('/assets/:file', (ctx) => {
    assets();
    const asset = byPath!.get(ctx.path);
    if (!asset) {
      ctx.status = 404;
      ctx.type = 'text/plain; charset=utf-8';
      ctx.body = 'Not found';
      return;
    }
    ctx.set('Cache-Control', 'public, max-age=31536000, immutable');
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('ETag', asset.etag);
    ctx.type = asset.contentType;
    if (ctx.get('If-None-Match') === asset.etag) {
      ctx.status = 304;
      return;
    }
    ctx.body = asset.body;
  });
}
