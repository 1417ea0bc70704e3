import { expect, test, type Page } from '@playwright/test';
import { CHARTS, ScaleScopePage } from './support/scalescope-page';

/** A chart's Data table as rows of cells (opened if closed). */
async function dataRows(page: Page, id: string): Promise<string[][]> {
  const details = page.getByTestId(`data-${id}`);
  await details.scrollIntoViewIfNeeded();
  if (!(await details.evaluate((d) => (d as HTMLDetailsElement).open))) {
    await details.locator('summary').click();
  }
  const rows = details.locator('tbody tr');
  await expect(rows.first()).toBeVisible();
  return rows.evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent ?? '')));
}

async function everyChartDrawn(app: ScaleScopePage): Promise<void> {
  for (const id of CHARTS) {
    const { colours } = await app.pixelStats(app.chart(id));
    expect(colours, `${id} has a real drawing`).toBeGreaterThan(4);
  }
  await expect(app.message).toBeHidden();
  expect(await app.page.locator('body').innerText()).not.toMatch(/NaN|undefined|Infinity/);
}

test.describe('mixture-of-experts models', () => {
  test('DeepSeek-V3 on H100 draws every chart, with its All-to-All in the breakdown and the timeline', async ({ page }) => {
    const app = new ScaleScopePage(page);
    await app.goto('/?gpu=h100-sxm5-80gb&model=deepseek-v3&nodes=128&ep=64&pp=16&recompute=full&stack=megatron');
    await everyChartDrawn(app);
    await expect(app.readout('layout')).toContainText('PP 16');
    // The timeline has an expert-parallel stream with All-to-All intervals.
    const timeline = await dataRows(page, 'timeline');
    expect(timeline.some((r) => r.includes('All-to-All'))).toBe(true);
    // Halving EP changes the step, and the link keeps the new degree.
    const before = await app.state();
    await app.repaintAfter(async () => app.slider('ep').press('ArrowLeft'));
    const after = await app.state();
    const changed = ScaleScopePage.changed(before, after);
    expect(changed.charts).toContain('breakdown');
    expect(changed.readouts).toContain('step');
    await expect.poll(() => page.url()).toContain('ep=32');
    app.expectNoProblems();
  });

  test('Mixtral 8x7B on GB200 NVL72 draws every chart, and the best layout picks an expert degree', async ({ page }) => {
    const app = new ScaleScopePage(page);
    await app.goto('/?gpu=gb200-nvl72&model=mixtral-8x7b&nodes=16&ep=8&stack=megatron');
    await everyChartDrawn(app);
    await app.repaintAfter(async () => page.getByTestId('best-switch').check());
    await expect(app.message).toBeHidden();
    await expect(app.readout('layout')).toContainText('EP');
    app.expectNoProblems();
  });

  test('Llama 4 Maverick, its experts on every second layer, draws every chart on GB200 NVL72', async ({ page }) => {
    const app = new ScaleScopePage(page);
    await app.goto('/?gpu=gb200-nvl72&model=llama4-maverick&nodes=32&ep=16&pp=2&stack=megatron');
    await expect(page.getByTestId('model-select')).toHaveValue('llama4-maverick');
    await everyChartDrawn(app);
    await expect(app.readout('layout')).toContainText('EP 16');
    // Scout (16 experts, on every layer) at the same layout: evaluated
    // without a message, at another step time.
    const step = async () => Number((await app.readout('step').innerText()).replace(/[^0-9.]/g, ''));
    const maverick = await step();
    await app.repaintAfter(async () => page.getByTestId('model-select').selectOption('llama4-scout'));
    await expect(app.message).toBeHidden();
    expect(await step()).not.toBe(maverick);
    app.expectNoProblems();
  });

  test('the All-to-All overlap switch hides it behind the next micro-batch, and the NCCL chart has its curve', async ({ page }) => {
    const app = new ScaleScopePage(page);
    await app.goto('/?gpu=h100-sxm5-80gb&model=qwen3-235b-a22b&nodes=32&ep=32&pp=8&tp=2&sp=1&dp=zero1&local=8&mb=1&recompute=selective&stack=megatron');
    await expect(app.message).toBeHidden();
    const step = async () => Number((await app.readout('step').innerText()).replace(/[^0-9.]/g, ''));
    const blocking = await step();
    await app.repaintAfter(async () => page.getByTestId('ep-overlap-switch').check());
    await expect.poll(() => page.url()).toContain('epo=1');
    expect(await step()).toBeLessThan(blocking);
    // Full recomputation cannot run the combined schedule: the switch greys out.
    await app.repaintAfter(async () => page.getByTestId('recompute-select').selectOption('full'));
    await expect(page.getByTestId('ep-overlap-switch')).toBeDisabled();
    // An All-to-All over every GPU runs at NVLink's rate on one node and at
    // about one NIC's across many.
    const rows = await dataRows(page, 'collectives');
    const a2a = rows.map((r) => Number(r[3]));
    expect(a2a.every((v) => v > 0)).toBe(true);
    expect(a2a[0]).toBeGreaterThan(5 * a2a[a2a.length - 1]);
    app.expectNoProblems();
  });

  test('a router imbalance or a capacity factor slows the experts, and the link keeps it', async ({ page }) => {
    const app = new ScaleScopePage(page);
    await app.goto('/?gpu=h100-sxm5-80gb&model=qwen3-30b-a3b&nodes=2&ep=8&dp=zero1&local=8&mb=1&recompute=full&stack=megatron');
    await expect(app.message).toBeHidden();
    await expect(page.getByTestId('imbalance-input')).toHaveAttribute('placeholder', '1');
    const step = async () => Number((await app.readout('step').innerText()).replace(/[^0-9.]/g, ''));
    const balanced = await step();
    await app.repaintAfter(async () => page.getByTestId('imbalance-input').fill('1.5').then(() => page.getByTestId('imbalance-input').press('Enter')));
    await expect.poll(() => page.url()).toContain('imb=1.5');
    await expect(app.message).toBeHidden();
    const skewed = await step();
    expect(skewed).toBeGreaterThan(balanced);
    await app.repaintAfter(async () => page.getByTestId('capacity-input').fill('2').then(() => page.getByTestId('capacity-input').press('Enter')));
    await expect.poll(() => page.url()).toContain('cap=2');
    await expect(app.message).toBeHidden();
    expect(await step()).toBeGreaterThan(skewed);
    app.expectNoProblems();
  });

  test('expert degrees are greyed out for a dense model and ignored by it', async ({ page }) => {
    const app = new ScaleScopePage(page);
    await app.goto('/?ep=8');
    await expect(app.slider('ep')).toBeDisabled();
    await expect(app.message).toBeHidden();
    await expect(app.readout('layout')).not.toContainText('EP');
    app.expectNoProblems();
  });
});
