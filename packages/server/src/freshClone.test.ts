import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import {
  appendFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Issue 12: a clone with nothing beside it (no shared folder next to it) passes the test set-up
 * and serves every municipality on the plain start. The repository's files (tracked, and new
 * ones not ignored: what a commit would hold) are copied into a fresh temporary folder, with
 * node_modules linked in and the build output copied (built first when out of date), then
 * `playwright test --list` checks the browser tests' set-up and `npm start` starts the server
 * with plain defaults.
 */
const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

interface BuildScript {
  packageStates(root: string): Array<{ pkg: { name: string }; hash: string; fresh: boolean }>;
  recordBuilt(root: string, pkg: { name: string }, hash: string): void;
}

function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const s = createServer();
    s.once('error', fail);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => ok(port));
    });
  });
}

/** The addresses a TCP port is listened on, from Linux's socket tables (127.0.0.1, ::, …). */
function listening(port: number): string[] {
  const found: string[] = [];
  for (const [file, v6] of [
    ['/proc/net/tcp', false],
    ['/proc/net/tcp6', true],
  ] as const) {
    if (!existsSync(file)) continue;
    for (const row of readFileSync(file, 'utf8').trim().split('\n').slice(1)) {
      const [, local = '', , state] = row.trim().split(/\s+/);
      const [hex = '', portHex = ''] = local.split(':');
      if (state !== '0A' || Number.parseInt(portHex, 16) !== port) continue;
      if (!v6)
        found.push(
          hex
            .match(/../g)
            ?.reverse()
            .map((b) => Number.parseInt(b, 16))
            .join('.') ?? hex,
        );
      else found.push(/^0+$/.test(hex) ? '::' : hex === '00000000000000000000000001000000' ? '::1' : hex);
    }
  }
  return found;
}

/** The environment of a newcomer's shell: none of the portal's settings. */
function plainEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    // Also npm's own variables (npm test runs this): a nested npm must find the clone's package.json.
    if (/^(ROS_|DATABASE_URL$|PORT$|HOST$|NODE_ENV$|LOG_LEVEL$|CI$|VITEST|npm_|INIT_CWD$)/i.test(k)) continue;
    env[k] = v;
  }
  return { ...env, ...extra };
}

/** Links every installed package into the clone; the workspace links point into the clone itself. */
function linkNodeModules(clone: string): void {
  const from = join(repo, 'node_modules');
  const to = join(clone, 'node_modules');
  mkdirSync(join(to, '@ros'), { recursive: true });
  for (const name of readdirSync(from)) {
    if (name === '.cache' || name === '@ros') continue;
    symlinkSync(join(from, name), join(to, name));
  }
  for (const name of readdirSync(join(from, '@ros'))) {
    symlinkSync(readlinkSync(join(from, '@ros', name)), join(to, '@ros', name));
  }
}

describe('a fresh clone with nothing beside it', () => {
  let parent: string;
  let clone: string;
  let server: ChildProcess | undefined;

  beforeAll(() => {
    // The build under test: up to date with the sources (a no-op after `npm run build`).
    const built = spawnSync(process.execPath, ['scripts/build.mjs', '--if-changed'], {
      cwd: repo,
      env: plainEnv(),
      encoding: 'utf8',
    });
    expect(built.status, `${built.stdout}${built.stderr}`).toBe(0);

    parent = mkdtempSync(join(tmpdir(), 'ros-clone-'));
    clone = join(parent, 'ros-portal');
    const listed = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
      cwd: repo,
      encoding: 'utf8',
    });
    for (const file of listed.split('\0').filter(Boolean)) {
      if (!existsSync(join(repo, file))) continue; // deleted, not yet committed
      mkdirSync(dirname(join(clone, file)), { recursive: true });
      cpSync(join(repo, file), join(clone, file));
    }
    for (const pkg of ['domain', 'server', 'web']) {
      cpSync(join(repo, 'packages', pkg, 'dist'), join(clone, 'packages', pkg, 'dist'), { recursive: true });
    }
    linkNodeModules(clone);
  }, 300_000);

  afterAll(async () => {
    if (server?.pid && server.exitCode === null) {
      const exited = new Promise((r) => server?.once('exit', r));
      process.kill(-server.pid, 'SIGTERM');
      await exited;
    }
    if (parent) rmSync(parent, { recursive: true, force: true });
  });

  it('has no shared folder beside it and no copy of anything outside it', () => {
    expect(existsSync(join(clone, '..', 'shared'))).toBe(false);
    expect(existsSync(join(clone, 'packages/server/codebooks/csu-municipalities.tsv'))).toBe(true);
  });

  it('passes the browser tests set-up without ROS_REFERENCE_DIR', () => {
    const r = spawnSync(
      process.execPath,
      [
        join(clone, 'node_modules/@playwright/test/cli.js'),
        'test',
        '-c',
        'e2e/playwright.config.ts',
        '--list',
      ],
      { cwd: clone, env: plainEnv(), encoding: 'utf8', timeout: 60_000 },
    );
    expect(r.status, `${r.stdout}${r.stderr}`).toBe(0);
    expect(r.stdout).toMatch(/Total: \d+ tests? in \d+ files?/);
  }, 90_000);

  it('skips the build when nothing changed, and rebuilds only what a change touches', async () => {
    const script = (await import(pathToFileURL(join(clone, 'scripts/build.mjs')).href)) as BuildScript;
    const stale = () =>
      script
        .packageStates(clone)
        .filter((s) => !s.fresh)
        .map((s) => s.pkg.name);
    // A clone has never been built by this script: everything would be built.
    expect(stale()).toEqual(['domain', 'server', 'web']);
    // The copied output is the build of these very sources: record it as built.
    for (const s of script.packageStates(clone)) script.recordBuilt(clone, s.pkg, s.hash);
    expect(stale()).toEqual([]);

    const change = (file: string, edit: () => void) => {
      const before = readFileSync(join(clone, file));
      edit();
      const touched = stale();
      writeFileSync(join(clone, file), before);
      return touched;
    };
    expect(
      change('packages/web/src/main.tsx', () =>
        appendFileSync(join(clone, 'packages/web/src/main.tsx'), '\n'),
      ),
    ).toEqual(['web']);
    expect(
      change('packages/server/src/main.ts', () =>
        appendFileSync(join(clone, 'packages/server/src/main.ts'), '\n'),
      ),
    ).toEqual(['server']);
    expect(
      change('packages/domain/src/index.ts', () =>
        appendFileSync(join(clone, 'packages/domain/src/index.ts'), '\n'),
      ),
    ).toEqual(['domain', 'server', 'web']);
    // Tests are not built: changing one rebuilds nothing.
    expect(
      change('packages/server/src/startupReport.test.ts', () =>
        appendFileSync(join(clone, 'packages/server/src/startupReport.test.ts'), '\n'),
      ),
    ).toEqual([]);
    // A missing output is built whatever the sources say.
    const main = join(clone, 'packages/server/dist/main.js');
    renameSync(main, `${main}.away`);
    expect(stale()).toEqual(['server']);
    renameSync(`${main}.away`, main);
    expect(stale()).toEqual([]);
  });

  it('serves all 6,258 municipalities and 77 districts on the plain `npm start`', async () => {
    const port = await freePort();
    server = spawn('npm', ['start'], {
      cwd: clone,
      env: plainEnv({ PORT: String(port) }),
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    // Waits as long as the start goes on saying what it does (its log lines): only 45 s without
    // a line fails it. The first start of a clone took 96 s at load 5-19 (issue 39).
    let quiet: NodeJS.Timeout | undefined;
    const ready = await new Promise<string>((ok, fail) => {
      const stalled = () => fail(new Error(`no output for 45 s, not ready:\n${stdout}\n${stderr}`));
      const progress = () => {
        clearTimeout(quiet);
        quiet = setTimeout(stalled, 45_000);
      };
      progress();
      server?.stdout?.on('data', (d: Buffer) => {
        stdout += d.toString('utf8');
        progress();
      });
      server?.stderr?.on('data', (d: Buffer) => {
        stderr += d.toString('utf8');
        progress();
        const line = stderr.split('\n').find((l) => l.startsWith('ROS portal ready at'));
        if (line) {
          clearTimeout(quiet);
          ok(line);
        }
      });
      server?.once('exit', (code) => fail(new Error(`exited ${code}:\n${stdout}\n${stderr}`)));
    });
    expect(ready).toBe(
      `ROS portal ready at http://localhost:${port} (SQLite in ./data, demo data loaded, 6258 municipalities)`,
    );
    // Nothing was rebuilt: the clone's build output was up to date.
    expect(stdout).toMatch(/build: domain, server, web unchanged since the last build/);
    expect(existsSync(join(clone, 'data'))).toBe(true);
    // With no HOST it listens on the loopback address only (issue 39).
    expect(listening(port)).toEqual(['127.0.0.1']);

    const base = `http://127.0.0.1:${port}`;
    const municipalities = (await (await fetch(`${base}/api/ros/municipalities`)).json()) as Array<{
      name: string;
      long_name: string;
    }>;
    expect(municipalities).toHaveLength(6258);
    expect(new Set(municipalities.map((m) => m.long_name)).size).toBe(6258);
    expect(municipalities.filter((m) => m.name === 'Nová Ves')).toHaveLength(14);
    expect(municipalities.some((m) => m.long_name === 'Kunštát')).toBe(true);
    const districts = (await (await fetch(`${base}/api/ros/districts`)).json()) as unknown[];
    expect(districts).toHaveLength(77);
    const home = await fetch(`${base}/`);
    expect(home.status).toBe(200);
    expect(await home.text()).toContain('<div id="root">');
  }, 600_000);
});
