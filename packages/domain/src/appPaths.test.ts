import { describe, expect, it } from 'vitest';
import { isAppPage } from './appPaths.js';

describe('the app paths', () => {
  it('tells the pages from other paths (one trailing slash allowed)', () => {
    for (const p of ['/', '/form', '/form/', '/duplikat/form', '/duplicate', '/check'])
      expect(isAppPage(p), p).toBe(true);
    for (const p of ['/not-found', '/nothing', '/form/x', '/FORM', '/form//', '/index.html', ''])
      expect(isAppPage(p), p).toBe(false);
  });
});
