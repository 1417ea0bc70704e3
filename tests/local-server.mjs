// Starts serve-dist.mjs on `port` for a script that drives a browser
// itself (budgets, screenshot, the Firefox smoke test), and waits until it
// answers. Returns the server process; kill it when done.

import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));

export async function serveDist(port, ms = 15_000) {
  const server = spawn(process.execPath, [join(here, 'serve-dist.mjs'), '--port', String(port)], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}/index.html`;
  const until = Date.now() + ms;
  while (Date.now() < until) {
    try {
      if ((await fetch(url)).ok) return server;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  server.kill('SIGTERM');
  throw new Error(`server at ${url} did not start`);
}
