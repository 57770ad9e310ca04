// What several bench scripts share: a free port, waiting for a server, the built portal.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const repo = fileURLToPath(new URL('..', import.meta.url));

/** A free TCP port on the loopback address (the OS picks it; the listener is closed again). */
export function freePort() {
  return new Promise((ok, fail) => {
    const srv = createServer();
    srv.once('error', fail);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => ok(port));
    });
  });
}

/** Resolves once `url` answers 2xx; throws when `child` exits first or after `tries` x `everyMs`. */
export async function waitUntilUp(url, child, { tries = 300, everyMs = 100 } = {}) {
  for (let i = 0; i < tries; i++) {
    if (child.exitCode !== null)
      throw new Error(`server exited with ${child.exitCode} before answering ${url}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, everyMs));
  }
  throw new Error(`no answer from ${url}`);
}

/**
 * The built portal (packages/server/dist) in production mode on a free loopback port and a fresh
 * SQLite folder, as the page benchmarks measure it; `env` adds or overrides settings. Resolves
 * once /healthz answers; `stop()` ends it and removes the folder.
 */
export async function startPortal(name, env = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), `ros-${name}-`));
  const port = await freePort();
  const server = spawn(process.execPath, [join(repo, 'packages/server/dist/main.js')], {
    cwd: repo,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      ROS_DATA_DIR: dataDir,
      DATABASE_URL: '',
      ROS_DEMO_DATA: 'false',
      ROS_REFERENCE_DOWNLOAD: 'false',
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
      ROS_USE_EID: 'NO',
      // Production refuses a key published in the repository (or too guessable): a new one each run.
      ROS_ALTCHA_HMAC_KEY: randomBytes(32).toString('hex'),
      // Required in production, a key of its own (issue 33 item 3).
      ROS_STATUS_KEY: randomBytes(32).toString('hex'),
      // Production refuses a non-https public address; the bench signs nobody in, so none is used.
      ROS_PUBLIC_URL: 'https://ros.bench.invalid',
      // One address loads every page of the run: the lists' per-address limit out of the way.
      ROS_RATE_LIMIT_LISTS: '1000000000',
      ...env,
    },
  });
  const base = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (server.exitCode === null) {
      server.kill('SIGTERM');
      await new Promise((r) => server.once('exit', r));
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await waitUntilUp(`${base}/healthz`, server);
  } catch (err) {
    await stop();
    throw err;
  }
  return { base, server, stop };
}

const PG_ADMIN = process.env.ROS_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/**
 * A database of its own for a bench run: SQLite in a fresh folder, or ('postgres') a fresh
 * PostgreSQL database beside a fresh data folder. `env` holds the server's settings for it;
 * `drop()` removes both.
 */
export async function benchDatabase(kind, name) {
  const dataDir = mkdtempSync(join(tmpdir(), `ros-${name}-`));
  let database;
  const env = { ROS_DATA_DIR: dataDir, DATABASE_URL: '' };
  if (kind === 'postgres') {
    database = `ros_${name}_${process.pid}_${Date.now()}`;
    const c = new pg.Client({ connectionString: PG_ADMIN });
    await c.connect();
    await c.query(`create database ${database}`);
    await c.end();
    const u = new URL(PG_ADMIN);
    u.pathname = `/${database}`;
    env.DATABASE_URL = u.toString();
  }
  return {
    kind,
    dataDir,
    env,
    async drop() {
      rmSync(dataDir, { recursive: true, force: true });
      if (database) {
        const c = new pg.Client({ connectionString: PG_ADMIN });
        await c.connect();
        await c.query(`drop database if exists ${database} with (force)`);
        await c.end();
      }
    },
  };
}

/**
 * The settings of a server that the bench drives as one client: the bot check's work lowered
 * (ROS_ALTCHA_MAX_NUMBER), the per-address limits raised, the demo people loaded. Development
 * mode (the work setting is refused in production).
 */
export const BENCH_SERVER_ENV = {
  ROS_ALTCHA_MAX_NUMBER: '1000',
  ROS_RATE_LIMIT_SEARCH: '1000000000',
  ROS_RATE_LIMIT_VALIDITY: '1000000000',
  ROS_RATE_LIMIT_LISTS: '1000000000',
  ROS_DEMO_DATA: 'true',
};

/**
 * The built server (packages/server/dist/main.js) on a free loopback port with `env` over the
 * bench's defaults; resolves once /readyz answers 200. `stop()` ends it with SIGINT, `kill()`
 * with SIGKILL (no shutdown work at all); both resolve when the process has exited.
 */
export async function spawnServer(env) {
  const port = await freePort();
  const child = spawn(process.execPath, [join(repo, 'packages/server/dist/main.js')], {
    cwd: repo,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      ROS_REFERENCE_DOWNLOAD: 'false',
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  const exited = new Promise((r) => child.once('exit', r));
  const end = async (signal) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
  };
  await waitUntilUp(`${base}/readyz`, child, { tries: 1200 });
  return { base, child, stop: () => end('SIGINT'), kill: () => end('SIGKILL') };
}

export { CHROMIUM_FLAGS, CHROMIUM_PATH } from './chromium.mjs';
