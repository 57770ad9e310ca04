import type { LaunchOptions } from '@playwright/test';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from '../bench/chromium.mjs';

/**
 * Debian's Chromium as every browser test launches it (playwright.config.ts and
 * topology/playwright.config.ts): no browser download; the flags keep it from calling out to
 * Google's services, which this machine's closed network refuses. The path and flags are
 * bench/chromium.mjs, shared with the bench scripts.
 */
export const CHROMIUM: LaunchOptions = {
  executablePath: CHROMIUM_PATH,
  args: CHROMIUM_FLAGS,
};
