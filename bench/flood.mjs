#!/usr/bin/env node
/**
 * A flood of each public GET (issue 33 item 2, "no request of any encoding may cost more than the
 * cheapest"): for every row below, `--connections` (16) keep-alive connections ask it for
 * `--seconds` (8) while this process asks /healthz one request after another (1 ms apart); the
 * row reports the flood's answers and /healthz's p50/p99/max, and p99 against the idle p99
 * measured in the same run (before and after the floods, the larger of the two). Rows: the
 * municipality list in each encoding a client may ask for (br, gzip, deflate,
 * `br;q=0, gzip;q=0, deflate`, none, identity), the countries in deflate, /api/docs (deflate,
 * none), the status look-up (POST, a wrong code) and the validity check.
 *
 * The goal of the issue: /healthz p99 under a flood stays under 5× its idle p99. Nothing is
 * asserted (a shared machine decides the figures as much as the server); the load average is
 * printed with them. `--probe-thread` asks /healthz from a worker thread of its own instead of
 * this process's event loop, which the 16 flood loops keep busy (the 531 KB answers above all):
 * then the probe's wait is the server's and the machine's, not also this client's. The built
 * server (`npm run build`) in development mode with the bench's settings (bench/lib.mjs
 * BENCH_SERVER_ENV: the per-address limits raised, so every flood request gets a real answer:
 * the worst case); `--real-limits` keeps the default limits instead (most of the flood then gets
 * 429). `--attacker-nice N` sends each flood from a child process of its own at nice N (19: the
 * lowest priority) instead of from this process: a stand-in for the attacker's own machine. On
 * one 2-core host the flood client otherwise takes a core at the server's priority, and the probe
 * then waits for the kernel's scheduler as well as for the server (bench/README.md).
 *
 *   node bench/flood.mjs [--database sqlite|postgres|both] [--seconds 8] [--connections 16] [--real-limits]
 *                        [--probe-thread] [--attacker-nice 19]
 *
 * A JSON copy goes to bench/results/ (not committed).
 */
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { BENCH_SERVER_ENV, benchDatabase, spawnServer } from './lib.mjs';

const repo = fileURLToPath(new URL('..', import.meta.url));
const { values } = parseArgs({
  options: {
    database: { type: 'string', default: 'sqlite' },
    seconds: { type: 'string', default: '8' },
    connections: { type: 'string', default: '16' },
    'real-limits': { type: 'boolean', default: false },
    'probe-thread': { type: 'boolean', default: false },
    'attacker-nice': { type: 'string' },
    // Internal: this file as the attacker's process (--attacker-nice), given the row as JSON.
    'flood-child': { type: 'string' },
  },
});
const SECONDS = Number(values.seconds);
const CONNECTIONS = Number(values.connections);
const KINDS = values.database === 'both' ? ['sqlite', 'postgres'] : [values.database];

const STATUS_BODY = JSON.stringify({ reference: 'ROS-2026-000001', code: 'AAAA-BBBB-CCCC' });
const FLOODS = [
  ...['br', 'gzip', 'deflate', 'br;q=0, gzip;q=0, deflate', undefined, 'identity'].map((encoding) => ({
    path: '/api/ros/municipalities',
    encoding,
  })),
  { path: '/api/ros/countries', encoding: 'deflate' },
  { path: '/api/docs', encoding: 'deflate' },
  { path: '/api/docs', encoding: undefined },
  { path: '/api/ros/status', method: 'POST', body: STATUS_BODY },
  { path: '/api/ros/990000001x2070/validity' },
];

const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

function call(port, agent, f) {
  return new Promise((ok, fail) => {
    const headers = {};
    if (f.encoding !== undefined) headers['accept-encoding'] = f.encoding;
    if (f.body) headers['content-type'] = 'application/json';
    const req = request(
      { host: '127.0.0.1', port, path: f.path, method: f.method ?? 'GET', agent, headers },
      (res) => {
        res.resume();
        res.on('end', () => ok(res.statusCode));
      },
    );
    req.on('error', fail);
    req.end(f.body);
  });
}

const probeAgent = new Agent({ keepAlive: true, maxSockets: 1 });

function healthz(port) {
  const start = performance.now();
  return call(port, probeAgent, { path: '/healthz' }).then(() => performance.now() - start);
}

/** Waits of /healthz asked one after another, 1 ms apart, for `ms`, on this thread. */
async function probeHere(port, ms) {
  const end = performance.now() + ms;
  const waits = [];
  while (performance.now() < end) {
    waits.push(await healthz(port));
    await new Promise((r) => setTimeout(r, 1));
  }
  return waits.sort((a, b) => a - b);
}

// --probe-thread: this file in a worker thread answers { port, ms } with the sorted waits.
if (!isMainThread && workerData?.probe) {
  parentPort.on('message', async ({ port, ms }) => parentPort.postMessage(await probeHere(port, ms)));
}
let prober;
/** The waits of probeHere, on this thread or (--probe-thread) on the probe's own. */
function probe(port, ms) {
  if (!values['probe-thread']) return probeHere(port, ms);
  prober ??= new Worker(new URL(import.meta.url), { workerData: { probe: true } });
  return new Promise((ok, fail) => {
    prober.once('message', ok);
    prober.once('error', fail);
    prober.postMessage({ port, ms });
  });
}

const at = (sorted, q) =>
  Math.round((sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))] ?? 0) * 10) / 10;

/** The flood itself: CONNECTIONS loops asking `f` for `seconds`; answers counted by status. */
async function flood(port, f, seconds) {
  const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const until = performance.now() + seconds * 1000;
  const statuses = new Map();
  let answered = 0;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (performance.now() < until) {
        const status = await call(port, agent, f);
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
        answered++;
      }
    }),
  );
  agent.destroy();
  return { answered, statuses: [...statuses] };
}

/** The flood from a child process at nice `--attacker-nice` (this file with --flood-child). */
function floodFromChild(port, f, seconds) {
  const args = [fileURLToPath(import.meta.url), '--connections', String(CONNECTIONS)];
  args.push('--flood-child', JSON.stringify({ port, f, seconds }));
  const child = spawn('nice', ['-n', values['attacker-nice'], process.execPath, ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (d) => {
    out += d;
  });
  return new Promise((ok, fail) => {
    child.once('error', fail);
    child.once('exit', (code) =>
      code === 0 ? ok(JSON.parse(out)) : fail(new Error(`flood child exit ${code}`)),
    );
  });
}

if (values['flood-child']) {
  const { port, f, seconds } = JSON.parse(values['flood-child']);
  process.stdout.write(JSON.stringify(await flood(port, f, seconds)));
}

async function floodRow(port, f, idleP99, seconds = SECONDS) {
  const flooding = values['attacker-nice'] ? floodFromChild(port, f, seconds) : flood(port, f, seconds);
  const waits = await probe(port, seconds * 1000);
  const { answered, statuses } = await flooding;
  const p99 = at(waits, 0.99);
  return {
    flood: `${f.method ?? 'GET'} ${f.path}`,
    acceptEncoding: f.encoding ?? '(none)',
    answeredPerSecond: Math.round(answered / seconds),
    statuses: statuses.map(([s, n]) => `${s}: ${n}`).join(', '),
    healthzP50Ms: at(waits, 0.5),
    healthzP99Ms: p99,
    healthzMaxMs: at(waits, 1),
    p99OverIdle: Math.round((p99 / idleP99) * 10) / 10,
  };
}

const runs = [];
for (const kind of isMainThread && !values['flood-child'] ? KINDS : []) {
  const db = await benchDatabase(kind, 'flood');
  const env = { ...BENCH_SERVER_ENV, ...db.env };
  if (values['real-limits']) {
    for (const k of Object.keys(env)) if (k.startsWith('ROS_RATE_LIMIT_')) delete env[k];
  }
  const server = await spawnServer(env);
  const port = Number(new URL(server.base).port);
  try {
    // Warm up: every encoding made once, the validity index read, the server's code run hot (the
    // first row of a run was the noisiest before this).
    for (const f of FLOODS) await call(port, probeAgent, f);
    for (const f of FLOODS) await floodRow(port, f, 1, 0.3);
    const loadBefore = load();
    const idleBefore = await probe(port, 3000);
    const idleBeforeP99 = at(idleBefore, 0.99);
    const rows = [];
    for (const f of FLOODS) {
      const row = await floodRow(port, f, idleBeforeP99);
      rows.push(row);
      console.error(
        `${kind}: ${row.flood} [${row.acceptEncoding}] p99 ${row.healthzP99Ms} ms (${row.p99OverIdle}x idle)`,
      );
    }
    const idleAfter = await probe(port, 3000);
    const idleP99 = Math.max(idleBeforeP99, at(idleAfter, 0.99));
    for (const r of rows) r.p99OverIdle = Math.round((r.healthzP99Ms / idleP99) * 10) / 10;
    runs.push({
      database: kind,
      limits: values['real-limits'] ? 'default' : 'raised',
      idle: {
        p50Ms: at(idleBefore, 0.5),
        p99BeforeMs: idleBeforeP99,
        p99AfterMs: at(idleAfter, 0.99),
        p99UsedMs: idleP99,
      },
      load: { before: loadBefore, after: load() },
      rows,
    });
  } finally {
    await server.stop();
    await db.drop();
  }
}

if (isMainThread && !values['flood-child']) await report();

async function report() {
  await prober?.terminate();
  const result = {
    at: new Date().toISOString(),
    node: process.version,
    cpus: cpus().length,
    connections: CONNECTIONS,
    seconds: SECONDS,
    probe: values['probe-thread'] ? 'worker thread' : 'main thread',
    attacker: values['attacker-nice'] ? `child process at nice ${values['attacker-nice']}` : 'this process',
    runs,
  };
  for (const run of runs) {
    console.log(
      `\n${run.database} (limits ${run.limits}): idle /healthz p50 ${run.idle.p50Ms} ms, p99 ${run.idle.p99UsedMs} ms; load ${run.load.before} -> ${run.load.after}`,
    );
    console.table(run.rows);
  }
  const dir = join(repo, 'bench/results');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `flood-${result.at.replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
  console.log(`\n${file}`);
}
