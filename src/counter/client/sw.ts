// The counter's service worker (scope /counter/): the page shell keeps working when the server
// cannot be reached, so a reload loses nothing — the queued awards are in IndexedDB and the page
// that sends them comes from here. Network first for the counter page (fresh whenever the server
// answers), cache first for the content-hashed /assets/ files. Customer data is never cached.
// The WebWorker library's types clash with the DOM's, so the few used here are declared locally.

interface FetchEventLike extends Event {
  request: Request;
  respondWith(response: Promise<Response> | Response): void;
}
interface ExtendableEventLike extends Event {
  waitUntil(promise: Promise<unknown>): void;
}
interface WorkerScope {
  location: Location;
  skipWaiting(): Promise<void>;
  clients: { claim(): Promise<void> };
  addEventListener(type: 'install' | 'activate', listener: (event: ExtendableEventLike) => void): void;
  addEventListener(type: 'fetch', listener: (event: FetchEventLike) => void): void;
}

const worker = self as unknown as WorkerScope;
/** Shared with the page (client/offline.ts), which fills it and empties it when it locks. */
const SHELL_CACHE = 'counter-shell-v1';
/** The page to show offline, in the shop's language, put there by the counter page (client/offline.ts). */
const OFFLINE_CACHE = 'counter-offline-v1';
const COUNTER_PAGE = /^\/counter\/[^/]+$/;

worker.addEventListener('install', (event) => event.waitUntil(worker.skipWaiting()));
worker.addEventListener('activate', (event) => event.waitUntil(worker.clients.claim()));

/** The offline page's words, in the shop's language: the server puts them before this script (routes.ts, `?org=`). */
interface OfflineTexts {
  lang: string;
  title: string;
  heading: string;
  body: string;
  retry: string;
}
const texts = (self as unknown as { counterOfflineTexts: OfflineTexts }).counterOfflineTexts;

const escapeText = (text: string) => text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

/** Only when the counter page never stored its own offline page on this device. */
const builtInOfflinePage = () =>
  new Response(
    `<!doctype html><html lang="${escapeText(texts.lang)}"><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeText(texts.title)}</title>` +
      `<body style="font:18px/1.5 system-ui,sans-serif;margin:2rem"><h1>${escapeText(texts.heading)}</h1>` +
      `<p>${escapeText(texts.body)}</p><p><a href="">${escapeText(texts.retry)}</a></p>`,
    { status: 503, headers: { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' } },
  );

async function offlinePage(path: string): Promise<Response> {
  const kept = await caches.match(`${path}/offline`, { cacheName: OFFLINE_CACHE });
  if (!kept) return builtInOfflinePage();
  return new Response(kept.body, { status: 503, headers: { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' } });
}

async function counterPage(request: Request, path: string): Promise<Response> {
  try {
    const response = await fetch(request);
    // Only the unlocked counter is kept (the server marks it): never the PIN screen over it.
    if (response.ok && response.headers.get('X-Counter-Shell') === '1') {
      const cache = await caches.open(SHELL_CACHE);
      await cache.put(path, response.clone());
    }
    return response;
  } catch {
    return (await caches.match(path, { cacheName: SHELL_CACHE })) ?? (await offlinePage(path));
  }
}

async function asset(request: Request): Promise<Response> {
  const hit = await caches.match(request, { cacheName: SHELL_CACHE });
  if (hit) return hit;
  const response = await fetch(request);
  if (response.ok) await (await caches.open(SHELL_CACHE)).put(request, response.clone());
  return response;
}

worker.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== worker.location.origin) return;
  if (request.mode === 'navigate' && COUNTER_PAGE.test(url.pathname)) event.respondWith(counterPage(request, url.pathname));
  else if (url.pathname.startsWith('/assets/') && !url.pathname.endsWith('.wasm')) event.respondWith(asset(request));
});
