#!/usr/bin/env node
/**
 * The tasks Lighthouse's simulated Total Blocking Time is made of, and what ran in them (issue 37).
 * Reads a load gathered by `node bench/lighthouse.mjs --keep-gather` (bench/results/gather-*: the
 * unthrottled trace Lighthouse simulates the phone on) and lists every top-level task of the
 * page's main thread of at least `--min` ms (10 by default: Lantern, the simulator, drops the
 * shorter ones from its graph, PageDependencyGraph's SIGNIFICANT_DUR_THRESHOLD_MS), with its time
 * at the phone's multiplier (`--cpu`), whether it comes after the first contentful paint (TBT
 * counts only those), what its time went to (trace event names, self time) and which of the app's
 * functions it called (their source, from the build's source maps).
 *
 *   node bench/lantern-tasks.mjs bench/results/gather-form-prefilled-… [--cpu 7] [--min 10]
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { frameLabel, isAppFrame } from './sourcemaps.mjs';

/** The events under a task that say what its time went to. */
const KINDS = new Set([
  'EvaluateScript',
  'v8.evaluateModule',
  'v8.compile',
  'v8.compileModule',
  'FunctionCall',
  'TimerFire',
  'EventDispatch',
  'FireAnimationFrame',
  'RunMicrotasks',
  'ParseHTML',
  'ParseAuthorStyleSheet',
  'UpdateLayoutTree',
  'Layout',
  'PrePaint',
  'Paint',
  'Layerize',
  'MinorGC',
  'MajorGC',
  'V8.GC_SCAVENGER',
  'HitTest',
]);
/** The script events among them (their outermost call is the task's call). */
const SCRIPT = new Set(['FunctionCall', 'EvaluateScript', 'v8.evaluateModule']);

/**
 * The CPU profile's samples on the main thread (recorded when the load was kept), each as [time,
 * the app's own frame nearest it (or the library's, or the browser's)], in time order.
 */
function profileSamples(events, main) {
  const out = [];
  const profiles = events.filter((e) => e.name === 'Profile' && `${e.pid}:${e.tid}` === main);
  for (const profile of profiles) {
    const nodes = new Map();
    let t = profile.args.data.startTime;
    for (const chunk of events.filter(
      (e) => e.name === 'ProfileChunk' && e.id === profile.id && e.pid === profile.pid,
    )) {
      const data = chunk.args.data;
      for (const node of data.cpuProfile?.nodes ?? []) nodes.set(node.id, node);
      const ids = data.cpuProfile?.samples ?? [];
      ids.forEach((id, j) => {
        t += data.timeDeltas[j] ?? 0;
        out.push([t, id]);
      });
    }
    const named = new Map();
    const leafOf = (id) => {
      const f = nodes.get(id)?.callFrame;
      return f?.url ? frameLabel(f) : `(${f?.functionName || 'browser'})`;
    };
    const frameOf = (id) => {
      if (named.has(id)) return named.get(id);
      let found;
      let first;
      for (let cur = nodes.get(id); cur && !found; cur = nodes.get(cur.parent)) {
        if (!cur.callFrame.url) continue;
        const where = frameLabel(cur.callFrame);
        first ??= where;
        if (isAppFrame(where)) found = where;
      }
      const name = found ?? first ?? `(${nodes.get(id)?.callFrame.functionName || 'browser'})`;
      named.set(id, name);
      return name;
    };
    for (const sample of out) {
      if (sample.length !== 2) continue;
      sample.push(leafOf(sample[1]));
      sample[1] = frameOf(sample[1]);
    }
  }
  return out.sort((a, b) => a[0] - b[0]);
}

/**
 * The page's main-thread tasks of a Lighthouse trace (its events), as the simulated TBT sees them:
 * every top-level task of at least `minMs`, with its time at `cpu`x, whether it started after the
 * first contentful paint, its time by kind of work (self time of the trace events under it), the
 * calls it made (the outermost script calls) and, when the trace has the CPU profile's samples,
 * the share of its samples by the app's nearest frame ("for") and by function ("in").
 */
export function mainThreadTasks(events, { minMs = 10, cpu = 1 } = {}) {
  const threads = events.filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  const key = (e) => `${e.pid}:${e.tid}`;
  // The page's main thread: the renderer main thread that ran the most.
  const busy = new Map();
  for (const e of events)
    if (e.name === 'RunTask' && e.ph === 'X' && threads.some((t) => t.pid === e.pid && t.tid === e.tid))
      busy.set(key(e), (busy.get(key(e)) ?? 0) + e.dur);
  const [main] = [...busy].sort((a, b) => b[1] - a[1])[0] ?? [];
  if (!main) throw new Error('no renderer main thread with tasks in the trace');
  const onMain = events
    .filter((e) => key(e) === main && e.ph === 'X' && e.dur !== undefined)
    .sort((a, b) => a.ts - b.ts || b.dur - a.dur);
  const nav = events.find((e) => e.name === 'navigationStart' && key(e) === main);
  const fcp = events.find((e) => e.name === 'firstContentfulPaint' && key(e) === main);
  const t0 = nav?.ts ?? onMain[0].ts;
  const all = [];
  let current;
  const stack = [];
  for (const e of onMain) {
    if (e.name === 'RunTask' && (!current || e.ts >= current.ts + current.dur)) {
      current = { ts: e.ts, dur: e.dur, self: new Map(), calls: new Map(), app: new Map(), leaf: new Map() };
      all.push(current);
      stack.length = 0;
      continue;
    }
    if (!current || e.ts >= current.ts + current.dur) continue;
    while (stack.length && e.ts >= stack.at(-1).ts + stack.at(-1).dur) stack.pop();
    if (!KINDS.has(e.name)) continue;
    const parent = stack.at(-1);
    current.self.set(e.name, (current.self.get(e.name) ?? 0) + e.dur);
    if (parent) current.self.set(parent.name, (current.self.get(parent.name) ?? 0) - e.dur);
    if (SCRIPT.has(e.name) && !(parent && SCRIPT.has(parent.name))) {
      const d = e.args?.data ?? {};
      const where = d.url
        ? frameLabel({
            url: d.url,
            lineNumber: d.lineNumber ?? 0,
            columnNumber: d.columnNumber ?? 0,
            functionName: d.functionName || '(script)',
          })
        : e.name;
      current.calls.set(where, (current.calls.get(where) ?? 0) + e.dur);
    }
    stack.push(e);
  }
  let i = 0;
  for (const [ts, frame, leaf] of profileSamples(events, main)) {
    while (i < all.length && ts > all[i].ts + all[i].dur) i++;
    if (i >= all.length) break;
    if (ts < all[i].ts) continue;
    all[i].app.set(frame, (all[i].app.get(frame) ?? 0) + 1);
    all[i].leaf.set(leaf, (all[i].leaf.get(leaf) ?? 0) + 1);
  }
  const fcpMs = fcp ? (fcp.ts - t0) / 1000 : undefined;
  const ms = (us) => us / 1000;
  const byValue = (m) => [...m].sort((a, b) => b[1] - a[1]);
  const shares = (m) => {
    const n = [...m.values()].reduce((a, b) => a + b, 0);
    return byValue(m).map(([k, v]) => [k, v / n]);
  };
  const tasks = all
    .filter((k) => k.dur >= minMs * 1000 && k.ts >= t0)
    .map((k) => {
      const atMs = ms(k.ts - t0);
      return {
        atMs,
        ms: ms(k.dur),
        phoneMs: ms(k.dur) * cpu,
        afterFcp: fcpMs === undefined || atMs >= fcpMs,
        self: byValue(k.self).map(([n, v]) => [n, ms(v)]),
        calls: byValue(k.calls).map(([n, v]) => [n, ms(v)]),
        app: shares(k.app),
        leaf: shares(k.leaf),
      };
    });
  const blockingMs = tasks.filter((k) => k.afterFcp).reduce((sum, k) => sum + Math.max(0, k.phoneMs - 50), 0);
  return { fcpMs, tasks, blockingMs };
}

function print(dir, CPU, MIN_MS) {
  const trace = JSON.parse(readFileSync(join(dir, 'defaultPass.trace.json'), 'utf8'));
  const { fcpMs, tasks, blockingMs } = mainThreadTasks(trace.traceEvents ?? trace, {
    minMs: MIN_MS,
    cpu: CPU,
  });
  console.log(`\n## ${dir}\nsamples: "for" the app's own frame nearest each, "in" the function itself`);
  console.log(`FCP (unthrottled) at ${fcpMs?.toFixed(0)} ms; tasks of ${MIN_MS} ms or more:`);
  for (const k of tasks) {
    const self = k.self
      .filter(([, v]) => v >= 0.3)
      .map(([n, v]) => `${n} ${v.toFixed(1)}`)
      .join(', ');
    console.log(
      `- at ${k.atMs.toFixed(0)} ms: ${k.ms.toFixed(1)} ms (${k.phoneMs.toFixed(0)} ms at ${CPU}x)${k.afterFcp ? '' : ' before FCP'}: ${self}`,
    );
    for (const [f, v] of k.calls.slice(0, 3)) console.log(`    ${v.toFixed(1)} ms ${f}`);
    for (const [what, list] of [
      ['for', k.app],
      ['in', k.leaf],
    ])
      for (const [f, share] of list.slice(0, 5))
        if (share >= 0.05) console.log(`      ${Math.round(100 * share)}% of samples ${what} ${f}`);
  }
  console.log(
    `blocking after FCP at ${CPU}x, each task's time over 50 ms (not simulated): ${blockingMs.toFixed(0)} ms`,
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { cpu: { type: 'string', default: '1' }, min: { type: 'string', default: '10' } },
  });
  for (const dir of positionals) print(dir, Number(values.cpu), Number(values.min));
}
