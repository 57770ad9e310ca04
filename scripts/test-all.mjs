#!/usr/bin/env node
// The whole test command: lint, type-check, build, unit + API tests (SQLite and PostgreSQL),
// browser tests. Prints one closing line "N passed, N failed, N skipped" over every test run.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';

const out = 'e2e/.out';
mkdirSync(out, { recursive: true });
let passed = 0;
let failed = 0;
let skipped = 0;
const failures = [];

function step(name, cmd, args) {
  const started = Date.now();
  console.log(`\n=== ${name}: ${cmd} ${args.join(' ')}`);
  const r = spawnSync(cmd, args, { stdio: 'inherit', env: process.env });
  const secs = ((Date.now() - started) / 1000).toFixed(1);
  const ok = r.status === 0;
  console.log(`=== ${name}: ${ok ? 'ok' : `FAILED (exit ${r.status ?? r.signal})`} in ${secs} s`);
  if (!ok) failures.push(name);
  return ok;
}

step('lint', 'npx', ['biome', 'check', '.']);
step('typecheck', 'npm', ['run', '--silent', 'typecheck']);
const built = step('build', 'npm', ['run', '--silent', 'build']);

const vitestJson = `${out}/vitest.json`;
rmSync(vitestJson, { force: true });
step('unit and API tests', 'npx', [
  'vitest',
  'run',
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${vitestJson}`,
]);
if (existsSync(vitestJson)) {
  const r = JSON.parse(readFileSync(vitestJson, 'utf8'));
  passed += r.numPassedTests;
  failed += r.numFailedTests;
  skipped += r.numPendingTests + (r.numTodoTests ?? 0);
} else {
  failed += 1;
}

const pwJson = `${out}/results.json`;
rmSync(pwJson, { force: true });
if (built) {
  step('browser tests', 'npx', ['playwright', 'test', '-c', 'e2e/playwright.config.ts']);
  if (existsSync(pwJson)) {
    const s = JSON.parse(readFileSync(pwJson, 'utf8')).stats;
    passed += s.expected + (s.flaky ?? 0);
    failed += s.unexpected;
    skipped += s.skipped;
  } else {
    failed += 1;
  }
} else {
  failures.push('browser tests (not run: build failed)');
}

// The topology test: Debian's nginx with TLS in front of two instances on one PostgreSQL
// database (e2e/topology, docs/OPERATIONS.md). Needs nginx and PostgreSQL: with CI=true a
// missing one fails the run; elsewhere the step is skipped with a line saying why.
const topoJson = `${out}/topology-results.json`;
rmSync(topoJson, { force: true });
const nginx = spawnSync('nginx', ['-v'], { stdio: 'ignore' }).status === 0;
if (!built) {
  failures.push('topology tests (not run: build failed)');
} else if (!nginx && process.env.CI !== 'true') {
  console.log('\n=== topology tests: skipped (no nginx; apt-get install nginx-light, or run .ci/run)');
  skipped += 1;
} else {
  step('topology tests', 'npx', ['playwright', 'test', '-c', 'e2e/topology/playwright.config.ts']);
  if (existsSync(topoJson)) {
    const s = JSON.parse(readFileSync(topoJson, 'utf8')).stats;
    passed += s.expected + (s.flaky ?? 0);
    failed += s.unexpected;
    skipped += s.skipped;
  } else {
    failed += 1;
  }
}

console.log('');
if (failures.length) console.log(`Failed steps: ${failures.join(', ')}`);
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failures.length === 0 && failed === 0 ? 0 : 1);
