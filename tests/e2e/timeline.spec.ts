import { expect, test, type Page } from '@playwright/test';
import { ScaleScopePage } from './support/scalescope-page';

/** The timeline's numbers as the Data table shows them: rows of its CSV. */
async function timelineCsv(page: Page): Promise<string[][]> {
  const details = page.getByTestId('data-timeline');
  await details.scrollIntoViewIfNeeded();
  if (!(await details.evaluate((d) => (d as HTMLDetailsElement).open))) {
    await details.locator('summary').click();
  }
  const rows = details.locator('tbody tr');
  await expect(rows.first()).toBeVisible();
  return rows.evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent ?? '')));
}

/** Seconds the first stage spends in the pipeline's bubble. */
function bubble(rows: string[][]): number {
  return rows
    .filter((r) => r[0] === '0' && r[2] === 'pipeline bubble')
    .reduce((sum, r) => sum + Number(r[5]), 0);
}

test.describe('the step timeline', () => {
  test('draws the default setting, and hover names an interval', async ({ page }) => {
    const app = new ScaleScopePage(page);
    await app.goto();
    const chart = app.chart('timeline');
    await chart.scrollIntoViewIfNeeded();
    await app.waitForChartDrawn(chart);
    await expect(page.getByTestId('summary-timeline')).toContainText('One step of');
    const box = (await chart.boundingBox())!;
    let shown = false;
    for (let x = 160; x < box.width - 20 && !shown; x += 9) {
      for (let y = 30; y < box.height - 45 && !shown; y += 10) {
        await page.mouse.move(box.x + x, box.y + y);
        shown = await page.getByTestId('tooltip').isVisible();
      }
    }
    expect(shown).toBe(true);
    await expect(page.getByTestId('tooltip')).toContainText('stage 0');
    app.expectNoProblems();
  });

  test('with PP 4 each schedule has its own bubble', async ({ page }) => {
    const app = new ScaleScopePage(page);
    const bubbles: Record<string, number> = {};
    const weightGradients: Record<string, number> = {};
    for (const schedule of ['gpipe', '1f1b', 'interleaved', 'zb-h1', 'zb-v', 'dualpipev']) {
      await app.goto(`/?model=llama2-13b&nodes=4&pp=4&mb=1&local=2&seq=2048&stack=megatron&dp=fsdp_full&schedule=${schedule}`);
      await expect(app.message).toBeHidden();
      const rows = await timelineCsv(page);
      expect(rows.length).toBeGreaterThan(20);
      bubbles[schedule] = bubble(rows);
      weightGradients[schedule] = rows.filter((r) => r[2] === 'weight gradient').length;
    }
    // GPipe and 1F1B wait alike for the fill and drain; interleaving halves
    // it; ZB-H1 fills the drain with the weight gradients it deferred, and
    // ZB-V's two chunks in a V leave less still.
    expect(bubbles['gpipe']).toBeGreaterThan(0);
    expect(bubbles['interleaved']).toBeLessThan(0.8 * bubbles['1f1b']);
    expect(bubbles['zb-h1']).toBeLessThan(0.9 * bubbles['1f1b']);
    expect(bubbles['zb-v']).toBeLessThan(0.8 * bubbles['zb-h1']);
    expect(weightGradients['1f1b']).toBe(0);
    expect(weightGradients['zb-h1']).toBeGreaterThan(0);
    expect(weightGradients['zb-v']).toBeGreaterThan(0);
    // DualPipeV pairs its passes differently but leaves the same staggered
    // start of its V.
    expect(bubbles['dualpipev']).toBeLessThan(0.8 * bubbles['zb-h1']);
    app.expectNoProblems();
  });

  test('an impossible setting says why, it is not blank', async ({ page }) => {
    const app = new ScaleScopePage(page);
    await app.goto('/?tp=64&nodes=3');
    await expect(app.message).toBeVisible();
    const chart = app.chart('timeline');
    await chart.scrollIntoViewIfNeeded();
    await app.waitForChartDrawn(chart);
    await expect(page.getByTestId('summary-timeline')).toContainText('cannot run');
    app.expectNoProblems();
  });

  test('dragging zooms into part of the step, and the button shows it whole again', async ({ page }) => {
    const app = new ScaleScopePage(page);
    await app.goto();
    const chart = app.chart('timeline');
    await chart.scrollIntoViewIfNeeded();
    await app.waitForChartDrawn(chart);
    const reset = page.getByTestId('timeline-reset');
    await expect(reset).toBeDisabled();
    const whole = await chart.evaluate((c) => (c as HTMLCanvasElement).toDataURL());
    const box = (await chart.boundingBox())!;
    await page.mouse.move(box.x + 200, box.y + 80);
    await page.mouse.down();
    await page.mouse.move(box.x + 320, box.y + 80, { steps: 4 });
    await page.mouse.up();
    await expect(reset).toBeEnabled();
    const zoomed = await chart.evaluate((c) => (c as HTMLCanvasElement).toDataURL());
    expect(zoomed).not.toEqual(whole);
    await reset.click();
    await expect(reset).toBeDisabled();
    const again = await chart.evaluate((c) => (c as HTMLCanvasElement).toDataURL());
    expect(again).toEqual(whole);
    app.expectNoProblems();
  });
});
