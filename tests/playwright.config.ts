import { defineConfig } from '@playwright/test';
import { launchOptions, viewport } from './chromium.mjs';

// Serves ../dist (built by `trunk build --release`) on its own port, so it
// never clashes with `make serve` on 8080.
const PORT = Number(process.env.E2E_PORT || 8090);
const BASE_URL = `http://127.0.0.1:${PORT}`;

export default defineConfig({
  testDir: './e2e',
  outputDir: './out/test-results',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  forbidOnly: !!process.env.CI,
  timeout: 60_000,
  expect: { timeout: 15_000 },
  // `list` ends with the plain "N passed" summary line.
  reporter: [['list']],
  use: {
    baseURL: BASE_URL,
    headless: true,
    viewport,
    trace: 'off',
    screenshot: 'only-on-failure',
    launchOptions,
  },
  projects: [{ name: 'chromium' }],
  webServer: {
    command: `node serve-dist.mjs --port ${PORT} --host 127.0.0.1 --root ../dist`,
    url: `${BASE_URL}/index.html`,
    reuseExistingServer: false,
    timeout: 30_000,
    stdout: 'ignore',
    stderr: 'pipe',
  },
});
