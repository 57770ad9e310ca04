#!/usr/bin/env node
// Builds the packages: domain (tsc), server (tsc), web (vite).
//   node scripts/build.mjs               build all three in full (npm run build; the tests use this)
//   node scripts/build.mjs --if-changed  build only the packages whose sources changed since
//                                        their last build (npm start), so a restart takes seconds
// A package's sources are hashed (contents, not times: a checkout or a copy does not count as a
// change) together with what it is built from (domain's sources for server and web, the lock file,
// whether NODE_ENV is production); the hash of the last successful build is kept in node_modules/.cache/ros-build/.
// tsc builds incrementally (dist/.tsbuildinfo), so a small server change rebuilds in seconds;
// a full build, or one whose output is missing, drops that file first.
// A package whose output is missing is always built. The vite build fails on
// INEFFECTIVE_DYNAMIC_IMPORT: a lazy import that does not split is a mistake (issue 12), and when
// a page's JavaScript breaks its budget (scripts/bundle-budget.mjs, issue 14).
// Every build also writes packages/server/dist/published-secrets.txt: hashes of the repository's
// tokens, which production refuses as secrets (packages/server/src/config/secrets.ts, issue 21).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const stampDir = (root) => join(root, 'node_modules/.cache/ros-build');

const shared = ['package-lock.json', 'tsconfig.base.json'];
const domainSources = [
  'packages/domain/src',
  'packages/domain/package.json',
  'packages/domain/tsconfig.json',
];
const PACKAGES = [
  {
    name: 'domain',
    sources: [...shared, ...domainSources, 'packages/domain/tsconfig.build.json'],
    output: 'packages/domain/dist/index.js',
  },
  {
    name: 'server',
    sources: [
      ...shared,
      ...domainSources,
      'packages/server/src',
      'packages/server/package.json',
      'packages/server/tsconfig.json',
      'packages/server/tsconfig.build.json',
    ],
    output: 'packages/server/dist/main.js',
  },
  {
    name: 'web',
    sources: [
      ...shared,
      ...domainSources,
      'packages/web/src',
      'packages/web/public',
      'packages/web/index.html',
      'packages/web/package.json',
      'packages/web/tsconfig.json',
      'packages/web/vite.config.ts',
      'packages/web/vite-plugin-i18n.ts',
      'packages/web/vite-plugin-precompress.ts',
      'scripts/bundle-budget.mjs',
    ],
    output: 'packages/web/dist/index.html',
    failOn: /INEFFECTIVE_DYNAMIC_IMPORT/,
    check: 'scripts/bundle-budget.mjs',
  },
];

/** Tests are not part of a build: changing one does not make a rebuild. */
const isTest = (path) => /\.test\.tsx?$/.test(path) || /(^|\/)src\/test\//.test(path);

function files(root, path, out) {
  const full = join(root, path);
  if (!existsSync(full)) return out;
  let entries;
  try {
    entries = readdirSync(full, { withFileTypes: true });
  } catch {
    out.push(path); // a file
    return out;
  }
  for (const e of entries) {
    const child = `${path}/${e.name}`;
    if (e.isDirectory()) files(root, child, out);
    else if (!isTest(child)) out.push(child);
  }
  return out;
}

function sourceHash(root, pkg) {
  const h = createHash('sha256');
  // Only production builds differently (vitest's NODE_ENV=test must not count as a change).
  h.update(process.env.NODE_ENV === 'production' ? 'production\n' : 'development\n');
  for (const f of pkg.sources.flatMap((s) => files(root, s, [])).sort()) {
    h.update(`${f}\n`);
    h.update(readFileSync(join(root, f)));
  }
  return h.digest('hex');
}

const stampFile = (root, pkg) => join(stampDir(root), `${pkg.name}.sha256`);
const lastBuilt = (root, pkg) => {
  try {
    return readFileSync(stampFile(root, pkg), 'utf8').trim();
  } catch {
    return undefined;
  }
};

/** Each package in build order, with its source hash and whether its last build is still good. */
export function packageStates(root = repo) {
  return PACKAGES.map((pkg) => {
    const hash = sourceHash(root, pkg);
    return { pkg, hash, fresh: existsSync(join(root, pkg.output)) && lastBuilt(root, pkg) === hash };
  });
}

export function recordBuilt(root, pkg, hash) {
  mkdirSync(stampDir(root), { recursive: true });
  writeFileSync(stampFile(root, pkg), `${hash}\n`);
}

function build(pkg, full) {
  const started = Date.now();
  // Incremental tsc builds (tsconfig.build.json) trust their .tsbuildinfo and do not look
  // at the output: a full build, or one whose output is missing, starts without it.
  if (full) rmSync(join(repo, 'packages', pkg.name, 'dist/.tsbuildinfo'), { force: true });
  // Each package's own build script (tsc or vite), so `npm run build -w packages/x` does the same.
  const r = spawnSync('npm', ['run', '--silent', 'build', '-w', `packages/${pkg.name}`], {
    cwd: repo,
    encoding: 'utf8',
    stdio: pkg.failOn ? ['inherit', 'pipe', 'pipe'] : 'inherit',
  });
  if (pkg.failOn) {
    process.stdout.write(r.stdout ?? '');
    process.stderr.write(r.stderr ?? '');
  }
  if (r.status !== 0) return false;
  if (pkg.failOn?.test(`${r.stdout}${r.stderr}`)) {
    console.error(`build: ${pkg.name}: the build warned ${pkg.failOn.source}: fix it (see above)`);
    return false;
  }
  if (pkg.check && spawnSync('node', [pkg.check], { cwd: repo, stdio: 'inherit' }).status !== 0) {
    console.error(`build: ${pkg.name}: ${pkg.check} failed (see above)`);
    return false;
  }
  console.log(`build: ${pkg.name} built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return true;
}

/**
 * The hashes of every token in the repository's files, beside the built server: production
 * refuses a secret that appears there (packages/server/src/config/secrets.ts). Written at every build,
 * built or not, since any file of the repository (a test, the bench) may hold one.
 */
async function writePublishedSecrets() {
  const secrets = await import(pathToFileURL(join(repo, 'packages/server/dist/config/secrets.js')).href);
  secrets.writePublishedList(repo);
}

async function main(ifChanged) {
  const skipped = [];
  let rebuiltDomain = false;
  for (const { pkg, hash, fresh } of packageStates()) {
    // server type-checks against domain's built declarations: a rebuilt domain rebuilds it.
    if (ifChanged && fresh && !(pkg.name === 'server' && rebuiltDomain)) {
      skipped.push(pkg.name);
      continue;
    }
    if (!build(pkg, !ifChanged || !existsSync(join(repo, pkg.output)))) {
      console.error(`build: ${pkg.name} failed`);
      process.exit(1);
    }
    if (pkg.name === 'domain') rebuiltDomain = true;
    recordBuilt(repo, pkg, hash);
  }
  await writePublishedSecrets();
  if (skipped.length > 0) {
    console.log(
      `build: ${skipped.join(', ')} unchanged since the last build, not rebuilt (\`npm run build\` rebuilds everything)`,
    );
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await main(process.argv.includes('--if-changed'));
}
