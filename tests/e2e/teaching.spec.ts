import { expect, test } from '@playwright/test';
import { CHARTS, ScaleScopePage } from './support/scalescope-page';

/** The stops that also point at the step timeline (F3, F4, F9, F12). */
const TIMELINE_STOPS = new Set(['F3', 'F4', 'F9', 'F12']);

/** What each tour stop must set, and the chart it must highlight. */
const STOPS: { chart: string; controls: [string, string | RegExp | boolean][]; numbers: boolean }[] = [
  { chart: 'per-gpu', controls: [['nodes-value', '256 nodes of 8 GPUs']], numbers: true },
  { chart: 'collectives', controls: [['nodes-value', '64 nodes of 8 GPUs']], numbers: false },
  { chart: 'breakdown', controls: [['nodes-value', '256 nodes of 8 GPUs']], numbers: false },
  {
    chart: 'per-gpu',
    controls: [['scaling-select', 'strong'], ['batch-value', /^32 sequences per step$/], ['best-switch', true]],
    numbers: true,
  },
  { chart: 'grid', controls: [['tp-value', '2 GPUs']], numbers: false },
  { chart: 'grid', controls: [['gpu-select', 'a100-sxm4-80gb']], numbers: true },
  { chart: 'generations', controls: [['best-switch', true]], numbers: false },
  { chart: 'breakdown', controls: [['model-select', 'llama2-70b'], ['best-switch', true]], numbers: false },
  { chart: 'breakdown', controls: [['seq-value', /^1,?024 tokens$/]], numbers: false },
  { chart: 'throughput', controls: [['nodes-value', '256 nodes of 8 GPUs'], ['tp-value', '4 GPUs']], numbers: true },
  {
    chart: 'per-gpu',
    controls: [['scaling-select', 'strong'], ['batch-value', /^1,?024 sequences per step$/], ['best-switch', true]],
    numbers: true,
  },
  { chart: 'breakdown', controls: [['cp-value', '2 GPUs']], numbers: false },
  { chart: 'grid', controls: [['gpu-select', 'v100-sxm2-32gb'], ['tp-value', '4 GPUs']], numbers: false },
  { chart: 'memory', controls: [['batch-value', '1 sequence per GPU']], numbers: false },
];

test.describe('paper tour', () => {
  test('every stop sets its controls, highlights its chart and shows the paper and model numbers', async ({ page }) => {
    test.setTimeout(180_000);
    const app = new ScaleScopePage(page);
    await app.goto();
    await page.getByTestId('tour-start').click();
    const tour = page.getByTestId('tour');
    for (const [i, stop] of STOPS.entries()) {
      const id = `F${i + 1}`;
      await expect(tour).toHaveAttribute('data-stop', id);
      await expect(page.getByTestId('tour-title')).toContainText(`${id}: `);
      await expect(tour).toContainText(`stop ${i + 1} of 14`);
      const text = await page.getByTestId('tour-text').textContent();
      expect(text!.split('. ').length, `${id} explains in a few sentences`).toBeGreaterThanOrEqual(2);
      for (const [testid, want] of stop.controls) {
        const el = page.getByTestId(testid);
        if (typeof want === 'boolean') await expect(el).toBeChecked({ checked: want });
        else if (testid.endsWith('-select')) await expect(el).toHaveValue(want);
        else await expect(el).toHaveText(want);
      }
      // Exactly the stop's chart is highlighted (and the timeline, where the
      // stop says what to look at in it), and it is drawn.
      const timeline = TIMELINE_STOPS.has(id);
      await expect(page.locator('.card.highlight')).toHaveCount(timeline ? 2 : 1);
      await expect(page.getByTestId(`card-${stop.chart}`)).toHaveClass(/highlight/);
      if (timeline) {
        await expect(page.getByTestId('card-timeline')).toHaveClass(/highlight/);
        await expect(page.getByTestId('tour-timeline')).toContainText('timeline');
      } else {
        await expect(page.getByTestId('tour-timeline')).toHaveCount(0);
      }
      await app.waitForChartDrawn(app.chart(stop.chart as (typeof CHARTS)[number]));
      // The paper's number beside the model's, computed by the core.
      await expect(page.getByTestId('tour-paper')).not.toBeEmpty({ timeout: 30_000 });
      await expect(page.getByTestId('tour-model')).not.toBeEmpty();
      await expect(page.getByTestId('tour-verdict')).toContainText('this finding');
      if (stop.numbers) {
        const rows = page.getByTestId('tour-numbers').locator('tbody tr');
        expect(await rows.count()).toBeGreaterThan(0);
        await expect(rows.first().locator('td').nth(1)).toHaveText(/\d/);
      } else {
        await expect(page.getByTestId('tour-numbers')).toHaveCount(0);
      }
      if (i === 0) await expect(page.getByTestId('tour-back')).toBeDisabled();
      else await expect(page.getByTestId('tour-back')).toBeEnabled();
      if (i + 1 < STOPS.length) await page.getByTestId('tour-next').click();
    }
    await expect(page.getByTestId('tour-next')).toBeDisabled();
    app.expectNoProblems();
  });

  test('back steps to the previous stop and leaving keeps the controls to play with', async ({ page }) => {
    const app = new ScaleScopePage(page);
    await app.goto();
    await page.getByTestId('tour-start').click();
    await page.getByTestId('tour-next').click();
    await expect(page.getByTestId('tour')).toHaveAttribute('data-stop', 'F2');
    await page.getByTestId('tour-back').click();
    await expect(page.getByTestId('tour')).toHaveAttribute('data-stop', 'F1');
    await expect(app.value('nodes')).toHaveText('256 nodes of 8 GPUs');
    await page.getByTestId('tour-leave').click();
    await expect(page.getByTestId('tour')).toHaveCount(0);
    await expect(page.locator('.card.highlight')).toHaveCount(0);
    // The stop's setting stays, and the controls work from there.
    await expect(app.value('nodes')).toHaveText('256 nodes of 8 GPUs');
    await app.repaintAfter(async () => app.slider('nodes').press('ArrowLeft'));
    await expect(app.value('nodes')).toHaveText('128 nodes of 8 GPUs');
    app.expectNoProblems();
  });
});

test.describe('model page', () => {
  test('explains the model and validates it against the paper, computed by the core', async ({ page }) => {
    const app = new ScaleScopePage(page);
    await app.goto();
    await page.getByTestId('model-link').click();
    const model = page.getByTestId('model-page');
    await expect(model).toBeVisible();
    await expect(page.getByTestId('chart-throughput')).toBeHidden();
    for (const section of ['stacks', 'compute', 'collectives', 'experts', 'overlap', 'memory', 'power']) {
      await expect(page.locator(`#model-${section} .eq`).first()).toBeVisible();
    }
    const calibration = page.getByTestId('calibration-table').locator('tbody tr');
    expect(await calibration.count()).toBeGreaterThan(15);
    await expect(calibration.first()).toContainText('GEMM_EFFICIENCY_H100');
    await expect(page.getByTestId('validation-summary')).toContainText(/\d+ of 14 findings hold/, { timeout: 30_000 });
    for (let i = 1; i <= 14; i++) await expect(page.getByTestId(`validation-F${i}`)).toBeVisible();
    // F1 states numbers: paper, model and the difference.
    const f1 = page.getByTestId('validation-F1').locator('tbody tr').first();
    await expect(f1.locator('td').nth(0)).toHaveText('37.22 %');
    await expect(f1.locator('td').nth(2)).toHaveText(/^[+-]\d+\.\d\d points$/);
    // Published runs: one row each, with the model's number and the difference.
    // The summary counts the table's rows, most of them held out of the fit.
    const summary = page.getByTestId('runs-summary');
    await expect(summary).toContainText(/\d+ of \d+ published runs .* \d+ of them are held out of the fit/);
    const [, total, held] = (await summary.innerText()).match(/of (\d+) published runs .* (\d+) of them are held out/s)!;
    expect(Number(total)).toBeGreaterThan(200);
    expect(Number(held)).toBeGreaterThan(Number(total) / 2);
    expect(Number(held)).toBeLessThan(Number(total));
    const runs = page.getByTestId('runs-table').locator('tbody tr');
    await expect(runs).toHaveCount(Number(total));
    await expect(runs.first().locator('td').nth(5)).toHaveText('fitted on');
    await expect(runs.last().locator('td').nth(5)).toHaveText('held out');
    await expect(runs.first().locator('td').nth(1)).toHaveText('megatron-2021');
    await expect(runs.first().locator('td').nth(4)).toHaveText(/^[+-]\d+\.\d%$/);
    // A section link stays on the page; the explorer link goes back.
    await page.locator('.toc a[href="#model-overlap"]').click();
    await expect(model).toBeVisible();
    await page.getByTestId('explorer-link').click();
    await expect(model).toHaveCount(0);
    await app.waitForChartDrawn(app.chart('throughput'));
    app.expectNoProblems();
  });

  test('a link to the model page opens it, and the tour starts from there', async ({ page }) => {
    const app = new ScaleScopePage(page);
    await page.goto('/#model');
    await expect(page.getByTestId('model-page')).toBeVisible();
    await expect(page.getByTestId('validation-summary')).toBeVisible({ timeout: 30_000 });
    await page.getByTestId('tour-start').click();
    await expect(page.getByTestId('model-page')).toHaveCount(0);
    await expect(page.getByTestId('tour')).toHaveAttribute('data-stop', 'F1');
    await app.waitForChartDrawn(app.chart('per-gpu'));
    app.expectNoProblems();
  });
});

test.describe('fragments', () => {
  test.use({ serviceWorkers: 'block' });

  test('a fragment that cannot be fetched is named, and the explorer keeps working', async ({ page }) => {
    // The model page and the tour's words are fetched when their view
    // opens; with the network gone and no offline copy (no service
    // worker), each says so.
    await page.route('**/pages/*.html', (route) => route.abort());
    const app = new ScaleScopePage(page);
    await app.goto();
    await page.getByTestId('model-link').click();
    await expect(page.getByTestId('model-page').getByRole('alert')).toContainText('could not be loaded');
    await page.getByTestId('explorer-link').click();
    await page.getByTestId('tour-start').click();
    await expect(page.getByTestId('tour').getByRole('alert')).toContainText('could not be loaded');
    await expect(page.getByTestId('tour-title')).toContainText('F1: ');
    await page.getByTestId('tour-leave').click();
    await app.repaintAfter(async () => app.slider('nodes').press('ArrowLeft'));
    expect(app.problems.pageErrors).toEqual([]);
  });
});
