// Minimal static file server for the built site in ../dist, used by the
// end-to-end tests (Playwright starts it through its `webServer` option).
//
// Usage: node serve-dist.mjs [--port 8090] [--host 127.0.0.1] [--root ../dist]
//                            [--mount /docs/scalescope/]
// Environment: SERVE_PORT, SERVE_HOST, SERVE_ROOT override the defaults.
// The site is served at the root and, as on a static host's sub-path, under
// the mount path too.

import { createServer } from 'node:http';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));

function arg(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback;
}

const host = arg('host', process.env.SERVE_HOST || '127.0.0.1');
const port = Number(arg('port', process.env.SERVE_PORT || '8090'));
const root = resolve(here, arg('root', process.env.SERVE_ROOT || '../dist'));
const mount = arg('mount', '/docs/scalescope/');

const MIME = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
};

async function resolveFile(urlPath) {
  let rel;
  try {
    rel = decodeURIComponent(urlPath.split('?')[0].split('#')[0]);
  } catch {
    return null;
  }
  const full = normalize(join(root, rel));
  if (full !== root && !full.startsWith(root + sep)) return null; // path traversal
  try {
    const s = await stat(full);
    if (s.isDirectory()) {
      const index = join(full, 'index.html');
      const si = await stat(index);
      return si.isFile() ? { path: index, size: si.size } : null;
    }
    return s.isFile() ? { path: full, size: s.size } : null;
  } catch {
    return null;
  }
}

const server = createServer(async (req, res) => {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { Allow: 'GET, HEAD' });
    res.end();
    return;
  }
  let path = req.url || '/';
  if (path.startsWith(mount)) path = '/' + path.slice(mount.length);
  const file = await resolveFile(path);
  if (!file) {
    res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' });
    res.end('not found\n');
    return;
  }
  res.writeHead(200, {
    'Content-Type': MIME[extname(file.path).toLowerCase()] || 'application/octet-stream',
    'Content-Length': file.size,
    'Cache-Control': 'no-store',
  });
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  createReadStream(file.path).pipe(res);
});

server.listen(port, host, () => {
  console.log(`serving ${root} at http://${host}:${port}/`);
});

for (const sig of ['SIGINT', 'SIGTERM']) {
  process.on(sig, () => server.close(() => process.exit(0)));
}
