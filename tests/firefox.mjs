// A smoke test of the built site (../dist) in a second engine: Debian's
// Firefox ESR driven by puppeteer-core over WebDriver BiDi (no browser
// download). It loads the explorer, moves a slider, opens the tour and the
// model page, exports a CSV, and fails on any console error or uncaught
// exception. `make firefox`; part of `make test`.

import puppeteer from 'puppeteer-core';
import { serveDist } from './local-server.mjs';

const port = Number(process.env.FIREFOX_PORT || 8093);
const base = `http://127.0.0.1:${port}`;
const executablePath = process.env.FIREFOX_PATH || '/usr/bin/firefox-esr';

function check(ok, what) {
  if (!ok) throw new Error(`firefox: ${what}`);
  console.log(`  ok  ${what}`);
}


const server = await serveDist(port);
let browser;
try {
  browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath,
    headless: true,
    protocol: 'webDriverBiDi',
    extraPrefsFirefox: { 'network.proxy.type': 0, 'app.update.enabled': false },
  });
  const page = await browser.newPage();
  await page.setViewport({ width: 1280, height: 900 });
  const problems = [];
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`exception: ${e.message}`));
  const draws = () => page.evaluate(() => Number(document.body.dataset.draws || 0));

  await page.goto(`${base}/`, { waitUntil: 'load' });
  await page.waitForFunction(() => Number(document.body.dataset.draws || 0) > 0, { timeout: 30_000 });
  const drawn = await page.evaluate(() =>
    [...document.querySelectorAll('canvas[data-testid^="chart-"]')].filter((c) => {
      const ctx = c.getContext('2d');
      const { data } = ctx.getImageData(0, 0, c.width, c.height);
      let inked = 0;
      for (let i = 3; i < data.length; i += 4 * 97) if (data[i] > 0) inked += 1;
      return inked > 20;
    }).length,
  );
  check(drawn === 10, `all 10 charts drawn (${drawn})`);

  const before = await draws();
  await page.focus('[data-testid="nodes-slider"]');
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction((n) => Number(document.body.dataset.draws || 0) > n, { timeout: 10_000 }, before);
  const nodes = await page.$eval('[data-testid="nodes-input"]', (e) => e.value);
  check(nodes === '64', `a slider moves and the charts repaint (nodes ${nodes})`);

  await page.click('[data-testid="tour-start"]');
  await page.waitForSelector('[data-testid="tour"]', { visible: true, timeout: 10_000 });
  check(true, 'the tour opens');

  await page.goto(`${base}/#model`, { waitUntil: 'load' });
  await page.waitForSelector('[data-testid="model-page"]', { visible: true, timeout: 15_000 });
  await page.waitForFunction(
    () => /of 14 findings hold/.test(document.querySelector('[data-testid="validation-summary"]')?.textContent || ''),
    { timeout: 60_000 },
  );
  check(true, 'the model page opens and validates against the paper');

  await page.goto(`${base}/`, { waitUntil: 'load' });
  await page.waitForFunction(() => Number(document.body.dataset.draws || 0) > 0, { timeout: 30_000 });
  // Keep the blob the page hands to the download, to read it back.
  await page.evaluate(() => {
    const make = URL.createObjectURL.bind(URL);
    URL.createObjectURL = (blob) => {
      window.__lastBlob = blob;
      return make(blob);
    };
  });
  await page.click('[data-testid="export-throughput-csv"]');
  await page.waitForFunction(() => window.__lastBlob !== undefined, { timeout: 10_000 });
  const csv = await page.evaluate(() => window.__lastBlob.text());
  const lines = csv.trim().split('\n');
  check(lines[0].startsWith('nodes,gpus,') && lines.length >= 10, `the CSV export is well formed (${lines.length} lines)`);

  check(problems.length === 0, `no console error or exception${problems.length ? `: ${problems.join('; ')}` : ''}`);
  console.log('firefox smoke test passed');
} finally {
  if (browser) await browser.close();
  server.kill();
}
