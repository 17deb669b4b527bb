/* global self, caches, __FIELD_VERSION__, __FIELD_PRECACHE__ */
// The field app's service worker (hand-written; vite.config.ts fills in the file list at build time).
// - Precaches the app shell: the page at /field/, the field entry's JS and CSS with every chunk it may load (the map,
//   the offline basemap's data, maplibre's worker), the manifest and the icons.
// - Pages under /field/: the network first (a fresh deploy shows at once), the cached shell when there is none.
// - Hashed assets: from the cache, else the network. API calls are never cached: the app keeps its data in IndexedDB.
const VERSION = __FIELD_VERSION__;
const SHELL = '/field/';
const PRECACHE = __FIELD_PRECACHE__;
const CACHE = `farmland-field-${VERSION}`;

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll([SHELL, ...PRECACHE].map((url) => new Request(url, { cache: 'reload' }))))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith('farmland-field-') && k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener('fetch', (event) => {
  const req = event.request;
  if (req.method !== 'GET') return;
  const url = new URL(req.url);
  if (url.origin !== self.location.origin || url.pathname.startsWith('/api/')) return;
  if (req.mode === 'navigate') {
    event.respondWith(
      fetch(req)
        .then((res) => {
          if (res.ok) {
            const copy = res.clone();
            void caches.open(CACHE).then((c) => c.put(SHELL, copy));
          }
          return res;
        })
        .catch(() => caches.match(SHELL, { cacheName: CACHE }).then((hit) => hit ?? Response.error())),
    );
    return;
  }
  event.respondWith(caches.match(req, { cacheName: CACHE, ignoreSearch: true }).then((hit) => hit ?? fetch(req)));
});
