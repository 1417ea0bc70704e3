import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import { CHARTS, ScaleScopePage, type PageState } from './support/scalescope-page';

/** One control, how to move it, and what must change when it moves. */
interface ControlCase {
  name: string;
  /** Bring the page into a state where the control matters. */
  setup?: (app: ScaleScopePage) => Promise<void>;
  act: (page: Page) => Promise<void>;
  charts: string[];
  readouts: string[];
}

const select = (testid: string, value: string) => async (page: Page) => {
  await page.getByTestId(testid).selectOption(value);
};
const fill = (testid: string, value: string) => async (page: Page) => {
  // The hardware what-ifs and the planner live in collapsed <details>: open it first.
  const input = page.getByTestId(testid);
  const section = testid.startsWith('plan-') ? page.getByTestId('planner').locator('summary') : page.getByText('Hardware what-ifs');
  if (!(await input.isVisible())) await section.click();
  await input.fill(value);
  await input.press('Enter');
  await input.blur();
};
const key = (testid: string, k: string) => async (page: Page) => {
  await page.getByTestId(testid).press(k);
};

const CASES: ControlCase[] = [
  { name: 'GPU', act: select('gpu-select', 'a100-sxm4-80gb'), charts: ['throughput', 'per-gpu', 'power', 'collectives', 'generations'], readouts: ['mfu', 'power'] },
  { name: 'nodes slider', act: key('nodes-slider', 'ArrowRight'), charts: ['throughput', 'grid', 'collectives', 'memory'], readouts: ['throughput', 'layout'] },
  { name: 'nodes typed', act: fill('nodes-input', '24'), charts: ['throughput', 'breakdown', 'collectives'], readouts: ['throughput', 'layout'] },
  { name: 'model', act: select('model-select', 'llama2-1b'), charts: ['throughput', 'per-gpu', 'memory', 'grid'], readouts: ['throughput', 'memory'] },
  { name: 'context length', act: key('seq-slider', 'ArrowLeft'), charts: ['throughput', 'per-gpu', 'breakdown', 'memory'], readouts: ['per-gpu', 'mfu', 'memory'] },
  // At 32 nodes the default strong batch (512) equals the weak one, so only
  // the other node counts move.
  { name: 'scaling', act: select('scaling-select', 'strong'), charts: ['throughput', 'per-gpu'], readouts: [] },
  { name: 'batch', act: key('batch-slider', 'ArrowRight'), charts: ['throughput', 'breakdown'], readouts: ['step', 'layout'] },
  { name: 'best layout', act: async (page) => page.getByTestId('best-switch').check(), charts: ['throughput', 'grid'], readouts: ['per-gpu', 'layout'] },
  { name: 'data parallelism', act: select('dp-select', 'fsdp_full'), charts: ['breakdown', 'memory'], readouts: ['memory', 'layout'] },
  { name: 'tensor parallel', act: key('tp-slider', 'ArrowRight'), charts: ['throughput', 'breakdown', 'grid', 'memory'], readouts: ['per-gpu', 'layout'] },
  { name: 'pipeline parallel', act: key('pp-slider', 'ArrowRight'), charts: ['throughput', 'breakdown', 'grid'], readouts: ['per-gpu', 'layout'] },
  { name: 'context parallel', act: key('cp-slider', 'ArrowRight'), charts: ['throughput', 'breakdown', 'memory'], readouts: ['per-gpu', 'layout'] },
  { name: 'micro-batch', act: key('micro-batch-slider', 'Home'), charts: ['throughput', 'memory'], readouts: ['memory', 'layout'] },
  { name: 'software stack', act: select('stack-select', 'megatron'), charts: ['throughput', 'per-gpu', 'breakdown'], readouts: ['per-gpu', 'mfu'] },
  {
    name: 'sequence parallelism',
    // The paper's stack has none: under Megatron-LM's, with TP 2.
    setup: async (app) => {
      await app.repaintAfter(async () => app.page.getByTestId('stack-select').selectOption('megatron'));
      await app.repaintAfter(async () => app.slider('tp').press('ArrowRight'));
    },
    act: async (page) => page.getByTestId('sp-switch').uncheck(),
    charts: ['breakdown', 'memory'],
    readouts: ['memory', 'layout'],
  },
  {
    name: 'pipeline schedule',
    // Four micro-batches on two stages: GPipe keeps all four in flight, 1F1B two.
    setup: async (app) => {
      await app.repaintAfter(async () => app.slider('pp').press('ArrowRight'));
      await app.repaintAfter(async () => app.slider('micro-batch').press('Home'));
    },
    act: select('schedule-select', 'gpipe'),
    charts: ['memory'],
    readouts: ['memory'],
  },
  { name: 'recomputation', act: select('recompute-select', 'full'), charts: ['throughput', 'breakdown', 'memory'], readouts: ['per-gpu', 'memory', 'layout'] },
  { name: 'precision', act: select('precision-select', 'fp8'), charts: ['throughput', 'per-gpu'], readouts: ['per-gpu', 'mfu'] },
  { name: 'peak FLOPS', act: fill('peak-tflops-input', '1980'), charts: ['throughput', 'per-gpu', 'generations'], readouts: ['per-gpu', 'mfu'] },
  { name: 'HBM bandwidth', act: fill('hbm-input', '1000'), charts: ['throughput', 'per-gpu'], readouts: ['per-gpu'] },
  { name: 'NVLink', act: fill('nvlink-input', '100'), charts: ['collectives', 'throughput'], readouts: ['per-gpu'] },
  { name: 'InfiniBand', act: fill('network-input', '25'), charts: ['collectives', 'throughput'], readouts: ['per-gpu'] },
  { name: 'data-parallel overlap', act: fill('dp-overlap-input', '150'), charts: ['throughput', 'per-gpu'], readouts: ['per-gpu'] },
  { name: 'GPUs per node', act: fill('gpus-per-node-input', '4'), charts: ['throughput', 'collectives'], readouts: ['throughput', 'layout'] },
  { name: 'GPUs per NVLink domain', act: fill('nvlink-domain-input', '32'), charts: ['throughput'], readouts: ['throughput'] },
  { name: 'token budget', act: fill('plan-tokens-input', '2e12'), charts: ['plan'], readouts: ['train', 'train-energy'] },
  { name: 'GPU-hour price', act: fill('plan-price-input', '4'), charts: ['plan'], readouts: ['train'] },
  { name: 'PUE', act: fill('plan-pue-input', '1.5'), charts: [], readouts: ['train-energy'] },
];

test.describe('explorer', () => {
  test('loads with every chart drawn, the readout filled and no console errors', async ({ page }) => {
    const app = new ScaleScopePage(page);
    await app.goto();
    await expect(page).toHaveTitle('ScaleScope');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('ScaleScope');
    for (const id of CHARTS) {
      const { colours } = await app.pixelStats(app.chart(id));
      expect(colours, `${id} has a real drawing`).toBeGreaterThan(4);
    }
    await expect(app.readout('mfu')).toHaveText(/^\d+\.\d %$/);
    await expect(app.readout('throughput')).toHaveText(/ M tokens\/s$/);
    await expect(app.readout('layout')).toContainText('FSDP · TP 1 · PP 1');
    await expect(app.message).toBeHidden();
    const text = await page.locator('body').innerText();
    expect(text).not.toMatch(/NaN|undefined|Infinity/);
    await page.waitForLoadState('networkidle');
    app.expectNoProblems();
  });

  for (const c of CASES) {
    test(`control: ${c.name} changes its charts and readouts`, async ({ page }) => {
      const app = new ScaleScopePage(page);
      await app.goto();
      if (c.setup) await c.setup(app);
      const before: PageState = await app.state();
      await app.repaintAfter(() => c.act(page));
      const after = await app.state();
      const changed = ScaleScopePage.changed(before, after);
      for (const id of c.charts) expect(changed.charts, `${c.name} redraws ${id}`).toContain(id);
      for (const id of c.readouts) expect(changed.readouts, `${c.name} updates ${id}`).toContain(id);
      await expect(app.message).toBeHidden();
      app.expectNoProblems();
    });
  }

  test('sliders work from the keyboard and every control resets', async ({ page }) => {
    const app = new ScaleScopePage(page);
    await app.goto();
    const nodes = app.slider('nodes');
    await expect(nodes).toHaveAccessibleName('Nodes');
    await expect(app.value('nodes')).toHaveText('32 nodes of 8 GPUs');

    await app.repaintAfter(async () => nodes.press('ArrowRight'));
    await expect(app.value('nodes')).toHaveText('64 nodes of 8 GPUs');
    await expect(nodes).toBeFocused();
    await app.repaintAfter(async () => nodes.press('End'));
    await expect(app.value('nodes')).toHaveText('256 nodes of 8 GPUs');
    await expect(app.readout('layout')).toContainText('2,048 GPUs');
    await app.repaintAfter(async () => nodes.press('Home'));
    await expect(app.value('nodes')).toHaveText('1 node of 8 GPUs');

    const seq = app.slider('seq');
    await expect(seq).toHaveAccessibleName('Context length');
    await app.repaintAfter(async () => seq.press('ArrowLeft'));
    await expect(app.value('seq')).toHaveText('2,048 tokens');

    // Each control's reset button brings back its default.
    await app.repaintAfter(async () => page.getByRole('button', { name: 'Reset Nodes' }).click());
    await expect(app.value('nodes')).toHaveText('32 nodes of 8 GPUs');
    await app.repaintAfter(async () => page.getByRole('button', { name: 'Reset Context length' }).click());
    await expect(app.value('seq')).toHaveText('4,096 tokens');

    // And one button resets them all.
    await app.repaintAfter(async () => page.getByTestId('model-select').selectOption('llama2-70b'));
    await app.repaintAfter(async () => app.slider('tp').press('End'));
    await app.repaintAfter(async () => page.getByTestId('reset-all').click());
    await expect(page.getByTestId('model-select')).toHaveValue('llama2-7b');
    await expect(app.value('tp')).toHaveText('1 GPU');
    app.expectNoProblems();
  });

  test('an impossible layout shows what to change and the page keeps working', async ({ page }) => {
    const app = new ScaleScopePage(page);
    await app.goto();
    const before = await app.state();

    // TP 64 does not divide Llama-2 7B's 32 heads.
    await app.repaintAfter(async () => app.slider('tp').press('End'));
    await expect(app.message).toBeVisible();
    await expect(app.message).toContainText('tensor parallel 64 does not divide the 32 attention heads');
    // The readout keeps the last setting that ran, greyed.
    await expect(page.getByTestId('summary')).toHaveClass(/stale/);
    await expect(app.readout('mfu')).toHaveText(before.readouts.mfu);
    await expect(page.getByText('Last setting that ran')).toBeVisible();
    // Every chart is still drawn: invalid points are marked, not blanked.
    for (const id of CHARTS) await app.waitForChartDrawn(app.chart(id));
    const text = await page.locator('body').innerText();
    expect(text).not.toMatch(/NaN|Infinity/);

    // Other controls keep working while the setting is invalid.
    await app.repaintAfter(async () => app.slider('nodes').press('ArrowLeft'));
    await expect(app.value('nodes')).toHaveText('16 nodes of 8 GPUs');

    // Out of memory is a message too, naming the ways out.
    await app.repaintAfter(async () => app.slider('tp').press('Home'));
    await app.repaintAfter(async () => page.getByTestId('model-select').selectOption('llama2-70b'));
    await expect(app.message).toContainText('out of memory');
    await expect(app.message).toContainText('raise TP or PP');

    // Back to a valid setting: the message goes and the readout returns.
    await app.repaintAfter(async () => page.getByTestId('reset-all').click());
    await expect(app.message).toBeHidden();
    await expect(page.getByTestId('summary')).not.toHaveClass(/stale/);
    const after = await app.state();
    expect(after.readouts).toEqual(before.readouts);
    app.expectNoProblems();
  });

  test('hovering a point shows its values and layout', async ({ page }) => {
    const app = new ScaleScopePage(page);
    await app.goto();
    const chart = app.chart('throughput');
    const box = await chart.boundingBox();
    expect(box).not.toBeNull();
    // Sweep the pointer across the plot until a point answers.
    let shown = false;
    for (let x = 40; x < box!.width - 10 && !shown; x += 6) {
      for (let y = 20; y < box!.height - 30 && !shown; y += 12) {
        await page.mouse.move(box!.x + x, box!.y + y);
        shown = await page.getByTestId('tooltip').isVisible();
      }
    }
    expect(shown).toBe(true);
    const tip = page.getByTestId('tooltip');
    await expect(tip).toContainText('GPUs');
    await expect(tip).toContainText('tokens/s');
    await expect(tip).toContainText('FSDP · TP');
    await page.mouse.move(0, 0);
    await expect(tip).toBeHidden();
    app.expectNoProblems();
  });

  test('the best-layout switch shows the layout it chose', async ({ page }) => {
    const app = new ScaleScopePage(page);
    await app.goto();
    await app.repaintAfter(async () => page.getByTestId('best-switch').check());
    await expect(page.getByText('Best layout found')).toBeVisible();
    await expect(app.readout('layout')).toContainText(/TP \d+/);
    // The manual layout controls are disabled while the search chooses.
    await expect(app.slider('tp')).toBeDisabled();
    app.expectNoProblems();
  });

  test('layout adapts to a phone screen', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    const app = new ScaleScopePage(page);
    await app.goto();
    const width = await app.chart('throughput').evaluate((el) => (el as HTMLCanvasElement).width);
    expect(width).toBeLessThanOrEqual(390);
    expect(width).toBeGreaterThan(250);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    app.expectNoProblems();
  });

  test('no request leaves 127.0.0.1', async ({ page }) => {
    const app = new ScaleScopePage(page);
    await app.goto();
    await app.repaintAfter(async () => app.slider('nodes').press('End'));
    await page.waitForLoadState('networkidle');
    expect(app.requests.length, 'the page itself was requested').toBeGreaterThan(0);
    expect(app.externalRequests()).toEqual([]);
  });

  test('typed text that is not a node count goes back to the count in use', async ({ page }) => {
    const app = new ScaleScopePage(page);
    await app.goto();
    const typed = page.getByTestId('nodes-input');
    await typed.pressSequentially('--');
    await typed.press('Enter');
    await expect(typed).toHaveValue('32');
    await expect(app.value('nodes')).toHaveText('32 nodes of 8 GPUs');
    // A count that is not whole, or out of range, is rounded or clamped,
    // and the notice says so.
    await app.repaintAfter(async () => {
      await typed.fill('2.5');
      await typed.press('Enter');
    });
    await expect(typed).toHaveValue('3');
    await expect(app.value('nodes')).toHaveText('3 nodes of 8 GPUs');
    await expect(page.getByTestId('url-notice')).toContainText('Nodes: `2.5` is not a whole number: using 3');
    app.expectNoProblems();
  });

  test('a custom model field keeps to the limits a link can carry, and says so', async ({ page }) => {
    const app = new ScaleScopePage(page);
    await app.goto('/?model=custom');
    const layers = page.getByTestId('custom-model').getByLabel('Custom model layers', { exact: true });
    await app.repaintAfter(async () => {
      await layers.fill('5000');
      await layers.press('Enter');
    });
    await expect(layers).toHaveValue('1024');
    await expect(page.getByTestId('url-notice')).toContainText('`5000` is out of range (1 to 1024): using 1024');
    await expect(page).toHaveURL(/layers=1024/);
    app.expectNoProblems();
  });

  test('on a high-density screen charts have a pixel per device pixel, and hover still finds points', async ({
    browser,
  }) => {
    const context = await browser.newContext({ deviceScaleFactor: 2, viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const app = new ScaleScopePage(page);
    await app.goto();
    const chart = app.chart('throughput');
    const [width, cssWidth, height, cssHeight] = await chart.evaluate((c) => {
      const canvas = c as HTMLCanvasElement;
      return [canvas.width, canvas.clientWidth, canvas.height, canvas.clientHeight];
    });
    expect(width).toBe(2 * cssWidth);
    expect(height).toBe(2 * cssHeight);
    // The PNG download has the full resolution.
    const [file] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-throughput-png').click()]);
    const png = await readFile((await file.path())!);
    expect(png.readUInt32BE(16)).toBe(2 * cssWidth);
    // Hover targets stay in CSS pixels.
    const box = (await chart.boundingBox())!;
    let shown = false;
    for (let x = 40; x < box.width - 10 && !shown; x += 8) {
      for (let y = 20; y < box.height - 30 && !shown; y += 16) {
        await page.mouse.move(box.x + x, box.y + y);
        shown = await page.getByTestId('tooltip').isVisible();
      }
    }
    expect(shown).toBe(true);
    await expect(page.getByTestId('tooltip')).toContainText('tokens/s');
    app.expectNoProblems();
    await context.close();
  });

  test('the paper stack has no sequence parallelism; a stack that lacks a schedule says so', async ({ page }) => {
    const app = new ScaleScopePage(page);
    await app.goto();
    await expect(page.getByTestId('stack-select')).toHaveValue('paper');
    await expect(page.getByTestId('sp-switch')).toBeDisabled();
    await app.repaintAfter(async () => app.slider('pp').press('ArrowRight'));
    await app.repaintAfter(async () => page.getByTestId('schedule-select').selectOption('interleaved'));
    await expect(app.message).toContainText('the paper stack has no interleaved pipeline schedule');
    await app.repaintAfter(async () => page.getByTestId('stack-select').selectOption('megatron'));
    await expect(app.message).toBeHidden();
    await expect(page.getByTestId('sp-switch')).toBeEnabled();
    await expect(page).toHaveURL(/stack=megatron/);
    await expect(app.readout('exposed-trace')).toHaveText(/^\d+\.\d %$/);
    app.expectNoProblems();
  });
});
