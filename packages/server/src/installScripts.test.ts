import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * npm 11 runs a dependency's install script only when package.json's `allowScripts` approves it
 * (README "Two commands"). Approved: better-sqlite3 (compiles or fetches its SQLite binding) and
 * esbuild (checks its platform binary). Denied: @scarf/scarf, install analytics pulled in by
 * Spectral's CLI (its postinstall reports the install to Scarf's servers; Spectral needs nothing
 * from it); vnu-jar, the W3C Nu HTML checker of e2e/html.spec.ts (its postinstall downloads a Java
 * runtime from GitHub when none is installed; the tests run vnu.jar with Debian's Java, which
 * .ci/run installs). A new dependency with an install script fails here until it is reviewed and
 * listed.
 */
const repo = fileURLToPath(new URL('../../../', import.meta.url));
const pkg = JSON.parse(readFileSync(`${repo}package.json`, 'utf8')) as {
  allowScripts: Record<string, boolean>;
};
const lock = JSON.parse(readFileSync(`${repo}package-lock.json`, 'utf8')) as {
  packages: Record<string, { hasInstallScript?: boolean }>;
};

describe('install scripts', () => {
  it('the ones we approve and the ones we deny are every install script in the lock file', () => {
    const withScripts = Object.entries(lock.packages)
      .filter(([path, p]) => path !== '' && p.hasInstallScript)
      .map(([path]) => path.replace(/^.*node_modules\//, ''));
    expect([...new Set(withScripts)].sort()).toEqual(Object.keys(pkg.allowScripts).sort());
    expect(pkg.allowScripts).toEqual({
      'better-sqlite3': true,
      esbuild: true,
      '@scarf/scarf': false,
      'vnu-jar': false,
    });
  });

  it('npm itself finds none unreviewed in the installed tree (npm install-scripts ls)', () => {
    const r = spawnSync('npm', ['install-scripts', 'ls'], { cwd: repo, encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe('No packages with unreviewed install scripts.');
  }, 60_000);
});
