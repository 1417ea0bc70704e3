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
