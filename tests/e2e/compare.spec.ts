import { expect, test } from '@playwright/test';
import { CHARTS, ScaleScopePage } from './support/scalescope-page';

test.describe('comparing settings', () => {
  test('two pins are drawn beside the live setting in every chart, in the table, and in a link', async ({ page, context }) => {
    const app = new ScaleScopePage(page);
    await app.goto();
    const before = await app.state();

    // Pin the paper's setting, then a second one with TP 2, then move on.
    await app.repaintAfter(async () => page.getByTestId('pin-button').click());
    await app.repaintAfter(async () => app.slider('tp').press('ArrowRight'));
    await app.repaintAfter(async () => page.getByTestId('pin-button').click());
    await app.repaintAfter(async () => page.getByTestId('model-select').selectOption('llama2-13b'));
    await expect(page.getByTestId('pin-0')).toBeVisible();
    await expect(page.getByTestId('pin-1')).toBeVisible();

    // Rename the second pin.
    const name = page.getByTestId('pin-name-1');
    await app.repaintAfter(async () => {
      await name.fill('TP 2 run');
      await name.press('Enter');
      await name.blur();
    });

    // Every chart now differs from the live-only drawing and names the pin in words or pixels.
    const after = await app.state();
    const changed = ScaleScopePage.changed(before, after);
    for (const id of CHARTS) expect(changed.charts, `${id} draws the pins`).toContain(id);
    // Hovering a pinned point names it.
    const table = page.getByTestId('compare-table');
    await expect(table).toBeVisible();
    await expect(table).toContainText('Pin 1');
    await expect(table).toContainText('TP 2 run');
    await expect(table).toContainText('Live setting');
    // Ratios to the first pin.
    await expect(table.locator('tbody tr').first()).toContainText('(x');
    await expect(table).toContainText('TP 2');

    // The link holds both pins and reproduces them.
    await expect(page).toHaveURL(/pin1=/);
    await expect(page).toHaveURL(/pin2=.*TP(%2B|\+|%2520|%20)2(%2B|\+|%2520|%20)run/);
    const copy = new ScaleScopePage(await context.newPage());
    await copy.goto(page.url());
    await expect(copy.page.getByTestId('pin-name-1')).toHaveValue('TP 2 run');
    await expect(copy.page.getByTestId('compare-table')).toContainText('TP 2 run');
    await expect(copy.page.getByTestId('url-notice')).toHaveCount(0);
    const again = await copy.state();
    expect(again.charts.throughput).toBe(after.charts.throughput);

    // Removing a pin takes it off the charts and the link.
    await app.repaintAfter(async () => page.getByTestId('pin-remove-0').click());
    await expect(page.getByTestId('pin-1')).toHaveCount(0);
    await expect(page.getByTestId('pin-name-0')).toHaveValue('TP 2 run');
    await expect(page).not.toHaveURL(/pin2=/);
    app.expectNoProblems();
    copy.expectNoProblems();
  });

  test('an embedded chart shows the pins of its link', async ({ page }) => {
    const app = new ScaleScopePage(page);
    await app.goto('/?tp=2&pin1=name%3Dbaseline');
    const full = await app.pixelStats(app.chart('throughput'));
    await page.goto('/?embed=throughput&tp=2&pin1=name%3Dbaseline');
    await expect.poll(() => app.draws()).toBeGreaterThan(0);
    await app.waitForChartDrawn(app.chart('throughput'));
    const embedded = await app.pixelStats(app.chart('throughput'));
    expect(embedded.colours).toBeGreaterThan(2);
    expect(full.colours).toBeGreaterThan(2);
    // The pin's dashed purple line is drawn: some pixel is the pin colour.
    const purple = await app.chart('throughput').evaluate((el) => {
      const src = el as HTMLCanvasElement;
      const ctx = src.getContext('2d')!;
      const d = ctx.getImageData(0, 0, src.width, src.height).data;
      let n = 0;
      for (let i = 0; i < d.length; i += 4) if (Math.abs(d[i] - 204) < 12 && Math.abs(d[i + 1] - 121) < 12 && Math.abs(d[i + 2] - 167) < 12) n++;
      return n;
    });
    expect(purple).toBeGreaterThan(20);
    app.expectNoProblems();
  });
});
