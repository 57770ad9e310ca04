#!/usr/bin/env node
// The JavaScript budget of each page (issue 14), checked on Vite's output: `npm run build` runs
// it after the web build and fails when a page loads more than its limit.
//   node scripts/bundle-budget.mjs [distDir]     (default packages/web/dist)
// A page's JavaScript is the chunks it loads: the static-import closure of its manifest entries
// (dist/.vite/manifest.json, `build.manifest` in vite.config.ts), each chunk counted once, sized
// as it goes on the wire: the build's brotli file beside it (`file.js.br`, quality 11, written by
// packages/web/vite-plugin-precompress.ts), which the server sends to every browser that accepts
// br (packages/server/src/routes/web.ts; Chromium does); a file under 1 kB goes as it is.
// `goalKb` is the budget; `limitKb` is what the build enforces (the goal, now that all are
// met; a limit above a goal would be today's size, so that the build still fails when a page grows).
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** Sizes in kB (1000 bytes). Every limit is the goal (met since 2026-11-26, bench/README.md). */
export const BUDGETS = [
  { page: 'home', entries: ['index.html'], goalKb: 100, limitKb: 100 },
  {
    page: 'check',
    entries: ['index.html', 'src/validity/ValidityPage.tsx'],
    goalKb: 100,
    limitKb: 100,
  },
  {
    page: 'status',
    entries: ['index.html', 'src/status/StatusPage.tsx'],
    goalKb: 100,
    limitKb: 100,
  },
  {
    page: 'form (search step)',
    // The form's chunk and the bot-check widget the search step shows (one language of it).
    entries: [
      'index.html',
      'src/form/FormPage.tsx',
      'altcha/dist/external/altcha.js',
      'altcha/dist/i18n/cs.js',
    ],
    goalKb: 200,
    limitKb: 200,
  },
  {
    page: 'form (step 2)',
    // The request itself, without a search first (`?eid=eid`, a draft, a NIA sign-in).
    entries: ['index.html', 'src/form/FormPage.tsx', 'src/form/RequestForm.tsx'],
    goalKb: 200,
    limitKb: 200,
  },
];

/** The manifest key an entry names: exact, or the one key ending in `/entry` (node_modules paths). */
function findKey(manifest, entry) {
  if (manifest[entry]) return entry;
  const keys = Object.keys(manifest).filter((k) => k.endsWith(`/${entry}`));
  if (keys.length !== 1) {
    throw new Error(`bundle budget: the manifest has ${keys.length} entries for ${entry}`);
  }
  return keys[0];
}

/** The JavaScript files a page loads: its entries and everything they import statically. */
export function pageFiles(manifest, entries) {
  const files = new Set();
  const seen = new Set();
  const visit = (key) => {
    if (seen.has(key)) return;
    seen.add(key);
    const chunk = manifest[key];
    if (!chunk) throw new Error(`bundle budget: ${key} is not in the manifest`);
    if (chunk.file.endsWith('.js')) files.add(chunk.file);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  for (const entry of entries) visit(findKey(manifest, entry));
  return [...files].sort();
}

/**
 * The bytes a file of the build costs on the wire: its `.br` sibling's size (what the server sends
 * to a browser that accepts brotli), or its own size when it is too small to be compressed
 * (under 1 kB: no `.br` is written and the server sends it as it is). A larger file without
 * its `.br` is an error: the build did not precompress it, so the number would be wrong.
 */
export function wireSize(distDir, file) {
  const path = join(distDir, file);
  if (existsSync(`${path}.br`)) return statSync(`${path}.br`).size;
  const size = statSync(path).size;
  if (size >= 1024)
    throw new Error(`bundle budget: ${file} has no ${file}.br beside it (precompress plugin)`);
  return size;
}

/**
 * Checks every budget. `sizeOf(file)` gives a file's size on the wire in bytes (`wireSize`).
 * Returns one row per page: its files, size, goal and limit, and whether each holds.
 */
export function checkBudgets(manifest, sizeOf, budgets = BUDGETS) {
  return budgets.map((b) => {
    const files = pageFiles(manifest, b.entries);
    const bytes = files.reduce((sum, f) => sum + sizeOf(f), 0);
    const kb = bytes / 1000;
    return { ...b, files, kb, withinLimit: kb <= b.limitKb, goalMet: kb <= b.goalKb };
  });
}

function main(distDir) {
  const manifest = JSON.parse(readFileSync(join(distDir, '.vite/manifest.json'), 'utf8'));
  const sizeOf = (file) => wireSize(distDir, file);
  const rows = checkBudgets(manifest, sizeOf);
  let failed = false;
  for (const r of rows) {
    const goal = r.goalMet ? 'goal met' : `goal ${r.goalKb} kB NOT met yet`;
    console.log(
      `bundle budget: ${r.page}: ${r.kb.toFixed(1)} kB of JavaScript on the wire, brotli (limit ${r.limitKb} kB, ${goal}), ${r.files.length} files`,
    );
    if (!r.withinLimit) {
      failed = true;
      console.error(
        `bundle budget: ${r.page} loads ${r.kb.toFixed(1)} kB, over its limit of ${r.limitKb} kB: ${r.files.join(', ')}`,
      );
    }
  }
  if (failed) process.exit(1);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
  main(process.argv[2] ?? join(repo, 'packages/web/dist'));
}
