import { defineConfig } from '@playwright/test';
import { CHROMIUM, RECORDING } from '../chromium.js';

/**
 * The topology test (docs/OPERATIONS.md): nginx with TLS in front of two instances on one
 * PostgreSQL database, started by the tests themselves (cluster.ts) since they stop, restart and
 * read the logs of single instances. One worker: the tests share one cluster and go in order.
 */
export default defineConfig({
  testDir: '.',
  testMatch: '*.topology.ts',
  outputDir: '../.out/topology-results',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 120000,
  expect: { timeout: 15000 },
  reporter: [['list'], ['json', { outputFile: '../.out/topology-results.json' }]],
  use: {
    browserName: 'chromium',
    ignoreHTTPSErrors: true,
    launchOptions: CHROMIUM,
    ...RECORDING,
  },
});
