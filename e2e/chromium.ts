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

/**
 * Traces cost a third of the browser suite's time on a 2-core machine (every action's DOM
 * snapshot and a screencast, kept or not: validity.spec 176 s with, 120-127 s without, load
 * 12-15), so they are off unless `ROS_E2E_TRACE=1` asks for them (README, "Test"). A failing
 * test still leaves its screenshot in e2e/.out.
 */
export const RECORDING = {
  trace: process.env.ROS_E2E_TRACE ? 'retain-on-failure' : 'off',
  screenshot: 'only-on-failure',
} as const;
