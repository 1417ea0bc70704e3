import { expect, test } from '@playwright/test';
import { CHARTS, ScaleScopePage } from './support/scalescope-page';

test.describe('self-contained', () => {
  test('a Content-Security-Policy forbids other origins and nothing on the page breaks under it', async ({ page }) => {
    await page.addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as { violations: string[] }).violations = seen;
      document.addEventListener('securitypolicyviolation', (e) => seen.push(`${e.violatedDirective} ${e.blockedURI}`));
    });
    const app = new ScaleScopePage(page);
    await app.goto();
    const csp = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self' 'wasm-unsafe-eval'");
    expect(csp).not.toContain('unsafe-inline');
    // Exercise what the page can do: every chart, hover, the tour, the
    // model page, an export; none of it may trip the policy.
    await app.state();
    await app.chart('throughput').scrollIntoViewIfNeeded();
    await app.chart('throughput').hover({ position: { x: 300, y: 200 } });
    await page.getByTestId('tour-start').click();
    await expect(page.getByTestId('tour-paper')).not.toBeEmpty({ timeout: 30_000 });
    await page.getByTestId('tour-leave').click();
    const [svg] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-power-svg').click()]);
    expect(svg.suggestedFilename()).toBe('scalescope-power.svg');
    await page.getByTestId('model-link').click();
    await expect(page.getByTestId('validation-summary')).toBeVisible({ timeout: 30_000 });
    expect(await page.evaluate(() => (window as unknown as { violations: string[] }).violations)).toEqual([]);
    expect(app.externalRequests()).toEqual([]);
    app.expectNoProblems();
    // The policy is live: a request to another origin is refused in the
    // browser before it leaves the machine.
    const refused = await page.evaluate(async () => {
      try {
        await fetch('https://example.com/');
        return false;
      } catch {
        return true;
      }
    });
    expect(refused).toBe(true);
    const violations = await page.evaluate(() => (window as unknown as { violations: string[] }).violations);
    expect(violations).toEqual(['connect-src https://example.com/']);
    expect(app.externalRequests()).toEqual([]);
  });

  test('after one visit the explorer works with the network off', async ({ page, context }) => {
    const app = new ScaleScopePage(page);
    await app.goto();
    // The service worker has a copy of the site once it is active.
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    await context.setOffline(true);
    await page.reload();
    await expect.poll(() => app.draws(), { message: 'repaint offline' }).toBeGreaterThan(0);
    for (const id of CHARTS) await app.waitForChartDrawn(app.chart(id));
    await app.repaintAfter(async () => app.slider('nodes').press('ArrowRight'));
    await expect(app.value('nodes')).toHaveText('64 nodes of 8 GPUs');
    // A shared link opens offline too.
    await page.goto('/?model=llama2-13b&nodes=8');
    await expect(page.getByTestId('model-select')).toHaveValue('llama2-13b');
    await app.waitForChartDrawn(app.chart('throughput'));
    await context.setOffline(false);
    app.expectNoProblems();
  });

  test('the site works from a sub-path of a static host', async ({ page }) => {
    const app = new ScaleScopePage(page);
    const failed: string[] = [];
    page.on('response', (r) => {
      if (r.status() >= 400) failed.push(`${r.status()} ${r.url()}`);
    });
    await app.goto('/docs/scalescope/?nodes=4');
    await expect(app.value('nodes')).toHaveText('4 nodes of 8 GPUs');
    expect(failed).toEqual([]);
    expect(app.requests.every((u) => u.includes('/docs/scalescope/'))).toBe(true);
    // The URL it writes keeps the sub-path.
    await app.repaintAfter(async () => app.slider('nodes').press('ArrowRight'));
    await expect(page).toHaveURL(/\/docs\/scalescope\/\?nodes=8$/);
    app.expectNoProblems();
  });
});

test.describe('embed mode', () => {
  test('an iframe shows the chosen charts with their key sliders and no page chrome', async ({ page }) => {
    // A page of someone's docs, on the same host, embedding two charts.
    await page.route('**/host-docs.html', (route) =>
      route.fulfill({
        contentType: 'text/html',
        body:
          '<!doctype html><title>docs</title><h1>Our cluster</h1>' +
          '<iframe id="scalescope" src="/?embed=throughput,power&nodes=16&model=llama2-1b" width="640" height="720"></iframe>',
      }),
    );
    await page.goto('/host-docs.html');
    const frame = page.frameLocator('#scalescope');
    await expect(frame.getByTestId('embed')).toBeVisible();
    await expect(frame.locator('header.top')).toHaveCount(0);
    await expect(frame.locator('aside.panel')).toHaveCount(0);
    await expect(frame.locator('canvas')).toHaveCount(2);
    await expect(frame.getByTestId('chart-throughput')).toBeVisible();
    await expect(frame.getByTestId('chart-power')).toBeVisible();
    await expect(frame.getByTestId('nodes-value')).toHaveText('16 nodes of 8 GPUs');
    await expect(frame.getByTestId('model-select')).toHaveValue('llama2-1b');
    // Sized to its frame: both charts fit in the iframe's 720 px.
    const box = await frame.getByTestId('chart-power').boundingBox();
    const frameBox = await page.locator('#scalescope').boundingBox();
    expect(box!.y + box!.height).toBeLessThanOrEqual(frameBox!.y + frameBox!.height + 1);
    expect(box!.width).toBeGreaterThan(500);
    // Drawn, and redrawn by its sliders.
    const inner = page.frames().find((f) => f.url().includes('embed='))!;
    const draws = () => inner.evaluate(() => Number(document.body.dataset.draws || 0));
    await expect.poll(draws).toBeGreaterThan(0);
    const before = await draws();
    await frame.getByTestId('nodes-slider').press('ArrowRight');
    await expect.poll(draws).toBeGreaterThan(before);
    await expect(frame.getByTestId('nodes-value')).toHaveText('32 nodes of 8 GPUs');
    // The embed keeps its charts in its own URL and links to the full explorer.
    await expect.poll(() => inner.url()).toContain('embed=throughput,power');
    const full = await frame.getByTestId('open-full').getAttribute('href');
    expect(full).toContain('model=llama2-1b');
    expect(full).not.toContain('embed');
  });

  test('an unknown chart name in an embed link is named and the rest still shows', async ({ page }) => {
    const app = new ScaleScopePage(page);
    await page.goto('/?embed=memory,bogus');
    await expect(page.getByTestId('url-notice')).toContainText('ignored chart `bogus`');
    await app.waitForChartDrawn(app.chart('memory'));
    await expect(page.locator('canvas')).toHaveCount(1);
    app.expectNoProblems();
  });
});
