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
