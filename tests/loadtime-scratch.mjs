import { chromium } from '@playwright/test';
import { launchOptions } from './chromium.mjs';
import { serveDist } from './local-server.mjs';
const port = 8131;
const server = await serveDist(port);
const browser = await chromium.launch(launchOptions);
const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
const loads = [];
for (let i = 0; i < 12; i++) {
  const page = await context.newPage();
  await page.goto(`http://127.0.0.1:${port}/`);
  await page.waitForFunction(() => document.body.dataset.firstDrawMs !== undefined);
  loads.push(await page.evaluate(() => Number(document.body.dataset.firstDrawMs)));
  await page.close();
}
loads.sort((a, b) => a - b);
console.log('loads', loads.join(' '), 'median', loads[6]);
await browser.close();
process.exit(0);
