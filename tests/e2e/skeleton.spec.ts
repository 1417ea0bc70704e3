import { expect, test } from '@playwright/test';
import { ScaleScopePage } from './support/scalescope-page';

test.describe('skeleton', () => {
  test('page loads and draws the chart without console errors', async ({ page }) => {
    const app = new ScaleScopePage(page);
    await app.goto();

    await expect(page).toHaveTitle('ScaleScope');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('ScaleScope');
    await expect(page.getByRole('slider', { name: 'Nodes' })).toBeVisible();
    expect(await app.paintedPixels()).toBeGreaterThan(1000);
    expect(await app.distinctColours()).toBeGreaterThan(2);

    // Let any late work (effects, async logging) finish before judging the console.
    await page.waitForLoadState('networkidle');
    app.expectNoProblems();
  });

  test('nodes slider responds to keyboard and redraws the chart', async ({ page }) => {
    const app = new ScaleScopePage(page);
    await app.goto();

    const slider = page.getByRole('slider', { name: 'Nodes' });
    await expect(slider).toHaveAttribute('min', '1');
    await expect(slider).toHaveAttribute('max', '256');

    const start = await app.nodes();
    expect(start).toBeGreaterThanOrEqual(1);
    expect(start).toBeLessThan(256);
    await expect(app.nodesSlider).toHaveValue(String(start));

    // ArrowRight: one step up.
    let before = await app.chartSnapshot();
    await app.pressOnNodes('ArrowRight');
    await expect(app.nodesValue).toHaveText(String(start + 1));
    await expect(app.nodesSlider).toBeFocused();
    before = await app.waitForChartChange(before);

    // End: jump to the maximum.
    await app.pressOnNodes('End');
    await expect(app.nodesValue).toHaveText('256');
    await expect(app.nodesSlider).toHaveValue('256');
    before = await app.waitForChartChange(before);

    // Home: back to the minimum.
    await app.pressOnNodes('Home');
    await expect(app.nodesValue).toHaveText('1');
    await app.waitForChartChange(before);

    app.expectNoProblems();
  });

  test('nodes slider responds to programmatic input and redraws the chart', async ({ page }) => {
    const app = new ScaleScopePage(page);
    await app.goto();

    let before = await app.chartSnapshot();
    await app.setNodes(64);
    await expect(app.nodesValue).toHaveText('64');
    await expect(app.nodesSlider).toHaveValue('64');
    before = await app.waitForChartChange(before);

    // A raw input event, as another script would send it.
    await app.nodesSlider.evaluate((el) => {
      const input = el as HTMLInputElement;
      input.value = '2';
      input.dispatchEvent(new Event('input', { bubbles: true }));
    });
    await expect(app.nodesValue).toHaveText('2');
    await app.waitForChartChange(before);

    // Setting the same value again leaves the drawing unchanged.
    const same = await app.chartSnapshot();
    await app.setNodes(2);
    await expect(app.nodesValue).toHaveText('2');
    expect(await app.chartSnapshot()).toBe(same);

    app.expectNoProblems();
  });

  test('no request leaves 127.0.0.1', async ({ page }) => {
    const app = new ScaleScopePage(page);
    await app.goto();
    await app.pressOnNodes('ArrowRight', 'End');
    await app.setNodes(16);
    await page.waitForLoadState('networkidle');

    expect(app.requests.length, 'the page itself was requested').toBeGreaterThan(0);
    expect(app.externalRequests()).toEqual([]);
  });
});
