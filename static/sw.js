// Keeps a copy of the explorer so it works with the network off after one
// visit. Files whose names carry a content hash never change: they come
// from the copy when it has them. Everything else (the page, boot.js) is
// network first, so a new build is picked up at once when online, and the
// copy serves when the network fails. Only this site's own files are
// touched.
const CACHE = "scalescope-v1";
const scope = self.registration.scope;
const index = new URL("./", scope).href;
// The fragments `scalescope pages` writes (static/pages/).
const PAGES = ["pages/model.html", "pages/tour.html"];

// Everything the page loads: the page itself and the files it names.
async function precache() {
  const cache = await caches.open(CACHE);
  const response = await fetch(index, { cache: "no-cache" });
  if (!response.ok) return;
  const html = await response.clone().text();
  await cache.put(index, response);
  const files = new Set();
  for (const m of html.matchAll(/(?:href|src|data-js|data-wasm)="([^"#?]+)"/g)) {
    const url = new URL(m[1], index).href;
    if (url.startsWith(scope)) files.add(url);
  }
  files.add(new URL("sw.js", scope).href);
  // Fetched when the model page or the tour opens, not named by the page.
  for (const name of PAGES) files.add(new URL(name, scope).href);
  await Promise.all(
    [...files].map(async (url) => {
      const r = await fetch(url, { cache: "no-cache" });
      if (r.ok) await cache.put(url, r);
    }),
  );
}

self.addEventListener("install", (event) => {
  event.waitUntil(precache().then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const key of await caches.keys()) {
        if (key !== CACHE) await caches.delete(key);
      }
      await self.clients.claim();
    })(),
  );
});

// `app-0123456789abcdef_bg.wasm`, `style-0123456789abcdef.css`: immutable.
const hashed = /-[0-9a-f]{16}(_bg)?\.[a-z]+$/;

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || !request.url.startsWith(scope)) return;
  const page = request.mode === "navigate";
  const key = page ? index : request.url.split(/[?#]/)[0];
  event.respondWith(
    (async () => {
      const cache = await caches.open(CACHE);
      if (hashed.test(key)) {
        const copy = await cache.match(key);
        if (copy) return copy;
      }
      try {
        const response = await fetch(request);
        if (response.ok && response.type === "basic") {
          // Stored after the response is on its way, not before.
          event.waitUntil(cache.put(key, response.clone()));
        }
        return response;
      } catch (error) {
        const copy = await cache.match(key);
        if (copy) return copy;
        throw error;
      }
    })(),
  );
});
