import { describe, expect, it } from 'vitest';
import { canonicalAppPath, isAppPage } from './appPaths.js';

describe('the app paths', () => {
  it('tells the pages, written exactly, from other paths', () => {
    for (const p of ['/', '/form', '/duplikat/form', '/duplicate', '/check'])
      expect(isAppPage(p), p).toBe(true);
    for (const p of ['/not-found', '/nothing', '/form/x', '/FORM', '/form/', '/form//', '/index.html', ''])
      expect(isAppPage(p), p).toBe(false);
  });

  it('gives the canonical path of a page written in other case or with a trailing slash (issue 22)', () => {
    expect(canonicalAppPath('/FORM')).toBe('/form');
    expect(canonicalAppPath('/Check')).toBe('/check');
    expect(canonicalAppPath('/Duplicate/Form')).toBe('/duplicate/form');
    expect(canonicalAppPath('/DUPLIKAT/form/')).toBe('/duplikat/form');
    expect(canonicalAppPath('/form/')).toBe('/form');
    expect(canonicalAppPath('/Not-Found')).toBe('/not-found');
    // Already canonical, or no page at all: nothing to redirect to.
    for (const p of [
      '/',
      '/form',
      '/check',
      '/not-found',
      '/nothing',
      '/form//',
      '/form/x',
      '//form',
      '/f%6Frm',
    ])
      expect(canonicalAppPath(p), p).toBeNull();
  });
});
