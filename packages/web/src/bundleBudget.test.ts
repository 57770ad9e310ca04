// The build's JavaScript budget check (scripts/bundle-budget.mjs), fed a made-up Vite manifest.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  BUDGETS,
  checkBudgets,
  type Manifest,
  pageFiles,
  wireSize,
} from '../../../scripts/bundle-budget.mjs';

/** A manifest shaped like Vite's: the entry, a shared chunk, the lazy pages and the widget. */
const manifest: Manifest = {
  'index.html': {
    file: 'assets/index-a.js',
    imports: ['_shared-b.js'],
    dynamicImports: ['src/form/FormPage.tsx', 'src/validity/ValidityPage.tsx', 'src/status/StatusPage.tsx'],
  },
  '_shared-b.js': { file: 'assets/shared-b.js' },
  '_Trans-c.js': { file: 'assets/Trans-c.js', imports: ['_shared-b.js'] },
  'src/validity/ValidityPage.tsx': {
    file: 'assets/ValidityPage-d.js',
    imports: ['_shared-b.js', '_Trans-c.js'],
  },
  'src/status/StatusPage.tsx': { file: 'assets/StatusPage-s.js', imports: ['_shared-b.js'] },
  'src/form/FormPage.tsx': {
    file: 'assets/FormPage-e.js',
    imports: ['_shared-b.js', 'index.html', '_Trans-c.js'],
    dynamicImports: ['../../node_modules/altcha/dist/external/altcha.js', 'src/form/RequestForm.tsx'],
  },
  'src/form/RequestForm.tsx': { file: 'assets/RequestForm-i.js', imports: ['src/form/FormPage.tsx'] },
  '../../node_modules/altcha/dist/external/altcha.js': { file: 'assets/altcha-f.js' },
  '../../node_modules/altcha/dist/external/altcha.css': { file: 'assets/altcha-f.css' },
  '../../node_modules/altcha/dist/i18n/cs.js': { file: 'assets/cs-g.js' },
  '../../node_modules/altcha/dist/i18n/en.js': { file: 'assets/en-h.js' },
};

const kB = 1000;
const sizes =
  (overrides: Record<string, number> = {}) =>
  (file: string) =>
    overrides[file] ?? (file.endsWith('.js') ? 10 * kB : 0);
const byPage = (rows: ReturnType<typeof checkBudgets>) => (page: string) => {
  const row = rows.find((r) => r.page === page);
  if (!row) throw new Error(`no row for ${page}`);
  return row;
};

describe('bundle budget', () => {
  it('counts the static-import closure of a page once per chunk, not its lazy imports', () => {
    expect(pageFiles(manifest, ['index.html'])).toEqual(['assets/index-a.js', 'assets/shared-b.js']);
    expect(pageFiles(manifest, ['index.html', 'src/validity/ValidityPage.tsx'])).toEqual([
      'assets/Trans-c.js',
      'assets/ValidityPage-d.js',
      'assets/index-a.js',
      'assets/shared-b.js',
    ]);
  });

  it('passes pages within their limits', () => {
    const rows = byPage(checkBudgets(manifest, sizes()));
    expect(rows('home')).toMatchObject({ kb: 20, withinLimit: true, goalMet: true });
    expect(rows('check')).toMatchObject({ kb: 40, withinLimit: true });
    expect(rows('status')).toMatchObject({ kb: 30, withinLimit: true });
    // form: entry, shared, Trans, FormPage, the widget and one language of it.
    expect(rows('form (search step)')).toMatchObject({ kb: 60, withinLimit: true });
    expect(rows('form (search step)').files).toContain('assets/cs-g.js');
    expect(rows('form (search step)').files).not.toContain('assets/en-h.js');
  });

  it('fails a page whose JavaScript is over its limit, and every page that loads that chunk', () => {
    const home = BUDGETS.find((b) => b.page === 'home');
    if (!home) throw new Error('no home budget');
    // The shared chunk grows: home, check and form all load it.
    const rows = byPage(checkBudgets(manifest, sizes({ 'assets/shared-b.js': (home.limitKb - 5) * kB })));
    expect(rows('home').withinLimit).toBe(false);
    expect(rows('home').kb).toBeGreaterThan(home.limitKb);
    expect(rows('check').withinLimit).toBe(false);
    expect(rows('status').withinLimit).toBe(false);
    // Only the form's own chunk grows: home is untouched.
    const form = byPage(checkBudgets(manifest, sizes({ 'assets/FormPage-e.js': 250 * kB })));
    expect(form('home').withinLimit).toBe(true);
    expect(form('form (search step)').withinLimit).toBe(false);
  });

  it('refuses a manifest without a page entry it expects (a renamed page cannot pass unseen)', () => {
    const { 'src/form/FormPage.tsx': _gone, ...rest } = manifest;
    expect(() => checkBudgets(rest, sizes())).toThrow(/FormPage/);
  });

  it("enforces the issues' goals: 100 kB on home, check and status, 200 kB on the form", () => {
    expect(BUDGETS.map((b) => [b.page, b.limitKb])).toEqual([
      ['home', 100],
      ['check', 100],
      ['status', 100],
      ['form (search step)', 200],
      ['form (step 2)', 200],
    ]);
  });

  it('sizes a file as the server sends it: its brotli file, or itself when under 1 kB', () => {
    const dist = mkdtempSync(join(tmpdir(), 'ros-budget-'));
    try {
      mkdirSync(join(dist, 'assets'));
      writeFileSync(join(dist, 'assets/big.js'), 'x'.repeat(5000));
      writeFileSync(join(dist, 'assets/big.js.br'), 'y'.repeat(40));
      writeFileSync(join(dist, 'assets/tiny.js'), 'z'.repeat(300));
      writeFileSync(join(dist, 'assets/bare.js'), 'w'.repeat(2000));
      expect(wireSize(dist, 'assets/big.js')).toBe(40);
      expect(wireSize(dist, 'assets/tiny.js')).toBe(300);
      // A big file the build did not precompress: no silent guess.
      expect(() => wireSize(dist, 'assets/bare.js')).toThrow(/no assets\/bare.js.br/);
    } finally {
      rmSync(dist, { recursive: true, force: true });
    }
  });
});
