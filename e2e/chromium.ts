import type { LaunchOptions } from '@playwright/test';

/**
 * Debian's Chromium as every browser test launches it (playwright.config.ts and
 * topology/playwright.config.ts): no browser download; the flags keep it from calling out to
 * Google's services, which this machine's closed network refuses.
 */
export const CHROMIUM: LaunchOptions = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
    '--disable-quic',
  ],
};
