import { expect, test, type Page } from '@playwright/test';
import { ScaleScopePage } from './support/scalescope-page';

/** Splits one CSV line into fields (no field of the plan's CSV holds a comma). */
const fields = (line: string): string[] => line.split(',');

async function planCsv(page: Page): Promise<string[][]> {
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-plan-csv').click()]);
  const path = await download.path();
  const { readFile } = await import('node:fs/promises');
  return (await readFile(path!, 'utf8')).trimEnd().split('\n').map(fields);
}

async function setPlan(app: ScaleScopePage, testid: string, value: string): Promise<void> {
  const input = app.page.getByTestId(testid);
  if (!(await input.isVisible())) await app.page.getByTestId('planner').locator('summary').click();
  await app.repaintAfter(async () => {
    await input.fill(value);
    await input.press('Enter');
    await input.blur();
  });
}

test.describe('planning a run', () => {
  test('the planning chart marks the cheapest, the fastest and the knee, and its CSV says the same', async ({ page }) => {
    const app = new ScaleScopePage(page);
    await app.goto();
    const card = page.getByTestId('card-plan');
    await card.scrollIntoViewIfNeeded();
    await app.waitForChartDrawn(app.chart('plan'));
    await expect(page.getByTestId('summary-plan')).toContainText('costs least on');
    // The readout: Llama-2 7B on Chinchilla's 140 B tokens at the default setting.
    await expect(app.readout('train')).toContainText(/hours|days/);
    await expect(app.readout('train')).toContainText('$');
    await expect(app.readout('train-energy')).toContainText('MWh');

    const rows = await planCsv(page);
    const head = rows[0];
    expect(head).toEqual(['nodes', 'gpus', 'tokens', 'days', 'gpu_hours', 'energy_mwh', 'cost_usd', 'co2_tonnes', 'mark', 'layout', 'status']);
    const body = rows.slice(1);
    expect(body.length).toBe(9);
    const col = (name: string) => head.indexOf(name);
    const marked = (m: string) => body.filter((r) => r[col('mark')].split(' ').includes(m));
    expect(marked('cheapest')).toHaveLength(1);
    expect(marked('fastest')).toHaveLength(1);
    const cheapest = Number(marked('cheapest')[0][col('cost_usd')]);
    const fastest = Number(marked('fastest')[0][col('days')]);
    for (const r of body) {
      expect(Number(r[col('cost_usd')])).toBeGreaterThanOrEqual(cheapest);
      expect(Number(r[col('days')])).toBeGreaterThanOrEqual(fastest);
      // Days times GPUs is GPU-hours.
      const gpuHours = Number(r[col('days')]) * 24 * Number(r[col('gpus')]);
      expect(Math.abs(gpuHours - Number(r[col('gpu_hours')])) / gpuHours).toBeLessThan(1e-4);
    }
    app.expectNoProblems();
  });

  test('the budget, the price and the PUE change the plan and the readout, and a link keeps them', async ({ page, context }) => {
    const app = new ScaleScopePage(page);
    await app.goto();
    const before = await planCsv(page);
    const train = await app.readout('train').textContent();
    await setPlan(app, 'plan-tokens-input', '2e12');
    await setPlan(app, 'plan-price-input', '4');
    await setPlan(app, 'plan-pue-input', '1.5');
    await expect(app.readout('train')).not.toHaveText(train ?? '');
    const after = await planCsv(page);
    const cost = (rows: string[][]) => Number(rows.find((r) => r[0] === '32')![6]);
    const gpuHours = (rows: string[][]) => Number(rows.find((r) => r[0] === '32')![4]);
    // 2 T tokens against 20 x 6.7 B, at $4 against $2.50 an H100-hour.
    const ratio = cost(after) / cost(before);
    const expected = (gpuHours(after) / gpuHours(before)) * (4 / 2.5);
    expect(Math.abs(ratio - expected) / expected).toBeLessThan(1e-4);
    await expect(page).toHaveURL(/tokens=2000000000000/);
    await expect(page).toHaveURL(/price=4/);
    await expect(page).toHaveURL(/pue=1.5/);

    const copy = new ScaleScopePage(await context.newPage());
    await copy.goto(page.url());
    await expect(copy.readout('train')).toHaveText((await app.readout('train').textContent()) ?? '');
    await expect(copy.page.getByTestId('url-notice')).toHaveCount(0);
    app.expectNoProblems();
    copy.expectNoProblems();
  });

  test('a budget the core refuses is named in the chart and the rest keeps working', async ({ page }) => {
    const app = new ScaleScopePage(page);
    await app.goto('/?pue=9');
    await expect(page.getByTestId('url-notice')).toContainText('`pue=9` is out of range: using 3');
    await app.goto('/?tokens=0');
    await expect(page.getByTestId('url-notice')).toContainText('`tokens=0` is out of range: using 1');
    await app.waitForChartDrawn(app.chart('plan'));
    await expect(app.readout('throughput')).not.toHaveText('–');
    app.expectNoProblems();
  });
});
