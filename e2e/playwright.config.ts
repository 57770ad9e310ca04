import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from '@playwright/test';
import { CHROMIUM, RECORDING } from './chromium.js';
import { e2eServerEnv } from './serverEnv.js';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const E2E_PORT = Number(process.env.ROS_E2E_PORT ?? 4180);

/**
 * Browser tests drive the built app (npm run build) on the real server, started here on a
 * fresh data folder with the demo data and the built-in ČSÚ codebook (nothing outside the
 * repository), in Debian's Chromium.
 */
export default defineConfig({
  testDir: '.',
  testMatch: '*.spec.ts',
  // Per port, so that two runs on one machine (ROS_E2E_PORT) keep out of each other's way.
  outputDir: `./.out/test-results-${E2E_PORT}`,
  fullyParallel: true,
  workers: 2,
  retries: 0,
  // Generous: the ALTCHA proof of work and axe runs share 2 cores with the server and the browser.
  timeout: 60000,
  expect: { timeout: 15000 },
  reporter: [['list'], ['json', { outputFile: './.out/results.json' }]],
  use: {
    baseURL: `http://127.0.0.1:${E2E_PORT}`,
    browserName: 'chromium',
    launchOptions: CHROMIUM,
    ...RECORDING,
  },
  webServer: {
    command: 'node e2e/start-server.mjs',
    cwd: repo,
    url: `http://127.0.0.1:${E2E_PORT}/readyz`,
    reuseExistingServer: false,
    timeout: 120000,
    stdout: 'ignore',
    stderr: 'pipe',
    env: e2eServerEnv(E2E_PORT, resolve(repo, `e2e/.out/data-${E2E_PORT}`)),
  },
});
