import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const domainSrc = fileURLToPath(new URL('./packages/domain/src/index.ts', import.meta.url));

export default defineConfig({
  resolve: { alias: { '@ros/domain': domainSrc } },
  test: {
    // Two test files at a time (Vitest's default on 2 cores is one): the domain, web and bench
    // files run beside the server's, which keep to one at a time (fileParallelism below).
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
          // The server's files run one after another (beside the other projects' files). Side by
          // side they took 304 s instead of 472 s quiet, but under load another file's running
          // transaction made the erasure's VACUUM FULL keep an erased row version (xids are
          // cluster-wide; erase.ts checks only its own database): issue 39's note, not yet mended.
          fileParallelism: false,
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
