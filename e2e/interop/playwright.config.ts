import { defineConfig } from '@playwright/test';
import { CHROMIUM, RECORDING } from '../chromium.js';

/**
 * NIA sign-in in Chromium through the built portal against an OpenID provider the project did
 * not write (oauth2-mock-server), docs/nia.md "Interop tests". The spec starts the provider and
 * the portal itself (the portal must know the provider's address), on ROS_E2E_PORT.
 */
export default defineConfig({
  testDir: '.',
  testMatch: '*.interop.ts',
  outputDir: '../.out/interop-results',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60000,
  expect: { timeout: 15000 },
  reporter: [['list'], ['json', { outputFile: '../.out/interop-results.json' }]],
  use: {
    browserName: 'chromium',
    launchOptions: CHROMIUM,
    ...RECORDING,
  },
});
