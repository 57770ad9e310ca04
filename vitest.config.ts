import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const domainSrc = fileURLToPath(new URL('./packages/domain/src/index.ts', import.meta.url));

export default defineConfig({
  resolve: { alias: { '@ros/domain': domainSrc } },
  test: {
    // Two test files at a time (Vitest's default on 2 cores is one): 304 s against 472 s for the
    // whole run on a quiet 2-core machine. The server's files run side by side too; the tests that
    // need a database to themselves (VACUUM, advisory locks, pg_dump) create one (ownDatabase).
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: { name: 'domain', root: 'packages/domain', environment: 'node', include: ['src/**/*.test.ts'] },
      },
      {
        extends: true,
        test: {
          name: 'server',
          root: 'packages/server',
          environment: 'node',
          include: ['src/**/*.test.ts'],
          // Every answer of every test is checked against the OpenAPI document (docs/api.md).
          setupFiles: ['./src/test/contractSetup.ts'],
          testTimeout: 20000,
          hookTimeout: 30000,
        },
      },
      {
        extends: true,
        // The bench scripts' pure helpers (e.g. the Lighthouse CPU calibration, issue 37).
        test: {
          name: 'bench',
          root: 'bench',
          environment: 'node',
          include: ['**/*.test.mjs'],
          exclude: ['node_modules/**', 'results/**'],
        },
      },
      {
        extends: true,
        test: {
          name: 'web',
          root: 'packages/web',
          environment: 'jsdom',
          include: ['src/**/*.test.{ts,tsx}'],
          setupFiles: ['./src/test/setup.ts'],
          // Whole-form tests type many keystrokes through jsdom: on 2 busy cores one takes several
          // seconds, more than the default 5 s.
          testTimeout: 20000,
        },
      },
    ],
  },
});
