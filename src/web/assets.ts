import type Router from '@koa/router';
import { embeddedAsset, type AssetName as EmbeddedName } from '../lib/embedded-assets';

// Static files of the merchant pages, served by this process from the bundle (no CDN: the pages
// need no other host; lib/embedded-assets.ts carries them). Each is addressed by its content hash
// (`/assets/app.3f9a0c1e2b7d4a60.css`), so browsers keep it for a year and a new release can
// never meet a stale copy. Only the names listed here are served: the schema is embedded too.

const WEB_ASSETS = ['app.css', 'htmx.js', 'console.js', 'counter.js', 'zxing-reader.wasm'] as const satisfies readonly EmbeddedName[];
export type AssetName = (typeof WEB_ASSETS)[number];

interface ServedAsset {
  path: string;
  contentType: string;
  body: Buffer;
  etag: string;
}

let byName: Map<AssetName, ServedAsset> | undefined;
let byPath: Map<string, ServedAsset> | undefined;

function served(): { byName: Map<AssetName, ServedAsset>; byPath: Map<string, ServedAsset> } {
  if (!byName || !byPath) {
    byName = new Map();
    byPath = new Map();
    for (const name of WEB_ASSETS) {
      const asset = embeddedAsset(name);
      const dot = name.lastIndexOf('.');
      const entry = { path: `/assets/${name.slice(0, dot)}.${asset.hash}${name.slice(dot)}`, contentType: asset.contentType ?? 'application/octet-stream', body: asset.bytes, etag: `"${asset.hash}"` };
      byName.set(name, entry);
      byPath.set(entry.path, entry);
    }
  }
  return { byName, byPath };
}

/** The URL of an asset, with its content hash. */
export function assetUrl(name: AssetName): string {
  return served().byName.get(name)!.path;
}

export function bindAssetRoutes(router: Router): void {
  router.get('/assets/:file', (ctx) => {
    const asset = served().byPath.get(ctx.path);
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
