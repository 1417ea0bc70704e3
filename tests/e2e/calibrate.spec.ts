import { expect, test, type Page } from '@playwright/test';
import { ScaleScopePage } from './support/scalescope-page';

/** Four measured runs on H100 (docs/calibrate.md's format). */
const RUNS = `gpu,nodes,model,seq,global_batch,micro_batch,tp,pp,dp,stack,metric,value
h100,1,llama2-7b,4096,16,2,1,1,fsdp,megatron,tokens_per_gpu,8648
h100,4,llama2-7b,4096,64,2,1,1,fsdp,megatron,tokens_per_gpu,8100
h100,16,llama2-7b,4096,256,2,1,1,fsdp,megatron,tokens_per_gpu,7700
h100,32,llama2-7b,4096,64,2,8,1,fsdp,megatron,tokens_per_gpu,4839
`;

async function paste(page: Page, text: string): Promise<void> {
  const area = page.getByTestId('calibrate-csv');
  if (!(await area.isVisible())) await page.getByTestId('calibrate').locator('summary').click();
  await area.fill(text);
}

test.describe('calibrating to your own runs', () => {
  test('a fit from pasted runs changes the curves and the readouts, and turning it off restores them', async ({ page, context }) => {
    const app = new ScaleScopePage(page);
    await app.goto();
    const before = await app.state();
    await paste(page, RUNS);
    await app.repaintAfter(async () => page.getByTestId('calibrate-fit').click());
    const report = page.getByTestId('calibrate-report');
    // The constant, its default (the shipped fit) and the value fitted here.
    await expect(report).toContainText(/GEMM efficiency\s*0\.\d\d\s*0\.\d\d/);
    await expect(page.getByTestId('calibrated-banner')).toContainText('Calibrated');
    const calibrated = await app.state();
    const changed = ScaleScopePage.changed(before, calibrated);
    for (const id of ['throughput', 'per-gpu', 'breakdown']) expect(changed.charts).toContain(id);
    for (const id of ['throughput', 'per-gpu', 'mfu']) expect(changed.readouts).toContain(id);
    // The calibration rides in the link.
    await expect(page).toHaveURL(/cgemm=/);
    const copy = new ScaleScopePage(await context.newPage());
    await copy.goto(page.url());
    await expect(copy.readout('per-gpu')).toHaveText(calibrated.readouts['per-gpu']);
    await expect(copy.page.getByTestId('calibrated-banner')).toBeVisible();

    // Off: every readout is back where it was.
    await app.repaintAfter(async () => page.getByTestId('calibrated-off').click());
    await expect(page.getByTestId('calibrated-banner')).toHaveCount(0);
    const off = await app.state();
    expect(off.readouts).toEqual(before.readouts);
    await expect(page).toHaveURL(/cal=0/);
    // And on again from the panel's switch.
    await app.repaintAfter(async () => page.getByTestId('calibrate-on').check());
    await expect(app.readout('per-gpu')).toHaveText(calibrated.readouts['per-gpu']);
    app.expectNoProblems();
    copy.expectNoProblems();
  });

  test('a bad line is named by line and field, and nothing changes', async ({ page }) => {
    const app = new ScaleScopePage(page);
    await app.goto();
    const before = await app.state();
    await paste(page, RUNS.replace('8100', '-12'));
    await page.getByTestId('calibrate-fit').click();
    await expect(page.getByTestId('calibrate-error')).toContainText('line 3, field `value`');
    await expect(page.getByTestId('calibrate-error')).toContainText('The calibration was not changed');
    await expect(page.getByTestId('calibrated-banner')).toHaveCount(0);
    // More free constants than runs.
    await paste(page, RUNS.split('\n').slice(0, 3).join('\n'));
    await page.getByTestId('calibrate-fit').click();
    await expect(page.getByTestId('calibrate-error')).toBeVisible();
    const after = await app.state();
    expect(after.readouts).toEqual(before.readouts);
    expect(await page.evaluate(() => location.search)).toBe('');
    app.expectNoProblems();
  });
});
