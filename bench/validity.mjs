#!/usr/bin/env node
/**
 * Benchmark of GET /api/ros/{id}/validity against a Fastify hello-world on the same machine, in one
 * run. Both servers are started here, one after the other, on free loopback ports:
 *   - the real ROS server (packages/server/dist/main.js, so run `npm run build` first) on a fresh
 *     SQLite data folder with one seeded certificate, the rate limit raised through
 *     ROS_RATE_LIMIT_VALIDITY so it does not answer 429;
 *   - a bare Fastify app answering {"hello":"world"}.
 * The same server's /healthz is measured too: the cheapest route of the app, so that the endpoint's
 * own cost can be told apart from what every request of the app costs (helmet, compress, hooks).
 * All are warmed up, then loaded with autocannon (50 connections, 10 s each) in alternating rounds
 * (validity, hello, hello, validity, …), so that a busy moment of the machine does not fall on one
 * side only. Printed per round and as the median: requests per second, p99 latency, the throughput
 * ratios validity / the app's /healthz (the target: >= 0.85, with p99 <= 5 ms) and validity /
 * hello-world (a reference line), and whether the targets hold. A JSON copy
 * goes to bench/results/ (not committed).
 *
 *   node bench/validity.mjs [--duration 10] [--warmup 3] [--connections 50] [--rounds 3] [--pin]
 */
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { freePort, waitUntilUp } from './lib.mjs';

const repo = fileURLToPath(new URL('..', import.meta.url));
const serverDist = join(repo, 'packages/server/dist');
const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '3' },
    connections: { type: 'string', default: '50' },
    rounds: { type: 'string', default: '3' },
    pin: { type: 'boolean', default: false },
  },
});
const DURATION = Number(values.duration);
const WARMUP = Number(values.warmup);
const CONNECTIONS = Number(values.connections);
const ROUNDS = Number(values.rounds);
// The target (issue 14's decision): validity's throughput against the app's own cheapest route,
// /healthz, in the same run; the bare Fastify hello-world stays as a reference line.
const TARGET_RATIO = 0.85;
// --pin: every server on CPU 0, this process (autocannon) on CPU 1, with taskset, so that the
// scheduler does not move them around between rounds (less spread between runs; Linux only).
const PIN = values.pin;
if (PIN) spawnSync('taskset', ['-a', '-cp', '1', String(process.pid)], { stdio: 'ignore' });
/** Starts a server process, on CPU 0 with --pin. */
function startServer(args, options) {
  return PIN
    ? spawn('taskset', ['-c', '0', process.execPath, ...args], options)
    : spawn(process.execPath, args, options);
}
const TARGET_P99_MS = 5;

function stop(child) {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', resolve);
    child.kill('SIGTERM');
  });
}

function run(url, seconds) {
  return new Promise((resolve, reject) => {
    autocannon({ url, connections: CONNECTIONS, duration: seconds, pipelining: 1 }, (err, result) =>
      err ? reject(err) : resolve(result),
    );
  });
}

async function measure(name, url) {
  process.stdout.write(`${name}: ${DURATION} s with ${CONNECTIONS} connections … `);
  const r = await run(url, DURATION);
  const bad = r.non2xx + r.errors + r.timeouts;
  process.stdout.write(`done${bad ? ` (${bad} failed answers!)` : ''}\n`);
  if (bad) throw new Error(`${name}: ${r.non2xx} non-2xx, ${r.errors} errors, ${r.timeouts} timeouts`);
  return {
    name,
    url,
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    max: r.latency.max,
    total: r.requests.total,
  };
}

/** Seeds one valid certificate with the built server's own repository code. */
async function seed(dataDir) {
  const imp = (p) => import(pathToFileURL(join(serverDist, p)).href);
  const { loadConfig } = await imp('config/config.js');
  const { openDatabase } = await imp('db/database.js');
  const { migrateToLatest } = await imp('db/migrations.js');
  const { saveRecords } = await imp('records/repository.js');
  const config = loadConfig({ ROS_DATA_DIR: dataDir });
  const db = openDatabase(config);
  await migrateToLatest(db.kysely, db.dialect);
  const validUntil = `${new Date().getUTCFullYear() + 1}-12-31`;
  await saveRecords(db, [
    {
      id: 4711,
      person_id: null,
      stav: 'Ano',
      platnost_do: validUntil,
      a1a3_valid_until: validUntil,
      a2_valid_until: null,
      first_name: 'Jiřina',
      last_name: 'Dvořáková',
    },
  ]);
  await db.close();
  const [y, m, d] = validUntil.split('-').map(Number);
  return `4711x${y + m + d}`;
}

const HELLO = `
  import Fastify from 'fastify';
  const app = Fastify({ logger: false });
  app.get('/', async () => ({ hello: 'world' }));
  await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
`;

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'ros-bench-'));
  const children = [];
  try {
    const token = await seed(dataDir);
    const rosPort = await freePort();
    const ros = startServer([join(serverDist, 'main.js')], {
      cwd: repo,
      stdio: ['ignore', 'ignore', 'inherit'],
      env: {
        ...process.env,
        PORT: String(rosPort),
        HOST: '127.0.0.1',
        ROS_DATA_DIR: dataDir,
        DATABASE_URL: '',
        ROS_DEMO_DATA: 'false',
        ROS_REFERENCE_DOWNLOAD: 'false',
        ROS_RATE_LIMIT_VALIDITY: '1000000000',
        LOG_LEVEL: 'warn',
        NODE_ENV: 'production',
        // Production refuses to start without these (config/config.ts): no NIA sign-in, a fixed bot-check key.
        ROS_USE_EID: 'NO',
        // Production refuses a key published in the repository (or too guessable): a new one each run.
        ROS_ALTCHA_HMAC_KEY: randomBytes(32).toString('hex'),
        // Required in production, a key of its own (issue 33 item 3).
        ROS_STATUS_KEY: randomBytes(32).toString('hex'),
        // Production refuses a non-https public address; the bench signs nobody in, so none is used.
        ROS_PUBLIC_URL: 'https://ros.bench.invalid',
      },
    });
    children.push(ros);
    const validityUrl = `http://127.0.0.1:${rosPort}/api/ros/${token}/validity`;
    await waitUntilUp(validityUrl, ros, { tries: 200 });
    // The same app's cheapest route: what every request costs in this app (helmet, compress, hooks).
    const baselineUrl = `http://127.0.0.1:${rosPort}/healthz`;
    const sample = await (await fetch(validityUrl)).json();
    if (sample?.data?.stav !== 'Ano') throw new Error(`unexpected answer: ${JSON.stringify(sample)}`);

    const helloPort = await freePort();
    // Run from packages/server so that it loads the same Fastify the server uses.
    const hello = startServer(['--input-type=module', '-e', HELLO], {
      cwd: join(repo, 'packages/server'),
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, PORT: String(helloPort), NODE_ENV: 'production' },
    });
    children.push(hello);
    const helloUrl = `http://127.0.0.1:${helloPort}/`;
    await waitUntilUp(helloUrl, hello, { tries: 200 });

    process.stdout.write(`warm-up: ${WARMUP} s each … `);
    await run(validityUrl, WARMUP);
    await run(helloUrl, WARMUP);
    await run(baselineUrl, WARMUP);
    process.stdout.write('done\n');

    const rounds = [];
    for (let i = 0; i < ROUNDS; i++) {
      console.log(`round ${i + 1}/${ROUNDS}`);
      const order = i % 2 === 0 ? ['v', 'h', 'b'] : ['b', 'h', 'v'];
      const round = {};
      for (const which of order) {
        if (which === 'v') round.v = await measure('  validity    ', validityUrl);
        if (which === 'h') round.h = await measure('  hello-world ', helloUrl);
        if (which === 'b') round.b = await measure('  app /healthz', baselineUrl);
      }
      rounds.push({
        validity: round.v,
        hello: round.h,
        appBaseline: round.b,
        ratio: round.v.rps / round.h.rps,
        ratioToApp: round.v.rps / round.b.rps,
      });
    }
    await Promise.all(children.map(stop));

    const median = (xs) => {
      const s = [...xs].sort((a, b) => a - b);
      const m = Math.floor(s.length / 2);
      return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
    };
    const ratio = median(rounds.map((r) => r.ratio));
    const ratioToApp = median(rounds.map((r) => r.ratioToApp));
    const p99 = median(rounds.map((r) => r.validity.p99));
    const ok = ratioToApp >= TARGET_RATIO && p99 <= TARGET_P99_MS;
    console.log('');
    console.log(
      `machine: ${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, Node ${process.version}, load ${loadavg()[0].toFixed(1)}${PIN ? ', pinned (servers CPU 0, autocannon CPU 1)' : ''}`,
    );
    console.log(
      'round  validity req/s  p50 ms  p99 ms   hello req/s  p50 ms  p99 ms   ratio   app /healthz req/s  ratio',
    );
    rounds.forEach((r, i) => {
      const v = r.validity;
      const h = r.hello;
      console.log(
        `${String(i + 1).padStart(5)}  ${v.rps.toFixed(0).padStart(14)}  ${String(v.p50).padStart(6)}  ${String(v.p99).padStart(6)}  ${h.rps.toFixed(0).padStart(12)}  ${String(h.p50).padStart(6)}  ${String(h.p99).padStart(6)}  ${r.ratio.toFixed(3).padStart(6)}  ${r.appBaseline.rps.toFixed(0).padStart(19)}  ${r.ratioToApp.toFixed(3).padStart(5)}`,
      );
    });
    console.log('');
    console.log(
      `throughput ratio validity / the same app's /healthz (median): ${ratioToApp.toFixed(3)} (target >= ${TARGET_RATIO})`,
    );
    console.log(`validity p99 (median): ${p99} ms (target <= ${TARGET_P99_MS} ms)`);
    console.log(`reference: validity / a bare Fastify hello-world (median): ${ratio.toFixed(3)}`);
    console.log(ok ? 'targets met' : 'TARGETS MISSED');

    const outDir = join(repo, 'bench/results');
    mkdirSync(outDir, { recursive: true });
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    writeFileSync(
      join(outDir, `validity-${stamp}.json`),
      JSON.stringify(
        {
          date: new Date().toISOString(),
          cpus: cpus().length,
          load: loadavg(),
          node: process.version,
          connections: CONNECTIONS,
          pinned: PIN,
          duration: DURATION,
          rounds,
          ratio,
          ratioToApp,
          p99,
        },
        null,
        2,
      ),
    );
    process.exitCode = ok ? 0 : 1;
  } finally {
    await Promise.all(children.map(stop));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(2);
});
