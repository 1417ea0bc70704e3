// The one place the headless Chromium launch is configured, shared by the
// end-to-end tests (playwright.config.ts) and the screenshot script.

/** Launch options: the system Chromium from Debian; never download a browser. */
export const launchOptions = {
  executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
};

/** The viewport every page is rendered at. */
export const viewport = { width: 1280, height: 900 };
