#!/usr/bin/env node
/**
 * A day's worst hour (issue 14): complete applications and validity checks together, at a fixed
 * offered rate, against the built server (`npm run build` first) on SQLite and on PostgreSQL.
 *
 * One application is what a browser does for a request without sign-in: a bot-check challenge
 * (solved here, as the browser would), the search that finds a demo person, validate, a second
 * challenge, submit (a new applicant each time, so nothing is folded into an earlier request),
 * and the PDF. Next to each application the offered load has `--checks` validity checks.
 * Requests are started on a fixed schedule (open loop: a slow answer does not slow the offer).
 * The bot check's difficulty is lowered through its setting (ROS_ALTCHA_MAX_NUMBER=1000) and the
 * per-address limits raised (one client address sends everything).
 *
 * For each rate (applications per second) it runs `--duration` seconds and prints per call the
 * count, errors, p50 and p99 latency, and the server's CPU time per application (utime + stime
 * of the server process over the run, divided by the applications completed; the validity checks
 * are included). The highest rate at which every call's p99 <= 100 ms with 0 errors is the result.
 * A JSON copy goes to bench/results/ (not committed).
 *
 *   node bench/load.mjs [--db sqlite|postgres|both] [--rates 1,2,4,8] [--duration 60] [--checks 10]
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { AGREED, applicant, json, solveToken } from './applicant.mjs';
import { BENCH_SERVER_ENV, benchDatabase, spawnServer } from './lib.mjs';

const repo = fileURLToPath(new URL('..', import.meta.url));
const { values } = parseArgs({
  options: {
    db: { type: 'string', default: 'both' },
    rates: { type: 'string', default: '1,2,4,8,12,16' },
    duration: { type: 'string', default: '60' },
    checks: { type: 'string', default: '10' },
  },
});
const DURATION_S = Number(values.duration);
const CHECKS = Number(values.checks);
const RATES = values.rates.split(',').map(Number);
const P99_TARGET_MS = 100;
const TICKS = 100; // clock ticks per second (getconf CLK_TCK on Linux)

/** utime + stime of a process, in seconds. */
function cpuSeconds(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS;
}

async function startServer(kind) {
  const db = await benchDatabase(kind, 'load');
  const server = await spawnServer({ ...db.env, ...BENCH_SERVER_ENV });
  return {
    base: server.base,
    pid: server.child.pid,
    async stop() {
      await server.stop();
      await db.drop();
    },
  };
}

const STEPAN = { first_name: 'Štěpán', last_name: 'Dvořák', type: 'OP_CR', number: '123456789' };

/** The validate payload the browser sends (packages/web/src/form/submit.ts validatePayload). */
const validatePayload = (v) => ({
  first_name: v.first_name,
  last_name: v.last_name,
  birth_date: v.birth_date,
  municipality: v.birth_municipality,
  aifo: v.aifo,
  document_number: v.document_number,
  birth_number: v.birth_number,
  duplicate: false,
});

class Stats {
  constructor() {
    this.calls = new Map();
  }
  /** `outcome`: the answer's status when it was not the expected one, or the error's name. */
  add(name, ms, ok, outcome) {
    let s = this.calls.get(name);
    if (!s) {
      s = { times: [], errors: 0, errorsBy: {} };
      this.calls.set(name, s);
    }
    s.times.push(ms);
    if (!ok) {
      s.errors++;
      s.errorsBy[outcome] = (s.errorsBy[outcome] ?? 0) + 1;
    }
  }
  summary() {
    const out = {};
    for (const [name, s] of this.calls) {
      const t = [...s.times].sort((a, b) => a - b);
      const q = (p) => t[Math.min(t.length - 1, Math.floor(p * t.length))] ?? 0;
      out[name] = { n: t.length, errors: s.errors, errorsBy: s.errorsBy, p50: q(0.5), p99: q(0.99) };
    }
    return out;
  }
}

/** Times one call; `fn` answers its response, which must have the status `expected`. */
async function timed(stats, name, expected, fn) {
  const start = performance.now();
  let outcome;
  try {
    outcome = (await fn()).status;
  } catch (err) {
    outcome = err?.name ?? 'error';
  }
  const ok = outcome === expected;
  stats.add(name, performance.now() - start, ok, outcome);
  if (!ok) throw new Error(`${name} failed`);
}

async function token(base, stats) {
  let challenge;
  await timed(stats, 'challenge', 200, async () => {
    const r = await fetch(`${base}/api/ros/altcha-challenge`);
    challenge = await r.json();
    return r;
  });
  return solveToken(challenge);
}

async function application(base, stats, n) {
  const t1 = await token(base, stats);
  await timed(stats, 'search', 200, async () => {
    const r = await fetch(`${base}/api/ros/search`, json(STEPAN, { recaptcha: t1 }));
    await r.arrayBuffer();
    return r;
  });
  const values = applicant(n);
  await timed(stats, 'validate', 200, async () => {
    const r = await fetch(`${base}/api/ros/validate`, json(validatePayload(values)));
    await r.arrayBuffer();
    return r;
  });
  const t2 = await token(base, stats);
  let id;
  await timed(stats, 'submit', 201, async () => {
    const r = await fetch(
      `${base}/api/ros`,
      json({ ...values, language: 'cs', duplicate: false, ...AGREED }, { recaptcha: t2 }),
    );
    id = (await r.json()).id;
    return r;
  });
  await timed(stats, 'pdf', 200, async () => {
    const r = await fetch(`${base}/api/ros/pdf/${id}`);
    await r.arrayBuffer();
    return r;
  });
}

async function check(base, stats) {
  await timed(stats, 'validity', 200, async () => {
    const r = await fetch(`${base}/api/ros/990000001x2070/validity`);
    await r.arrayBuffer();
    return r;
  });
}

/** Runs one rate for DURATION_S: starts work on a fixed schedule and waits for all of it. */
async function runRate(server, rate, seconds = DURATION_S) {
  const stats = new Stats();
  const pending = [];
  let done = 0;
  let n = Math.floor(Math.random() * 1e9);
  const cpu0 = cpuSeconds(server.pid);
  const started = performance.now();
  const total = Math.round(rate * seconds);
  const checkRate = rate * CHECKS;
  const totalChecks = Math.round(checkRate * seconds);
  let a = 0;
  let c = 0;
  while (a < total || c < totalChecks) {
    const elapsed = (performance.now() - started) / 1000;
    while (a < total && a / rate <= elapsed) {
      pending.push(
        application(server.base, stats, n++).then(
          () => done++,
          () => {},
        ),
      );
      a++;
    }
    while (c < totalChecks && c / checkRate <= elapsed) {
      pending.push(check(server.base, stats).catch(() => {}));
      c++;
    }
    await new Promise((r) => setTimeout(r, 2));
  }
  await Promise.all(pending);
  const cpu = cpuSeconds(server.pid) - cpu0;
  const calls = stats.summary();
  const ok = Object.values(calls).every((s) => s.errors === 0 && s.p99 <= P99_TARGET_MS);
  return {
    rate,
    applications: done,
    cpuSeconds: cpu,
    cpuMsPerApplication: done ? (cpu * 1000) / done : null,
    calls,
    ok,
  };
}

function print(kind, r) {
  console.log(
    `\n${kind}: ${r.rate} applications/s + ${r.rate * CHECKS} checks/s for ${DURATION_S} s: ` +
      `${r.applications} applications, server CPU ${r.cpuSeconds.toFixed(1)} s = ` +
      `${r.cpuMsPerApplication?.toFixed(0)} ms per application (checks included) -> ${r.ok ? 'within target' : 'OVER target'}`,
  );
  for (const [name, s] of Object.entries(r.calls)) {
    console.log(
      `  ${name.padEnd(10)} n=${String(s.n).padStart(6)} errors=${s.errors}${s.errors ? ` ${JSON.stringify(s.errorsBy)}` : ''} p50=${s.p50.toFixed(1)} ms p99=${s.p99.toFixed(1)} ms`,
    );
  }
}

const kinds = values.db === 'both' ? ['sqlite', 'postgres'] : [values.db];
const results = {
  date: new Date().toISOString(),
  loadavg: loadavg(),
  duration: DURATION_S,
  checks: CHECKS,
  runs: {},
};
for (const kind of kinds) {
  const server = await startServer(kind);
  const runs = [];
  try {
    // Warm-up: a few applications.
    await runRate(server, 1, 5).catch(() => {});
    for (const rate of RATES) {
      const r = await runRate(server, rate);
      print(kind, r);
      runs.push(r);
      // Past saturation (errors, or seconds of waiting) higher rates tell nothing more.
      if (Object.values(r.calls).some((c) => c.errors > 0 || c.p99 > 1000)) break;
    }
  } finally {
    await server.stop();
  }
  // The highest rate within target below which every rate tried was within target too.
  const firstMiss = runs.findIndex((r) => !r.ok);
  const best = (firstMiss === -1 ? runs : runs.slice(0, firstMiss)).at(-1);
  console.log(
    `\n${kind}: highest rate within target (every p99 <= ${P99_TARGET_MS} ms, 0 errors): ${best ? `${best.rate} applications/s (+ ${best.rate * CHECKS} checks/s), ${best.cpuMsPerApplication?.toFixed(0)} ms CPU per application` : 'none of the rates tried'}`,
  );
  results.runs[kind] = runs;
}
mkdirSync(join(repo, 'bench/results'), { recursive: true });
const file = join(repo, `bench/results/load-${Date.now()}.json`);
writeFileSync(file, JSON.stringify(results, null, 2));
console.log(
  `\nload average at start ${results.loadavg.map((x) => x.toFixed(1)).join(' ')}; results in ${file}`,
);
