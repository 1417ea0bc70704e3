// Takes a headless Chromium screenshot of the built site (../dist) into
// out/page.png (or the path given as the first argument).
//
// Starts its own serve-dist.mjs on port 8091 so it can run next to
// `make serve` (8080) and the end-to-end tests (8090).

import { spawn } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';
import { launchOptions, viewport } from './chromium.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));
const out = resolve(process.argv[2] || join(here, 'out', 'page.png'));
const port = Number(process.env.SCREENSHOT_PORT || 8091);
const base = `http://127.0.0.1:${port}`;

async function waitForServer(url, ms = 15_000) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`server at ${url} did not start`);
}

const server = spawn(process.execPath, [join(here, 'serve-dist.mjs'), '--port', String(port)], {
  stdio: ['ignore', 'ignore', 'inherit'],
});

let browser;
try {
  await waitForServer(`${base}/index.html`);
  browser = await chromium.launch(launchOptions);
  const page = await browser.newPage({ viewport });
  await page.goto(`${base}/`);
  const chart = page.getByTestId('chart');
  await chart.waitFor({ state: 'visible' });
  // Wait until the canvas has something drawn on it.
  await page.waitForFunction(() => {
    const c = document.querySelector('[data-testid=chart]');
    if (!c || !c.width) return false;
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    for (let i = 3; i < d.length; i += 4) if (d[i] !== 0) return true;
    return false;
  });
  await mkdir(dirname(out), { recursive: true });
  await page.screenshot({ path: out, fullPage: true });
  console.log(`screenshot: ${out}`);
} finally {
  if (browser) await browser.close();
  server.kill('SIGTERM');
}
