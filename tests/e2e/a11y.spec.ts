import { test, expect, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { ScaleScopePage, CHARTS } from './support/scalescope-page';

// axe-core is injected into the page, which the page's own CSP forbids.
test.use({ bypassCSP: true });

async function audit(page: Page, where: string) {
  const result = await new AxeBuilder({ page }).analyze();
  const found = result.violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.length} nodes, e.g. ${v.nodes[0]?.target}`);
  expect(found, `${where}: accessibility violations`).toEqual([]);
}

test.describe('accessibility', () => {
  test('the explorer passes an axe audit, and every chart says what it shows', async ({ page }) => {
    const app = new ScaleScopePage(page);
    await app.goto();
    for (const id of CHARTS) {
      const summary = page.getByTestId(`summary-${id}`);
      await expect(summary, id).toHaveText(/\d.*\.$/);
      await expect(app.chart(id)).toHaveAttribute('aria-describedby', `summary-${id}`);
    }
    await expect(page.getByTestId('summary-per-gpu')).toContainText('Per-GPU throughput falls from');
    await audit(page, 'explorer');
  });

  test('a chart description follows the controls, and Data shows its numbers as a table', async ({ page }) => {
    const app = new ScaleScopePage(page);
    await app.goto();
    const before = await page.getByTestId('summary-breakdown').innerText();
    await app.repaintAfter(async () => app.slider('tp').press('ArrowRight'));
    await expect(page.getByTestId('summary-breakdown')).not.toHaveText(before);
    const data = page.getByTestId('data-throughput');
    await data.locator('summary').click();
    const table = data.locator('table');
    await expect(table).toBeVisible();
    await expect(table.locator('thead th').first()).toHaveText('nodes');
    expect(await table.locator('tbody tr').count()).toBeGreaterThanOrEqual(9);
    await audit(page, 'explorer with a data table open');
  });

  test('the grid and the GPU generations, computed only when read, are described off screen once the controls rest, and drawn as they scroll in', async ({ page }) => {
    const app = new ScaleScopePage(page);
    await app.goto();
    const generations = page.getByTestId('summary-generations');
    const grid = page.getByTestId('summary-grid');
    await expect(generations).toHaveText(/MFU \d.*\.$/);
    const [genBefore, gridBefore] = [await generations.innerText(), await grid.innerText()];
    await app.repaintAfter(async () => app.slider('nodes').press('ArrowLeft'));
    // Described again once the controls rest, each for the new setting.
    const describedAnew = (summary: typeof grid, before: string, pattern: RegExp) =>
      expect
        .poll(async () => {
          const text = await summary.innerText();
          return text !== before && pattern.test(text);
        })
        .toBe(true);
    await describedAnew(generations, genBefore, /MFU \d.*\.$/);
    await describedAnew(grid, gridBefore, /\d.*\.$/);
    // Scrolled into view, the grid is painted from the latest views.
    const draws = await app.draws();
    await app.chart('grid').scrollIntoViewIfNeeded();
    await expect(app.chart('grid')).toHaveAttribute('data-painted', String(draws));
  });

  test('pins with their table, the planner and a calibration report pass an axe audit', async ({ page }) => {
    const app = new ScaleScopePage(page);
    await app.goto('/?pin1=tp%3D2%26name%3DTP%2B2&pin2=model%3Dllama2-13b%26name%3D13B');
    await expect(page.getByTestId('compare-table')).toBeVisible();
    await page.getByTestId('planner').locator('summary').click();
    await page.getByTestId('calibrate').locator('summary').click();
    await page.getByTestId('calibrate-csv').fill(
      'gpu,nodes,model,seq,global_batch,micro_batch,tp,pp,dp,stack,metric,value\n' +
        'h100,1,llama2-7b,4096,16,2,1,1,fsdp,megatron,tokens_per_gpu,8648\n' +
        'h100,4,llama2-7b,4096,64,2,1,1,fsdp,megatron,tokens_per_gpu,8100\n' +
        'h100,32,llama2-7b,4096,64,2,8,1,fsdp,megatron,tokens_per_gpu,4839\n',
    );
    await app.repaintAfter(async () => page.getByTestId('calibrate-fit').click());
    await expect(page.getByTestId('calibrate-report')).toBeVisible();
    await expect(page.getByTestId('calibrated-banner')).toBeVisible();
    await audit(page, 'explorer with pins, the planner and a calibration');
  });

  test('the tour, the model page and embed mode pass an axe audit', async ({ page }) => {
    const app = new ScaleScopePage(page);
    await app.goto();
    await page.getByTestId('tour-start').click();
    await expect(page.getByTestId('tour')).toBeVisible();
    await audit(page, 'tour');
    await page.goto('/#model');
    await expect(page.getByTestId('model-page')).toBeVisible();
    await expect(page.getByTestId('validation-summary')).toContainText(/of 14 findings hold/, { timeout: 30_000 });
    await audit(page, 'model page');
    await page.goto('/?embed=throughput,power');
    await app.waitForChartDrawn(app.chart('throughput'));
    await audit(page, 'embed');
  });
});
