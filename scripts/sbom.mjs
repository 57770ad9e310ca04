#!/usr/bin/env node
// `npm run sbom [FILE]`: a CycloneDX bill of materials of what the portal ships (the production
// dependencies of packages/domain, server and web), written to FILE (ros-portal.cdx.json).
// docs/OPERATIONS.md says how to use it for vulnerability tracking.
//
// npm 11's `npm sbom --omit dev` leaves out production packages in this workspace layout
// (fastify, react and pg among them, checked with npm 11.19), so the full bill is asked for and
// the dev-only packages are taken out with the lock file's own dev flags (the list
// scripts/licences.mjs checks).
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { productionPackages } from './licences.mjs';

/** Workspaces that are shipped (e2e and bench are test and measurement tools). */
const SHIPPED_WORKSPACES = ['@ros/domain', '@ros/server', '@ros/web'];

/** The bill without dev-only components; `production` holds "name@version" of shipped packages. */
export function productionBom(bom, production) {
  const keep = (ref) => production.has(ref) || SHIPPED_WORKSPACES.some((w) => ref.startsWith(`${w}@`));
  const components = bom.components.filter((c) => keep(c['bom-ref']));
  const refs = new Set(components.map((c) => c['bom-ref']));
  const root = bom.metadata?.component?.['bom-ref'];
  const dependencies = (bom.dependencies ?? [])
    .filter((d) => refs.has(d.ref) || d.ref === root)
    .map((d) => ({ ...d, dependsOn: (d.dependsOn ?? []).filter((r) => refs.has(r)) }));
  return { ...bom, components, dependencies };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const out = process.argv[2] ?? 'ros-portal.cdx.json';
  const npm = spawnSync('npm', ['sbom', '--sbom-format', 'cyclonedx'], {
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  if (npm.status !== 0) {
    process.stderr.write(npm.stderr);
    process.exit(npm.status ?? 1);
  }
  const lock = fileURLToPath(new URL('../package-lock.json', import.meta.url));
  const production = new Set(productionPackages(lock).map((p) => `${p.name}@${p.version}`));
  const bom = productionBom(JSON.parse(npm.stdout), production);
  writeFileSync(out, `${JSON.stringify(bom, null, 2)}\n`);
  console.log(`${out}: CycloneDX ${bom.specVersion}, ${bom.components.length} components`);
}
