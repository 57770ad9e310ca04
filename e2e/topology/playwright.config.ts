import { defineConfig } from '@playwright/test';

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
    launchOptions: {
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
    },
    trace: 'retain-on-failure',
  },
});
