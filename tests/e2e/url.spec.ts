import { expect, test } from '@playwright/test';
import { CHARTS, ScaleScopePage } from './support/scalescope-page';

test.describe('links', () => {
  test('the URL holds the controls and a copied link reproduces the view', async ({ page, context }) => {
    const app = new ScaleScopePage(page);
    await app.goto();
    await expect(page).toHaveURL(/\/$/);

    await app.repaintAfter(async () => page.getByTestId('gpu-select').selectOption('a100-sxm4-80gb'));
    await app.repaintAfter(async () => app.slider('nodes').press('ArrowRight'));
    await app.repaintAfter(async () => page.getByTestId('model-select').selectOption('llama2-13b'));
    await app.repaintAfter(async () => app.slider('tp').press('ArrowRight'));
    await app.repaintAfter(async () => page.getByTestId('recompute-select').selectOption('selective'));
    await page.getByText('Hardware what-ifs').click();
    await app.repaintAfter(async () => {
      await page.getByTestId('network-input').fill('800');
      await page.getByTestId('network-input').press('Enter');
      await page.getByTestId('network-input').blur();
    });
    // The URL follows the controls within a quarter of a second.
    await expect(page).toHaveURL(/net=800/);
    const url = page.url();
    for (const part of ['nodes=64', 'model=llama2-13b', 'tp=2', 'recompute=selective', 'net=800']) {
      expect(url).toContain(part);
    }
    const before = await app.state();

    const copy = new ScaleScopePage(await context.newPage());
    await copy.goto(url);
    await expect(copy.page.getByTestId('gpu-select')).toHaveValue('a100-sxm4-80gb');
    await expect(copy.value('nodes')).toHaveText('64 nodes of 8 GPUs');
    await expect(copy.value('tp')).toHaveText('2 GPUs');
    await expect(copy.page.getByTestId('url-notice')).toHaveCount(0);
    const after = await copy.state();
    expect(after.readouts).toEqual(before.readouts);
    app.expectNoProblems();
    copy.expectNoProblems();
  });

  test('a tampered URL is used where it can be and the rest is named', async ({ page }) => {
    const app = new ScaleScopePage(page);
    await app.goto('/?nodes=99999&tp=abc&foo=1&model=llama2-1b&seq=%3Cscript%3E');
    const notice = page.getByTestId('url-notice');
    await expect(notice).toBeVisible();
    await expect(notice).toContainText('`nodes=99999` is out of range (1 to 16384): using 16384');
    await expect(notice).toContainText('ignored `tp=abc`: not a valid value');
    await expect(notice).toContainText('ignored `foo=1`: unknown parameter');
    await expect(notice).toContainText('ignored `seq=<script>`: not a valid value');
    // What could be used, was.
    await expect(page.getByTestId('model-select')).toHaveValue('llama2-1b');
    await expect(page.getByTestId('nodes-input')).toHaveValue('16384');
    for (const id of CHARTS) await app.waitForChartDrawn(app.chart(id));
    await page.getByRole('button', { name: 'Dismiss' }).click();
    await expect(notice).toHaveCount(0);
    app.expectNoProblems();
  });
});

test.describe('links, every control', () => {
  // Every parameter the explorer writes, each away from its default, in
  // the order the explorer writes them.
  const EVERY =
    'gpu=a100-sxm4-80gb&nodes=8&model=custom&layers=32&hidden=4096&heads=32&kv=8&ffn=14336' +
    '&vocab=128256&mlp=gelu&seq=8192&tp=2&pp=2&cp=2&epo=1&dp=hsdp&sp=0&schedule=interleaved' +
    '&scaling=strong&local=4&global=1024&mb=1&recompute=selective&precision=fp8&stack=megatron&best=1' +
    '&peak=1200&hbm=4000&nvlink=1200&net=800&gpn=4&nvd=16&dpbw=150';

  test('a link setting every control is read whole and written back unchanged', async ({ page, context }) => {
    const app = new ScaleScopePage(page);
    await app.goto(`/?${EVERY}`);
    await expect(page.getByTestId('url-notice')).toHaveCount(0);
    const shown: [string, string][] = [
      ['gpu-select', 'a100-sxm4-80gb'],
      ['model-select', 'custom'],
      ['scaling-select', 'strong'],
      ['dp-select', 'hsdp'],
      ['schedule-select', 'interleaved'],
      ['recompute-select', 'selective'],
      ['precision-select', 'fp8'],
      ['stack-select', 'megatron'],
      ['peak-tflops-input', '1200'],
      ['hbm-input', '4000'],
      ['nvlink-input', '1200'],
      ['network-input', '800'],
      ['gpus-per-node-input', '4'],
      ['nvlink-domain-input', '16'],
      ['dp-overlap-input', '150'],
    ];
    for (const [id, value] of shown) await expect(page.getByTestId(id), id).toHaveValue(value);
    await expect(app.value('nodes')).toHaveText('8 nodes of 4 GPUs');
    await expect(app.value('seq')).toHaveText(/^8,?192 tokens$/);
    await expect(app.value('tp')).toHaveText('2 GPUs');
    await expect(app.value('pp')).toHaveText('2 stages');
    await expect(app.value('cp')).toHaveText('2 GPUs');
    await expect(app.value('micro-batch')).toHaveText('1 sequence');
    await expect(app.value('batch')).toHaveText(/^1,?024 sequences per step$/);
    await expect(page.getByTestId('best-switch')).toBeChecked();
    await expect(page.getByTestId('sp-switch')).not.toBeChecked();
    await expect(page.getByTestId('ep-overlap-switch')).toBeChecked();
    const custom = page.getByTestId('custom-model');
    for (const [name, value] of [
      ['layers', '32'],
      ['hidden', '4096'],
      ['heads', '32'],
      ['kv heads', '8'],
      ['ffn', '14336'],
      ['vocab', '128256'],
    ]) {
      await expect(custom.getByLabel(`Custom model ${name}`, { exact: true })).toHaveValue(value);
    }
    await expect(custom.getByLabel('Custom model MLP')).toHaveValue('gelu');
    // The explorer writes the same link back: every control survives the
    // round trip, local batch included although strong scaling hides it.
    await expect.poll(() => new URL(page.url()).search).toBe(`?${EVERY}`);
    const before = await app.state();
    const copy = new ScaleScopePage(await context.newPage());
    await copy.goto(page.url());
    expect((await copy.state()).readouts).toEqual(before.readouts);
    app.expectNoProblems();
    copy.expectNoProblems();
  });
});
