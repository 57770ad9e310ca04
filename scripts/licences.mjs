#!/usr/bin/env node
// The licences of every production dependency (what `npm ci --omit=dev` installs: the server's
// and the web app's packages), read from package-lock.json, checked against the licences that
// can be combined with the portal's EUPL-1.2. docs/licences.md gives the reasoning.
//   node scripts/licences.mjs          prints "licence  count  packages" and fails on a refused one
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * Licences a production dependency may have (SPDX ids). Permissive licences only, and the EUPL
 * itself: their terms ask for a notice, never for the combined work to take their licence, so
 * the portal stays EUPL-1.2. Copyleft licences that EUPL's appendix lists as compatible (GPL,
 * AGPL, LGPL, MPL, EPL, ...) are not here: adding one is a decision for a person, not the build.
 */
export const ALLOWED = [
  '0BSD',
  'Apache-2.0',
  'BlueOak-1.0.0',
  'BSD-2-Clause',
  'BSD-3-Clause',
  'CC0-1.0',
  'EUPL-1.2',
  'ISC',
  'MIT',
  'MIT-0',
  'Unlicense',
  'Zlib',
];

/**
 * Packages whose package.json does not state an SPDX id, with the licence their own files give
 * (checked by hand; the version is part of the key, so an update is checked again).
 */
export const STATED_ELSEWHERE = {
  // "EUPL v1.2 Licensed" in its package.json: the gov.cz design system's styles.
  '@gov-design-system-ce/styles': 'EUPL-1.2',
  // "SEE LICENSE IN README.md AND LICENSE": the Bitstream Vera font licence (permissive, like
  // OFL without the name) and public domain for DejaVu's changes. Fonts embedded in PDFs.
  'dejavu-fonts-ttf@2.37.3': 'Bitstream-Vera',
  // No licence field; its LICENSE file is MIT (Devon Govett).
  'png-js@2.0.0': 'MIT',
};
/** Licences that are allowed only through STATED_ELSEWHERE (not SPDX ids of software licences). */
const ALLOWED_STATED = ['Bitstream-Vera'];

/** Whether an SPDX expression can be met with allowed licences ("A OR B": one is enough). */
export function allowed(expression) {
  const e = expression.trim().replace(/^\((.*)\)$/, '$1');
  if (/ OR /.test(e)) return e.split(/ OR /).some((part) => allowed(part));
  if (/ AND /.test(e)) return e.split(/ AND /).every((part) => allowed(part));
  return ALLOWED.includes(e) || ALLOWED_STATED.includes(e);
}

/** Every production package of the lock file: { name, version, licence }. */
export function productionPackages(lockPath) {
  const lock = JSON.parse(readFileSync(lockPath, 'utf8'));
  const out = [];
  for (const [path, entry] of Object.entries(lock.packages)) {
    // Workspaces are ours (EUPL-1.2); dev-only packages are not shipped.
    if (!path.includes('node_modules/') || entry.dev || entry.link) continue;
    const name = entry.name ?? path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length);
    const stated = STATED_ELSEWHERE[`${name}@${entry.version}`] ?? STATED_ELSEWHERE[name];
    out.push({ name, version: entry.version, licence: stated ?? entry.license ?? '(none)' });
  }
  return out;
}

/** The production packages grouped by licence, and those whose licence is not allowed. */
export function licenceReport(lockPath) {
  const packages = productionPackages(lockPath);
  const byLicence = new Map();
  for (const p of packages) byLicence.set(p.licence, [...(byLicence.get(p.licence) ?? []), p]);
  return { packages, byLicence, refused: packages.filter((p) => !allowed(p.licence)) };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { packages, byLicence, refused } = licenceReport(
    fileURLToPath(new URL('../package-lock.json', import.meta.url)),
  );
  for (const [licence, list] of [...byLicence].sort((a, b) => b[1].length - a[1].length)) {
    const names = [...new Set(list.map((p) => p.name))];
    console.log(
      `${licence.padEnd(40)} ${String(list.length).padStart(4)}  ${names.slice(0, 6).join(', ')}${names.length > 6 ? ', …' : ''}`,
    );
  }
  console.log(`${packages.length} production packages; ${refused.length} with a licence not allowed`);
  for (const p of refused) console.log(`  refused: ${p.name}@${p.version} (${p.licence})`);
  process.exit(refused.length === 0 ? 0 : 1);
}
