import type { AppPath } from '@ros/domain';

/**
 * The modules of the pages that have a chunk of their own, by path (issue 29). App.tsx loads them
 * (its `import()` calls name the same files: the build fails when one here is not a page chunk of
 * the build); the build writes the files each page loads into `dist/page-assets.json`
 * (vite-plugin-page-assets.ts), and the server announces them with the page (`Link:
 * rel=modulepreload`, packages/server/src/routes/web.ts), so a slow link fetches the page's chunk
 * with the first one instead of after it.
 */
export const PAGE_SOURCES = {
  '/form': ['src/zodJitless.ts', 'src/form/FormPage.tsx'],
  '/duplikat/form': ['src/zodJitless.ts', 'src/form/FormPage.tsx'],
  '/duplicate/form': ['src/zodJitless.ts', 'src/form/FormPage.tsx'],
  '/check': ['src/validity/ValidityPage.tsx'],
  '/stav-zadosti': ['src/status/StatusPage.tsx'],
  '/request-status': ['src/status/StatusPage.tsx'],
} as const satisfies Partial<Record<AppPath, readonly string[]>>;

export type ChunkedPath = keyof typeof PAGE_SOURCES;
