import { expect, type ConsoleMessage, type Locator, type Page, type Request } from '@playwright/test';

/** Problems seen on the page: console errors/warnings and uncaught exceptions. */
export interface PageProblems {
  console: string[];
  pageErrors: string[];
}

/**
 * Page object for the ScaleScope explorer. Tests talk to the page through
 * data-testid hooks and accessible names only, so the markup may change freely
 * as long as those stay.
 */
export class ScaleScopePage {
  readonly page: Page;
  readonly problems: PageProblems = { console: [], pageErrors: [] };
  readonly requests: string[] = [];

  constructor(page: Page) {
    this.page = page;
    page.on('console', (msg: ConsoleMessage) => {
      const type = msg.type();
      if (type === 'error' || type === 'warning') {
        this.problems.console.push(`[${type}] ${msg.text()}`);
      }
    });
    page.on('pageerror', (err: Error) => {
      this.problems.pageErrors.push(err.stack || err.message);
    });
    page.on('request', (req: Request) => {
      this.requests.push(req.url());
    });
  }

  /** The chart canvas. */
  get chart(): Locator {
    return this.page.getByTestId('chart');
  }

  /** The "Nodes" range input. */
  get nodesSlider(): Locator {
    return this.page.getByTestId('nodes-slider');
  }

  /** The readout that shows the current node count. */
  get nodesValue(): Locator {
    return this.page.getByTestId('nodes-value');
  }

  /** Open the app and wait until the chart has been drawn. */
  async goto(path = '/'): Promise<void> {
    await this.page.goto(path);
    await expect(this.chart).toBeVisible();
    await this.waitForChartDrawn();
  }

  /**
   * Pixel statistics of a canvas: how many pixels are not fully transparent and
   * how many distinct colours there are (capped at 65). The canvas is copied to
   * a throw-away canvas first, so the page's own canvas is never read back
   * (Chromium warns about repeated getImageData calls on one canvas).
   */
  async pixelStats(canvas: Locator = this.chart): Promise<{ painted: number; colours: number }> {
    return canvas.evaluate((el) => {
      const src = el as HTMLCanvasElement;
      if (src.width === 0 || src.height === 0) return { painted: 0, colours: 0 };
      const copy = document.createElement('canvas');
      copy.width = src.width;
      copy.height = src.height;
      const ctx = copy.getContext('2d', { willReadFrequently: true });
      if (!ctx) return { painted: 0, colours: 0 };
      ctx.drawImage(src, 0, 0);
      const data = ctx.getImageData(0, 0, copy.width, copy.height).data;
      let painted = 0;
      const seen = new Set<number>();
      for (let i = 0; i < data.length; i += 4) {
        if (data[i + 3] !== 0) painted++;
        if (seen.size <= 64) {
          seen.add(((data[i] << 24) | (data[i + 1] << 16) | (data[i + 2] << 8) | data[i + 3]) >>> 0);
        }
      }
      return { painted, colours: seen.size };
    });
  }

  /** Number of pixels of the canvas that are not fully transparent. */
  async paintedPixels(canvas: Locator = this.chart): Promise<number> {
    return (await this.pixelStats(canvas)).painted;
  }

  /** Distinct colours on the canvas (a blank or flat-filled canvas has at most 1). */
  async distinctColours(canvas: Locator = this.chart): Promise<number> {
    return (await this.pixelStats(canvas)).colours;
  }

  /** Wait until the canvas holds a real drawing: painted, with several colours. */
  async waitForChartDrawn(canvas: Locator = this.chart): Promise<void> {
    await expect
      .poll(
        async () => {
          const { painted, colours } = await this.pixelStats(canvas);
          return painted > 0 && colours > 2;
        },
        { message: 'chart canvas should be drawn' },
      )
      .toBe(true);
  }

  /** The canvas pixels as a data: URL, for before/after comparisons. */
  async chartSnapshot(canvas: Locator = this.chart): Promise<string> {
    return canvas.evaluate((el) => (el as HTMLCanvasElement).toDataURL('image/png'));
  }

  /** Wait until the chart differs from an earlier snapshot. */
  async waitForChartChange(before: string, canvas: Locator = this.chart): Promise<string> {
    await expect
      .poll(() => this.chartSnapshot(canvas), { message: 'chart should be redrawn' })
      .not.toBe(before);
    return this.chartSnapshot(canvas);
  }

  /** Current node count as shown in the readout. */
  async nodes(): Promise<number> {
    return Number((await this.nodesValue.textContent())?.trim());
  }

  /** Set the node slider to a value the way a script or assistive tech would. */
  async setNodes(value: number): Promise<void> {
    await this.nodesSlider.fill(String(value));
  }

  /** Press keys on the focused node slider, as a keyboard user would. */
  async pressOnNodes(...keys: string[]): Promise<void> {
    await this.nodesSlider.focus();
    for (const key of keys) await this.nodesSlider.press(key);
  }

  /** Requests whose URL left this machine (anything but 127.0.0.1, data: and blob:). */
  externalRequests(): string[] {
    return this.requests.filter((raw) => {
      const url = new URL(raw);
      if (url.protocol === 'data:' || url.protocol === 'blob:') return false;
      return url.hostname !== '127.0.0.1';
    });
  }

  /** Fail if the page logged any console error or warning, or threw. */
  expectNoProblems(): void {
    expect(this.problems.pageErrors, 'uncaught page errors').toEqual([]);
    expect(this.problems.console, 'console errors and warnings').toEqual([]);
  }
}
