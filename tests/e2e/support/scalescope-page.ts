import { expect, type ConsoleMessage, type Locator, type Page, type Request } from '@playwright/test';

/** Problems seen on the page: console errors/warnings and uncaught exceptions. */
export interface PageProblems {
  console: string[];
  pageErrors: string[];
}

/** The ten charts, by their data-testid suffix. */
export const CHARTS = [
  'throughput',
  'per-gpu',
  'breakdown',
  'power',
  'grid',
  'generations',
  'collectives',
  'memory',
  'timeline',
  'plan',
] as const;
export type ChartId = (typeof CHARTS)[number];

/** The readout fields, by their data-testid suffix. */
export const READOUTS = [
  'throughput',
  'per-gpu',
  'mfu',
  'exposed',
  'step',
  'power',
  'energy',
  'memory',
  'layout',
  'train',
  'train-energy',
] as const;

/** What the page shows at one moment: every chart's pixels and every readout. */
export interface PageState {
  charts: Record<string, string>;
  readouts: Record<string, string>;
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

  chart(id: ChartId): Locator {
    return this.page.getByTestId(`chart-${id}`);
  }

  slider(id: string): Locator {
    return this.page.getByTestId(`${id}-slider`);
  }

  value(id: string): Locator {
    return this.page.getByTestId(`${id}-value`);
  }

  readout(id: string): Locator {
    return this.page.getByTestId(`out-${id}`);
  }

  get message(): Locator {
    return this.page.getByTestId('message');
  }

  /** How many times the app has repainted its charts. */
  async draws(): Promise<number> {
    return this.page.evaluate(() => Number(document.body.dataset.draws || 0));
  }

  /** Open the app and wait until every chart has been drawn. */
  async goto(path = '/'): Promise<void> {
    await this.page.goto(path);
    await expect.poll(() => this.draws(), { message: 'first repaint' }).toBeGreaterThan(0);
    for (const id of CHARTS) await this.waitForChartDrawn(this.chart(id));
  }

  /**
   * Pixel statistics of a canvas: how many pixels are not fully transparent and
   * how many distinct colours there are (capped at 65). The canvas is copied to
   * a throw-away canvas first, so the page's own canvas is never read back.
   */
  async pixelStats(canvas: Locator): Promise<{ painted: number; colours: number }> {
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

  /** Wait until the canvas holds a real drawing: painted, with several colours. */
  async waitForChartDrawn(canvas: Locator): Promise<void> {
    await expect
      .poll(
        async () => {
          const { painted, colours } = await this.pixelStats(canvas);
          return painted > 1000 && colours > 2;
        },
        { message: 'chart canvas should be drawn' },
      )
      .toBe(true);
  }

  /**
   * Every chart's pixels (as PNG data URLs) and every readout's text. Charts
   * off screen are painted when they scroll into view, so each is scrolled to
   * and awaited until it shows the latest repaint.
   */
  async state(): Promise<PageState> {
    const latest = String(await this.draws());
    for (const id of CHARTS) {
      const chart = this.chart(id);
      await chart.scrollIntoViewIfNeeded();
      await expect(chart, `${id} shows the latest repaint`).toHaveAttribute('data-painted', latest);
    }
    return this.page.evaluate(
      ({ charts, readouts }) => {
        const c: Record<string, string> = {};
        for (const id of charts) {
          const el = document.querySelector(`[data-testid=chart-${id}]`) as HTMLCanvasElement;
          c[id] = el.toDataURL('image/png');
        }
        const r: Record<string, string> = {};
        for (const id of readouts) {
          r[id] = document.querySelector(`[data-testid=out-${id}]`)?.textContent ?? '';
        }
        return { charts: c, readouts: r };
      },
      { charts: [...CHARTS], readouts: [...READOUTS] },
    );
  }

  /** Names of the charts and readouts that differ between two states. */
  static changed(a: PageState, b: PageState): { charts: string[]; readouts: string[] } {
    return {
      charts: Object.keys(a.charts).filter((k) => a.charts[k] !== b.charts[k]),
      readouts: Object.keys(a.readouts).filter((k) => a.readouts[k] !== b.readouts[k]),
    };
  }

  /** Run `act` and wait for the repaint it causes. */
  async repaintAfter(act: () => Promise<void>): Promise<void> {
    const before = await this.draws();
    await act();
    await expect.poll(() => this.draws(), { message: 'repaint after input' }).toBeGreaterThan(before);
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
