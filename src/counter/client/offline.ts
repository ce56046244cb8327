// The page's side of working offline: register the service worker (client/sw.ts), and put this
// page and its style sheet and script in the shell cache now — the first visit happens before the
// worker controls the page, so it cannot have seen them. Locking empties the cache: a locked
// counter must not come back unlocked from it. The page the worker shows when it has no counter to
// show (after a lock, say) is kept apart, in the shop's language: it holds no customer data.

export const SHELL_CACHE = 'counter-shell-v1';
/** Shared with the worker (client/sw.ts): `<counter path>/offline`, kept across locks. */
export const OFFLINE_CACHE = 'counter-offline-v1';

export function prepareOffline(): void {
  if (!('serviceWorker' in navigator) || !window.isSecureContext) return;
  // The worker of this shop: its built-in offline page speaks the shop's language.
  const org = location.pathname.split('/')[2] ?? '';
  void navigator.serviceWorker.register(`/counter/sw.js?org=${encodeURIComponent(org)}`, { scope: '/counter/' }).catch(() => undefined);
  const assets = [...document.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"]')].map((l) => l.href).concat([...document.querySelectorAll<HTMLScriptElement>('script[src]')].map((s) => s.src));
  void caches
    .open(SHELL_CACHE)
    .then(async (cache) => {
      await cache.addAll(assets);
      const page = await fetch(location.pathname, { credentials: 'same-origin', cache: 'no-store' });
      if (page.ok && page.headers.get('X-Counter-Shell') === '1') await cache.put(location.pathname, page);
    })
    .catch(() => undefined);
  void caches
    .open(OFFLINE_CACHE)
    .then((cache) => cache.add(`${location.pathname}/offline`))
    .catch(() => undefined);
}

export async function forgetShell(): Promise<void> {
  if ('caches' in window) await caches.delete(SHELL_CACHE).catch(() => false);
}
