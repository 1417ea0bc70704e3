// A smoke test of the built site (../dist) in a second engine: Debian's
// Firefox ESR driven by puppeteer-core over WebDriver BiDi (no browser
// download). It loads the explorer, moves a slider, opens the tour and the
// model page, exports a CSV, and fails on any console error or uncaught
// exception: once on the served site, once on the one-file copy opened from
// disk (file://) with the network shut off. `make firefox`; part of `make test`.

import puppeteer from 'puppeteer-core';
import { serveDist } from './local-server.mjs';

const port = Number(process.env.FIREFOX_PORT || 8093);
const base = `http://127.0.0.1:${port}`;
const executablePath = process.env.FIREFOX_PATH || '/usr/bin/firefox-esr';
// The one-file copy `make dist` writes (scripts/classroom.py).
const single = new URL('../dist-single/scalescope.html', import.meta.url).href;

function check(ok, what) {
  if (!ok) throw new Error(`firefox: ${what}`);
  console.log(`  ok  ${what}`);
}


/** The smoke test on one copy of the site: `at(suffix)` is its address
 * with a hash or query appended, `label` names the copy. */
async function smoke(browser, at, label) {
  const ok = (cond, what) => check(cond, `${label}: ${what}`);
  const page = await browser.newPage();
  await page.setViewport({ width: 1280, height: 900 });
  const problems = [];
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`exception: ${e.message}`));
  const draws = () => page.evaluate(() => Number(document.body.dataset.draws || 0));

  await page.goto(at(''), { waitUntil: 'load' });
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
  ok(drawn === 10, `all 10 charts drawn (${drawn})`);

  const before = await draws();
  await page.focus('[data-testid="nodes-slider"]');
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction((n) => Number(document.body.dataset.draws || 0) > n, { timeout: 10_000 }, before);
  const nodes = await page.$eval('[data-testid="nodes-input"]', (e) => e.value);
  ok(nodes === '64', `a slider moves and the charts repaint (nodes ${nodes})`);

  await page.click('[data-testid="tour-start"]');
  await page.waitForSelector('[data-testid="tour"]', { visible: true, timeout: 10_000 });
  ok(true, 'the tour opens');

  await page.goto(at('#model'), { waitUntil: 'load' });
  await page.waitForSelector('[data-testid="model-page"]', { visible: true, timeout: 15_000 });
  await page.waitForFunction(
    () => /of 14 findings hold/.test(document.querySelector('[data-testid="validation-summary"]')?.textContent || ''),
    { timeout: 60_000 },
  );
  ok(true, 'the model page opens and validates against the paper');

  await page.goto(at(''), { waitUntil: 'load' });
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
  ok(lines[0].startsWith('nodes,gpus,') && lines.length >= 10, `the CSV export is well formed (${lines.length} lines)`);

  const loaded = await page.evaluate(() =>
    performance.getEntriesByType('resource').map((r) => r.name).filter((n) => /^https?:/.test(n)),
  );
  if (label !== 'served') ok(loaded.length === 0, `nothing loaded over the network (${loaded.join(', ')})`);
  ok(problems.length === 0, `no console error or exception${problems.length ? `: ${problems.join('; ')}` : ''}`);
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
  await smoke(browser, (suffix) => `${base}/${suffix}`, 'served');
  await browser.close();
  // The one-file copy (make classroom), opened from disk with every HTTP
  // request sent to a proxy that is not there: nothing may load.
  browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath,
    headless: true,
    protocol: 'webDriverBiDi',
    extraPrefsFirefox: {
      'app.update.enabled': false,
      'network.proxy.type': 1,
      'network.proxy.http': '127.0.0.1',
      'network.proxy.http_port': 9,
      'network.proxy.ssl': '127.0.0.1',
      'network.proxy.ssl_port': 9,
      'network.proxy.no_proxies_on': '',
      'network.proxy.allow_hijacking_localhost': true,
    },
  });
  await smoke(browser, (suffix) => `${single}${suffix}`, 'one file, offline');
  console.log('firefox smoke test passed');
} finally {
  if (browser) await browser.close();
  server.kill();
}
