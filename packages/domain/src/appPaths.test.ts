import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { APP_PATHS, isAppPage } from './appPaths.js';

describe('the app paths', () => {
  it('tells the pages from other paths (one trailing slash allowed)', () => {
    for (const p of ['/', '/form', '/form/', '/duplikat/form', '/duplicate', '/check'])
      expect(isAppPage(p), p).toBe(true);
    for (const p of ['/not-found', '/nothing', '/form/x', '/FORM', '/form//', '/index.html', ''])
      expect(isAppPage(p), p).toBe(false);
  });

  it("match the web app's routes (packages/web/src/App.tsx), so the server's 200/404 follows the app", () => {
    const app = readFileSync(new URL('../../web/src/App.tsx', import.meta.url), 'utf8');
    const routes = [...app.matchAll(/<Route\s+path="([^"*]+)"/g)].map((m) => `/${m[1]}`);
    if (/<Route\s+index\b/.test(app)) routes.push('/');
    expect(new Set(routes)).toEqual(new Set(APP_PATHS));
  });
});
