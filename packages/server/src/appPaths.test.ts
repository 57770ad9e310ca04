import { readFileSync } from 'node:fs';
import { APP_PATHS } from '@ros/domain';
import { describe, expect, it } from 'vitest';

describe('APP_PATHS', () => {
  it("match the web app's routes (packages/web/src/App.tsx), so the server's 200/404 follows the app", () => {
    const app = readFileSync(new URL('../../web/src/App.tsx', import.meta.url), 'utf8');
    const routes = [...app.matchAll(/<Route\s+path="([^"*]+)"/g)].map((m) => `/${m[1]}`);
    if (/<Route\s+index\b/.test(app)) routes.push('/');
    expect(new Set(routes)).toEqual(new Set(APP_PATHS));
  });
});
