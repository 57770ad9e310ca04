import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { allowed, licenceReport } from '../../../scripts/licences.mjs';
import { productionBom } from '../../../scripts/sbom.mjs';

/** The portal's licence and its production dependencies' licences (docs/licences.md). */

const repo = fileURLToPath(new URL('../../../', import.meta.url));

describe('licences', () => {
  it('the portal is EUPL-1.2: LICENSE holds its text, every package.json says so', () => {
    expect(readFileSync(join(repo, 'LICENSE'), 'utf8')).toMatch(/^EUROPEAN UNION PUBLIC LICENCE v\. 1\.2\n/);
    for (const dir of ['.', 'packages/domain', 'packages/server', 'packages/web', 'e2e', 'bench']) {
      const pkg = JSON.parse(readFileSync(join(repo, dir, 'package.json'), 'utf8')) as { license?: string };
      expect(pkg.license, dir).toBe('EUPL-1.2');
    }
  });

  it('every production dependency has a licence that goes with EUPL-1.2', () => {
    const { packages, byLicence, refused } = licenceReport(join(repo, 'package-lock.json'));
    expect(packages.length).toBeGreaterThan(100);
    // What ships: the server's and the web app's packages, not the test tools.
    const names = new Set(packages.map((p) => p.name));
    for (const name of ['fastify', 'react', 'pg', 'zod']) expect(names, name).toContain(name);
    for (const name of ['vitest', '@playwright/test', '@redocly/cli'])
      expect(names, name).not.toContain(name);
    expect(byLicence.get('(none)') ?? []).toEqual([]);
    expect(refused.map((p) => `${p.name}@${p.version} (${p.licence})`)).toEqual([]);
  });

  it('refuses a copyleft, non-free or missing licence (the check can fail)', () => {
    for (const ok of ['MIT', '(MIT OR GPL-3.0-only)', 'Apache-2.0 AND BSD-3-Clause', 'EUPL-1.2'])
      expect(allowed(ok), ok).toBe(true);
    for (const no of [
      'GPL-3.0-only',
      'AGPL-3.0-or-later',
      'SSPL-1.0',
      'MIT AND GPL-2.0-only',
      'UNLICENSED',
      '(none)',
    ])
      expect(allowed(no), no).toBe(false);
    const dir = mkdtempSync(join(tmpdir(), 'ros-licences-'));
    try {
      const lock = join(dir, 'package-lock.json');
      writeFileSync(
        lock,
        JSON.stringify({
          packages: {
            '': { name: 'x' },
            'node_modules/ok': { version: '1.0.0', license: 'MIT' },
            'node_modules/gpl': { version: '2.0.0', license: 'GPL-3.0-only' },
            'node_modules/devgpl': { version: '1.0.0', license: 'GPL-3.0-only', dev: true },
          },
        }),
      );
      expect(licenceReport(lock).refused.map((p) => p.name)).toEqual(['gpl']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the SBOM keeps the shipped packages and drops the dev-only ones', () => {
    const bom = productionBom(
      {
        metadata: { component: { 'bom-ref': 'ros-portal@0.1.0' } },
        components: [
          { 'bom-ref': '@ros/server@0.1.0' },
          { 'bom-ref': '@ros/e2e@0.1.0' },
          { 'bom-ref': 'fastify@5.0.0' },
          { 'bom-ref': 'vitest@4.0.0' },
        ],
        dependencies: [
          { ref: 'ros-portal@0.1.0', dependsOn: ['@ros/server@0.1.0', '@ros/e2e@0.1.0'] },
          { ref: '@ros/server@0.1.0', dependsOn: ['fastify@5.0.0'] },
          { ref: '@ros/e2e@0.1.0', dependsOn: ['vitest@4.0.0'] },
        ],
      },
      new Set(['fastify@5.0.0']),
    );
    expect(bom.components.map((c) => c['bom-ref'])).toEqual(['@ros/server@0.1.0', 'fastify@5.0.0']);
    expect(bom.dependencies).toEqual([
      { ref: 'ros-portal@0.1.0', dependsOn: ['@ros/server@0.1.0'] },
      { ref: '@ros/server@0.1.0', dependsOn: ['fastify@5.0.0'] },
    ]);
  });
});
