import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, test, type Page } from '@playwright/test';

// The one-file copy `make dist` writes (scripts/classroom.py), opened from
// disk as a teacher opens it from a USB stick: file://, no server, and the
// network shut off.
const SINGLE = new URL('../../dist-single/scalescope.html', import.meta.url).href;

/** Opens the one file offline, failing on any console error, exception
 * or request that leaves the file. */
async function openOffline(page: Page, suffix = ''): Promise<string[]> {
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`exception: ${e.message}`));
  page.on('request', (r) => {
    if (!r.url().startsWith('file:') && !r.url().startsWith('data:') && !r.url().startsWith('blob:')) {
      problems.push(`request: ${r.url()}`);
    }
  });
  await page.context().setOffline(true);
  await page.goto(`${SINGLE}${suffix}`);
  return problems;
}

const draws = (page: Page) => page.evaluate(() => Number(document.body.dataset.draws || 0));

test.describe('one file for the classroom', () => {
  test('its policy allows only its own script and style, by hash', () => {
    const html = readFileSync(fileURLToPath(SINGLE), 'utf8');
    const csp = /http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)![1].replaceAll('&#x27;', "'");
    expect(csp).toContain("default-src 'none'");
    expect(csp).toMatch(/script-src 'sha256-[A-Za-z0-9+/=]+' 'wasm-unsafe-eval';/);
    expect(csp).toMatch(/style-src 'sha256-[A-Za-z0-9+/=]+';/);
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).not.toMatch(/https?:/);
    // One script, one style, nothing fetched: no src or href but data URLs
    // and links within the page.
    expect(html.match(/<script/g)).toHaveLength(1);
    expect(html).not.toMatch(/(src|href)="(?!data:|#)/);
  });

  test('opens from disk offline: a slider repaints, the link it writes reopens the same state, the tour and model page open', async ({ page }) => {
    const problems = await openOffline(page);
    await page.waitForFunction(() => Number(document.body.dataset.draws || 0) >= 1);
    await expect(page.getByTestId('single-file-link')).toHaveCount(0);
    const before = await draws(page);
    await page.getByTestId('nodes-slider').focus();
    await page.keyboard.press('ArrowRight');
    await page.waitForFunction((n) => Number(document.body.dataset.draws || 0) > n, before);
    await expect(page.getByTestId('nodes-input')).toHaveValue('64');
    // The link it writes is this file with a query: reloading it keeps the state.
    await expect.poll(() => page.url()).toContain('nodes=64');
    expect(page.url().startsWith(SINGLE)).toBe(true);
    await page.reload();
    await page.waitForFunction(() => Number(document.body.dataset.draws || 0) >= 1);
    await expect(page.getByTestId('nodes-input')).toHaveValue('64');
    await page.getByTestId('tour-start').click();
    await expect(page.getByTestId('tour')).toBeVisible();
    await page.getByTestId('model-link').click();
    await expect(page.getByTestId('model-page')).toBeVisible();
    await expect(page.getByTestId('validation-summary')).toContainText(/of 14 findings hold/, { timeout: 30_000 });
    expect(problems).toEqual([]);
  });

  test('exports CSV, PNG and the scenario file from disk offline', async ({ page }) => {
    const problems = await openOffline(page);
    await page.waitForFunction(() => Number(document.body.dataset.draws || 0) >= 1);
    const [csv] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-throughput-csv').click()]);
    const text = readFileSync((await csv.path())!, 'utf8');
    expect(text.split('\n')[0]).toMatch(/^nodes,gpus,/);
    expect(text.trim().split('\n').length).toBeGreaterThanOrEqual(10);
    const [png] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-throughput-png').click()]);
    expect(readFileSync((await png.path())!).subarray(1, 4).toString()).toBe('PNG');
    const [json] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-scenario').click()]);
    const saved = readFileSync((await json.path())!, 'utf8');
    expect(JSON.parse(saved).hardware.gpu).toBe('h100-sxm5-80gb');
    // The saved file opens back from disk, offline.
    await page.getByTestId('nodes-slider').focus();
    await page.keyboard.press('ArrowLeft');
    await expect(page.getByTestId('nodes-input')).toHaveValue('16');
    await page.getByTestId('import-file').setInputFiles({ name: 's.json', mimeType: 'application/json', buffer: Buffer.from(saved) });
    await expect(page.getByTestId('nodes-input')).toHaveValue('32');
    expect(problems).toEqual([]);
  });

  test('an embed link works from the same file', async ({ page }) => {
    const problems = await openOffline(page, '?embed=throughput,power&nodes=16');
    await page.waitForFunction(() => Number(document.body.dataset.draws || 0) >= 1);
    await expect(page.getByTestId('chart-throughput')).toBeVisible();
    await expect(page.getByTestId('chart-breakdown')).toHaveCount(0);
    expect(problems).toEqual([]);
  });

  test('the served site offers the file in its footer', async ({ page, request }) => {
    await page.goto('/');
    const link = page.getByTestId('single-file-link');
    await expect(link).toHaveAttribute('href', 'scalescope.html');
    await expect(link).toHaveAttribute('download', 'scalescope.html');
    const file = await request.get('/scalescope.html');
    expect(file.ok()).toBe(true);
    expect(await file.text()).toContain('data-single-file');
  });
});
