#!/usr/bin/env node
/**
 * The worst event-loop stall a single hostile request body causes (issue 11, "one request stops
 * everything"). Starts the built server (packages/server/dist/main.js; run `npm run build`
 * first) on a free loopback port with a fresh SQLite data folder, then, for every public POST and
 * every hostile body of bench/stall-bodies.mjs (the bodies at their sizes, and each
 * shape scaled to just under the route's byte limit), sends the body while this process asks
 * /healthz one request after another (keep-alive, 1 ms apart). The stall of a body is the longest
 * /healthz wait while it was in flight, less the median /healthz wait of an idle server: the
 * time the server's event loop could not answer anyone. Each body is sent `--repeat` times and
 * the median of its stalls is reported (one scheduler hiccup of a busy machine does not decide),
 * next to the noise floor: the longest /healthz wait of the idle server over 2 s. Also sent: the bodies to a POST
 * of an unknown API path and of an unknown page (not a form route).
 *
 *   node bench/stall.mjs [--server packages/server/dist/main.js] [--repeat 3] [--flood-seconds 10]
 *
 * Then the floods (issue 21): 16 connections ask /readyz, then the municipality list (brotli),
 * for `--flood-seconds` (default 10) each while /healthz is probed; its p50/p99/max are reported
 * (the goal: p99 under 500 ms throughout).
 *
 * `--server` measures another build (e.g. one before the fix). A JSON copy goes to
 * bench/results/ (not committed).
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import {
  BIRTH_NUMBER_SEARCH_BODY_LIMITS,
  FORM_BODY_LIMITS,
  SEARCH_BODY_LIMITS,
  VALIDATE_BODY_LIMITS,
} from '@ros/domain';
import { freePort } from './lib.mjs';
import { hostileBodies, POST_ROUTES } from './stall-bodies.mjs';

const repo = fileURLToPath(new URL('..', import.meta.url));
const { values } = parseArgs({
  options: {
    server: { type: 'string', default: join(repo, 'packages/server/dist/main.js') },
    repeat: { type: 'string', default: '5' },
    'flood-seconds': { type: 'string', default: '10' },
  },
});
const REPEAT = Number(values.repeat);
const LIMITS = {
  '/api/ros/search': SEARCH_BODY_LIMITS,
  '/api/ros/search-birth-number': BIRTH_NUMBER_SEARCH_BODY_LIMITS,
  '/api/ros/validate': VALIDATE_BODY_LIMITS,
  '/api/ros': FORM_BODY_LIMITS,
};
/** Not form routes: the bodies only. */
const OTHER_POSTS = [
  { path: '/api/ros/no-such-call', base: {} },
  { path: '/no-such-page', base: {} },
];

const FLOOD_CONNECTIONS = 16;
const FLOOD_SECONDS = Number(values['flood-seconds']);
/** Cheap-looking GETs that once cost real CPU per call (issue 21). */
const FLOODS = [
  { path: '/readyz', headers: {} },
  { path: '/api/ros/municipalities', headers: { 'accept-encoding': 'br' } },
];

const agent = new Agent({ keepAlive: true, maxSockets: 4 });
const floodAgent = new Agent({ keepAlive: true, maxSockets: FLOOD_CONNECTIONS });

function get(port, flood) {
  return new Promise((ok, fail) => {
    request(
      { host: '127.0.0.1', port, path: flood.path, agent: floodAgent, headers: flood.headers },
      (res) => {
        res.resume();
        res.on('end', () => ok(res.statusCode));
      },
    )
      .on('error', fail)
      .end();
  });
}

/** FLOOD_CONNECTIONS loops asking `flood` for FLOOD_SECONDS, /healthz probed meanwhile: its waits. */
async function floodRow(port, flood) {
  const until = performance.now() + FLOOD_SECONDS * 1000;
  const statuses = new Map();
  let answered = 0;
  const loops = Array.from({ length: FLOOD_CONNECTIONS }, async () => {
    while (performance.now() < until) {
      const status = await get(port, flood);
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
      answered++;
    }
  });
  const waits = [];
  while (performance.now() < until) {
    waits.push(await healthz(port));
    await new Promise((r) => setTimeout(r, 1));
  }
  await Promise.all(loops);
  waits.sort((a, b) => a - b);
  const at = (q) => Math.round(waits[Math.min(waits.length - 1, Math.floor(waits.length * q))] * 10) / 10;
  return {
    path: flood.path,
    answered,
    statuses: [...statuses].map(([s, n]) => `${s}: ${n}`).join(', '),
    p50Ms: at(0.5),
    p99Ms: at(0.99),
    maxMs: at(1),
  };
}
const probeAgent = new Agent({ keepAlive: true, maxSockets: 1 });

function send(port, path, text) {
  return new Promise((ok, fail) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c) => {
          body += c;
        });
        res.on('end', () => ok({ status: res.statusCode, body }));
      },
    );
    req.on('error', (err) => {
      if (err.code !== 'EPIPE' && err.code !== 'ECONNRESET') fail(err);
    });
    req.end(text);
  });
}

function healthz(port) {
  return new Promise((ok, fail) => {
    const start = performance.now();
    request({ host: '127.0.0.1', port, path: '/healthz', agent: probeAgent }, (res) => {
      res.resume();
      res.on('end', () => ok(performance.now() - start));
    })
      .on('error', fail)
      .end();
  });
}

/** Probes /healthz until stopped; the longest wait. */
function probe(port) {
  let running = true;
  let worst = 0;
  const loop = (async () => {
    while (running) {
      worst = Math.max(worst, await healthz(port));
      await new Promise((r) => setTimeout(r, 1));
    }
  })();
  return async () => {
    running = false;
    await loop;
    return worst;
  };
}

async function waitUntilUp(port, child) {
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      await healthz(port);
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error('server did not answer /healthz');
}

const codeOf = (body) => {
  try {
    return JSON.parse(body).error?.code ?? '';
  } catch {
    return '';
  }
};

const port = await freePort();
const dataDir = mkdtempSync(join(tmpdir(), 'ros-stall-'));
const child = spawn(process.execPath, [resolve(values.server)], {
  env: {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    ROS_DATA_DIR: dataDir,
    ROS_DEMO_DATA: 'false',
    ROS_REFERENCE_DOWNLOAD: 'false',
    ROS_RATE_LIMIT_SEARCH: '1000000',
    ROS_RATE_LIMIT_LISTS: '1000000',
    LOG_LEVEL: 'warn',
  },
  stdio: ['ignore', 'ignore', 'inherit'],
});
const results = [];
const floods = [];
try {
  await waitUntilUp(port, child);
  // Idle /healthz wait: the baseline a stall is measured against.
  const idle = [];
  for (let i = 0; i < 300; i++) idle.push(await healthz(port));
  idle.sort((a, b) => a - b);
  const baseline = idle[Math.floor(idle.length / 2)];
  const stopIdle = probe(port);
  await new Promise((r) => setTimeout(r, 2000));
  const noise = (await stopIdle()) - baseline;
  console.log(`server ${values.server}, idle /healthz median ${baseline.toFixed(2)} ms`);
  console.log(`noise floor (longest idle /healthz wait over 2 s, less the median): ${noise.toFixed(1)} ms`);
  console.log(
    `${cpus().length} CPUs, load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}\n`,
  );

  const attacks = [
    ...POST_ROUTES.flatMap((route) =>
      hostileBodies(route, LIMITS[route.path].maxBytes - 64).map((body) => ({ route, body })),
    ),
    ...OTHER_POSTS.flatMap((route) => hostileBodies(route).map((body) => ({ route, body }))),
  ];
  for (const { route, body } of attacks) {
    const stalls = [];
    let answer = { status: 0, body: '' };
    for (let i = 0; i < REPEAT; i++) {
      const stop = probe(port);
      await new Promise((r) => setTimeout(r, 5));
      const started = performance.now();
      answer = await send(port, route.path, body.text);
      const took = performance.now() - started;
      await new Promise((r) => setTimeout(r, 5));
      stalls.push(Math.max((await stop()) - baseline, took - baseline));
    }
    stalls.sort((a, b) => a - b);
    const median = stalls[Math.floor(stalls.length / 2)];
    const row = {
      path: route.path,
      body: body.name,
      bytes: Buffer.byteLength(body.text),
      status: answer.status,
      code: codeOf(answer.body),
      stallMs: Math.max(0, Math.round(median * 10) / 10),
      maxMs: Math.max(0, Math.round(stalls[stalls.length - 1] * 10) / 10),
    };
    results.push(row);
    console.log(
      `${row.path.padEnd(30)} ${row.body.padEnd(36)} ${String(row.bytes).padStart(8)} B  ${row.status} ${row.code.padEnd(18)} ${row.stallMs.toFixed(1).padStart(8)} ms (max ${row.maxMs.toFixed(1)})`,
    );
  }
  const worst = results.reduce((w, r) => (r.stallMs > w.stallMs ? r : w), results[0]);
  console.log(`\nworst stall (median of ${REPEAT}): ${worst.stallMs} ms (${worst.path}, ${worst.body})`);

  // Issue 21: public GETs that cost real CPU, asked by 16 connections for FLOOD_SECONDS each,
  // while /healthz is probed: its p99 must stay under 500 ms throughout.
  console.log(
    `\nfloods: ${FLOOD_CONNECTIONS} connections for ${FLOOD_SECONDS} s each, /healthz p99 meanwhile`,
  );
  for (const flood of FLOODS) {
    const row = await floodRow(port, flood);
    floods.push(row);
    console.log(
      `${flood.path.padEnd(30)} ${String(row.answered).padStart(7)} answered (${row.statuses})  /healthz p50 ${row.p50Ms} ms  p99 ${row.p99Ms} ms  max ${row.maxMs} ms`,
    );
  }
  mkdirSync(join(repo, 'bench/results'), { recursive: true });
  const file = join(repo, 'bench/results', `stall-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, JSON.stringify({ server: values.server, baseline, noise, results, floods }, null, 2));
} finally {
  child.kill('SIGTERM');
  agent.destroy();
  probeAgent.destroy();
  floodAgent.destroy();
  await new Promise((r) => setTimeout(r, 300));
  rmSync(dataDir, { recursive: true, force: true });
}
