import { expect, test, type Download, type Page } from '@playwright/test';
import { readFile } from 'node:fs/promises';
import { CHARTS, ScaleScopePage } from './support/scalescope-page';

async function download(page: Page, testid: string): Promise<{ name: string; body: Buffer }> {
  const [file] = await Promise.all([page.waitForEvent('download'), page.getByTestId(testid).click()]);
  const d = file as Download;
  const path = await d.path();
  return { name: d.suggestedFilename(), body: await readFile(path!) };
}

/** Splits one CSV line into fields (quotes as RFC 4180 writes them). */
function fields(line: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (quoted) {
      if (ch === '"' && line[i + 1] === '"') {
        cur += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cur += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      out.push(cur);
      cur = '';
    } else cur += ch;
  }
  out.push(cur);
  return out;
}

const GOOD = {
  hardware: { gpu: 'a100-sxm4-80gb', nodes: 16, gpus_per_node: 8, inter_node_gbps_per_gpu: 200 },
  model: 'llama2-13b',
  seq_len: 8192,
  global_batch: 256,
  micro_batch: 1,
  parallel: { dp: 'fsdp', tp: 4, pp: 2, cp: 1, sp: true, schedule: '1f1b', virtual_stages: 1 },
  recompute: 'selective',
  precision: 'bf16',
  stack: 'megatron',
};

test.describe('export', () => {
  for (const id of CHARTS) {
    test(`the ${id} chart downloads as PNG, SVG and CSV, each well formed`, async ({ page }) => {
      const app = new ScaleScopePage(page);
      await app.goto();
      const png = await download(page, `export-${id}-png`);
      expect(png.name).toBe(`scalescope-${id}.png`);
      expect(png.body.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
      expect(png.body.length, `${id} PNG has a drawing`).toBeGreaterThan(5000);

      const svg = await download(page, `export-${id}-svg`);
      expect(svg.name).toBe(`scalescope-${id}.svg`);
      const text = svg.body.toString('utf8');
      expect(text.startsWith('<svg')).toBe(true);
      expect(text).not.toContain('NaN');
      const parsed = await page.evaluate((s) => {
        const doc = new DOMParser().parseFromString(s, 'image/svg+xml');
        return {
          error: doc.getElementsByTagName('parsererror').length,
          root: doc.documentElement.nodeName,
          shapes: doc.querySelectorAll('line, polyline, rect, circle, path, text').length,
        };
      }, text);
      expect(parsed, `${id} SVG parses`).toMatchObject({ error: 0, root: 'svg' });
      expect(parsed.shapes, `${id} SVG draws the chart`).toBeGreaterThan(20);

      const csv = await download(page, `export-${id}-csv`);
      expect(csv.name).toBe(`scalescope-${id}.csv`);
      const lines = csv.body.toString('utf8').trimEnd().split('\n');
      expect(lines.length, `${id} CSV has rows`).toBeGreaterThan(2);
      const header = fields(lines[0]);
      expect(header.every((h) => /^[a-z0-9_]+$/.test(h)), `${id} header ${header}`).toBe(true);
      for (const line of lines.slice(1)) expect(fields(line).length, `${id}: ${line}`).toBe(header.length);
      app.expectNoProblems();
    });
  }

  test('the throughput CSV holds the numbers the readout shows', async ({ page }) => {
    const app = new ScaleScopePage(page);
    await app.goto();
    const csv = (await download(page, 'export-throughput-csv')).body.toString('utf8').split('\n');
    const row = csv.map(fields).find((f) => f[0] === '32')!;
    const millions = Number(row[3]) / 1e6;
    await expect(app.readout('throughput')).toContainText(millions.toFixed(2));
    app.expectNoProblems();
  });

  test('the setting downloads as a scenario file the core reads', async ({ page }) => {
    const app = new ScaleScopePage(page);
    await app.goto('/?gpu=a100-sxm4-80gb&nodes=16&tp=2&recompute=full');
    const file = await download(page, 'export-scenario');
    expect(file.name).toBe('scalescope-scenario.json');
    const s = JSON.parse(file.body.toString('utf8'));
    expect(s.hardware).toMatchObject({ gpu: 'a100-sxm4-80gb', nodes: 16 });
    expect(s.model).toBe('llama2-7b');
    expect(s.parallel).toMatchObject({ dp: 'fsdp', tp: 2, pp: 1, cp: 1 });
    expect(s.recompute).toBe('full');
    expect(s.global_batch).toBe(2 * 16 * 8);
    app.expectNoProblems();
  });
});

test.describe('import', () => {
  test('a good scenario file sets every control it names', async ({ page }) => {
    const app = new ScaleScopePage(page);
    await app.goto();
    await app.repaintAfter(async () =>
      page.getByTestId('import-file').setInputFiles({
        name: 'good.json',
        mimeType: 'application/json',
        buffer: Buffer.from(JSON.stringify(GOOD)),
      }),
    );
    await expect(page.getByTestId('gpu-select')).toHaveValue('a100-sxm4-80gb');
    await expect(app.value('nodes')).toHaveText('16 nodes of 8 GPUs');
    await expect(page.getByTestId('model-select')).toHaveValue('llama2-13b');
    await expect(app.value('tp')).toHaveText('4 GPUs');
    await expect(app.value('pp')).toHaveText('2 stages');
    await expect(page.getByTestId('recompute-select')).toHaveValue('selective');
    await expect(page.getByTestId('stack-select')).toHaveValue('megatron');
    await expect(page.getByTestId('sp-switch')).toBeChecked();
    await expect(app.value('batch')).toHaveText('2 sequences per GPU');
    await expect(page.getByTestId('import-error')).toHaveCount(0);
    await expect(page).toHaveURL(/model=llama2-13b/);
    app.expectNoProblems();
  });

  test('a dropped scenario file is read too', async ({ page }) => {
    const app = new ScaleScopePage(page);
    await app.goto();
    await app.repaintAfter(async () => {
      const transfer = await page.evaluateHandle((text) => {
        const dt = new DataTransfer();
        dt.items.add(new File([text], 'dropped.json', { type: 'application/json' }));
        return dt;
      }, JSON.stringify({ ...GOOD, model: 'llama2-1b' }));
      await page.dispatchEvent('main', 'drop', { dataTransfer: transfer });
    });
    await expect(page.getByTestId('model-select')).toHaveValue('llama2-1b');
    app.expectNoProblems();
  });

  test('a bad scenario file names the field and leaves the view as it was', async ({ page }) => {
    const app = new ScaleScopePage(page);
    await app.goto();
    const before = await app.state();
    const cases: [string, string][] = [
      ['{ "hardware": ', 'not valid JSON'],
      [JSON.stringify({ ...GOOD, parallel: { ...GOOD.parallel, tp: 'four' } }), '`parallel.tp`'],
      [JSON.stringify({ ...GOOD, hardware: { ...GOOD.hardware, gpu: 'tpu-v5' } }), 'cannot run'],
      [JSON.stringify({ ...GOOD, hardware: { ...GOOD.hardware, peak_tflops: 0.0004 } }), 'hardware.peak_tflops'],
      [JSON.stringify({ ...GOOD, seq_length: 4096 }), 'seq_length'],
    ];
    for (const [text, named] of cases) {
      await page.getByTestId('import-file').setInputFiles({
        name: 'bad.json',
        mimeType: 'application/json',
        buffer: Buffer.from(text),
      });
      const error = page.getByTestId('import-error');
      await expect(error).toContainText('Could not open bad.json');
      await expect(error).toContainText(named);
      await expect(error).toContainText('Nothing was changed');
    }
    const after = await app.state();
    expect(ScaleScopePage.changed(before, after)).toEqual({ charts: [], readouts: [] });
    await expect(page.getByTestId('gpu-select')).toHaveValue('h100-sxm5-80gb');
    app.expectNoProblems();
  });

  test('a file saved where the setting cannot run opens in that state, with the reason', async ({ page }) => {
    const app = new ScaleScopePage(page);
    await app.goto('/?tp=3');
    await expect(page.getByTestId('message')).toContainText('tensor parallel 3 does not divide');
    await expect(page.getByText('No setting has run yet on this page')).toBeVisible();
    const saved = await download(page, 'export-scenario');
    await app.goto();
    await page.getByTestId('import-file').setInputFiles({
      name: saved.name,
      mimeType: 'application/json',
      buffer: saved.body,
    });
    await expect(page.getByTestId('import-error')).toBeHidden();
    await expect(page.getByTestId('url-notice')).toContainText('as saved, this setting cannot run: tensor parallel 3');
    await expect(page.getByTestId('message')).toContainText('tensor parallel 3 does not divide');
    await expect(page).toHaveURL(/tp=3/);
    app.expectNoProblems();
  });
});
