// What several bench scripts share: a free port, waiting for a server, the built portal.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

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
      // Production refuses a non-https public address; the bench signs nobody in, so none is used.
      ROS_PUBLIC_URL: 'https://ros.bench.invalid',
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

export { CHROMIUM_FLAGS, CHROMIUM_PATH } from './chromium.mjs';
