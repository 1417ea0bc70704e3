// Takes a headless Chromium screenshot of the built site (../dist) into
// out/page.png (or the path given as the first argument). SCREENSHOT_ACTIONS
// sets controls first: `nodes-slider=5;best-switch=on;model-select=llama2-70b`;
// `click:tour-start` clicks. SCREENSHOT_URL opens another path (`/?embed=power`
// or `/#model`), SCREENSHOT_SIZE sets the viewport (`640x720`) and
// SCREENSHOT_FULL=0 keeps the shot to the viewport.
//
// Starts its own serve-dist.mjs on port 8091 so it can run next to
// `make serve` (8080) and the end-to-end tests (8090).

import { mkdir } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';
import { launchOptions, viewport } from './chromium.mjs';
import { serveDist } from './local-server.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));
const out = resolve(process.argv[2] || join(here, 'out', 'page.png'));
const port = Number(process.env.SCREENSHOT_PORT || 8091);
const base = `http://127.0.0.1:${port}`;


const server = await serveDist(port);

let browser;
try {
  browser = await chromium.launch(launchOptions);
  const size = (process.env.SCREENSHOT_SIZE || '').split('x').map(Number);
  const page = await browser.newPage({ viewport: size.length === 2 ? { width: size[0], height: size[1] } : viewport });
  await page.goto(`${base}${process.env.SCREENSHOT_URL || '/'}`);
  // The app counts its repaints on <body data-draws>; the first one means
  // every chart has been drawn.
  await page.waitForFunction(() => Number(document.body.dataset.draws || 0) >= 1);
  for (const step of (process.env.SCREENSHOT_ACTIONS || '').split(';').filter(Boolean)) {
    if (step.startsWith('click:')) {
      await page.getByTestId(step.slice(6)).click();
      await page.waitForTimeout(300);
      continue;
    }
    const [testid, value] = step.split('=');
    const el = page.getByTestId(testid);
    const kind = await el.evaluate((e) => (e instanceof HTMLSelectElement ? 'select' : e.type));
    if (kind === 'select') await el.selectOption(value);
    else if (kind === 'checkbox') await el.setChecked(value === 'on');
    else await el.fill(value);
  }
  await page.waitForTimeout(400);
  await mkdir(dirname(out), { recursive: true });
  await page.screenshot({ path: out, fullPage: process.env.SCREENSHOT_FULL !== '0' });
  console.log(`screenshot: ${out}`);
} finally {
  if (browser) await browser.close();
  server.kill('SIGTERM');
}
