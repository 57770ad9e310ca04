#!/usr/bin/env node
/**
 * The main thread's tasks while a page loads, as Lighthouse's Total Blocking Time sees them
 * (issue 29). Opens each page in Chromium with the CPU slowed down (`--cpu`, 4 by default),
 * records a performance trace, and lists every top-level task longer than `--min` ms with what
 * it spent its time on (script evaluation, function calls, HTML parsing, style, layout, paint,
 * garbage collection), and the blocking time after the first contentful paint: the sum of each
 * task's time over 50 ms, as TBT counts it.
 *
 *   npm run build && node bench/tasks.mjs [--page /form] [--cpu 4] [--runs 3] [--min 20]
 */
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { CHROMIUM_FLAGS, CHROMIUM_PATH, startPortal } from './lib.mjs';

const { values } = parseArgs({
  options: {
    page: { type: 'string', multiple: true },
    runs: { type: 'string', default: '3' },
    cpu: { type: 'string', default: '4' },
    min: { type: 'string', default: '20' },
  },
});
const PAGES = values.page ?? ['/', '/check', '/stav-zadosti', '/form', '/form?eid=eid'];
const RUNS = Number(values.runs);
const CPU = Number(values.cpu);
const MIN = Number(values.min);

/** What a task's time went to, by the trace event names under it (self time, roughly). */
const KINDS = {
  EvaluateScript: 'script',
  'v8.compile': 'compile',
  'v8.compileModule': 'compile',
  'v8.evaluateModule': 'script',
  FunctionCall: 'script',
  TimerFire: 'script',
  EventDispatch: 'script',
  FireAnimationFrame: 'script',
  RunMicrotasks: 'script',
  ParseHTML: 'parse html',
  ParseAuthorStyleSheet: 'parse css',
  UpdateLayoutTree: 'style',
  Layout: 'layout',
  PrePaint: 'paint',
  Paint: 'paint',
  Layerize: 'paint',
  MinorGC: 'gc',
  MajorGC: 'gc',
  'V8.GC_SCAVENGER': 'gc',
};

function tasksOf(events) {
  const main = events.find((e) => e.name === 'TracingStartedInBrowser')?.args?.data?.frames?.[0];
  const pid = events.find((e) => e.name === 'CrRendererMain' && e.ph === 'M')?.pid;
  const threadOf = new Map();
  for (const e of events)
    if (e.name === 'thread_name' && e.args?.name === 'CrRendererMain') threadOf.set(e.pid, e.tid);
  const fcp = events.find((e) => e.name === 'firstContentfulPaint');
  const tid = fcp ? threadOf.get(fcp.pid) : threadOf.get(pid);
  const pidMain = fcp?.pid ?? pid;
  const onMain = events.filter(
    (e) => e.pid === pidMain && e.tid === tid && e.ph === 'X' && e.dur !== undefined,
  );
  const tops = onMain.filter((e) => e.name === 'RunTask' || e.name === 'ThreadControllerImpl::RunTask');
  const nav = events.find((e) => e.name === 'navigationStart' && e.pid === pidMain)?.ts ?? tops[0]?.ts ?? 0;
  const result = [];
  for (const t of tops) {
    const ms = t.dur / 1000;
    if (ms < MIN) continue;
    const inside = onMain.filter((e) => e !== t && e.ts >= t.ts && e.ts + e.dur <= t.ts + t.dur);
    const by = {};
    for (const e of inside) {
      const k = KINDS[e.name];
      if (!k) continue;
      // Self time: minus the known events directly nested in it.
      const nested = inside.filter(
        (c) => c !== e && KINDS[c.name] && c.ts >= e.ts && c.ts + c.dur <= e.ts + e.dur,
      );
      const childDur = nested
        .filter((c) => !nested.some((p) => p !== c && c.ts >= p.ts && c.ts + c.dur <= p.ts + p.dur))
        .reduce((s, c) => s + c.dur, 0);
      by[k] = (by[k] ?? 0) + (e.dur - childDur) / 1000;
    }
    const url = inside.find((e) => e.name === 'EvaluateScript' || e.name === 'v8.evaluateModule')?.args?.data
      ?.url;
    result.push({ start: (t.ts - nav) / 1000, ms, by, url });
  }
  return { tasks: result, fcp: fcp ? (fcp.ts - nav) / 1000 : null, main };
}

const portal = await startPortal('tasks');
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_FLAGS });
try {
  for (const path of PAGES) {
    const blocking = [];
    console.log(`\n## ${path} (CPU x${CPU})`);
    for (let run = 1; run <= RUNS; run++) {
      const context = await browser.newContext({ viewport: { width: 412, height: 823 } });
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU });
      await browser.startTracing(page, {
        categories: [
          'devtools.timeline',
          'disabled-by-default-devtools.timeline',
          'v8',
          'blink.user_timing',
          'loading',
        ],
      });
      await page.goto(portal.base + path, { waitUntil: 'networkidle' });
      await page.waitForTimeout(1500);
      const buf = await browser.stopTracing();
      await context.close();
      const { tasks, fcp } = tasksOf(JSON.parse(buf.toString()).traceEvents);
      const tbt = tasks
        .filter((t) => fcp !== null && t.start >= fcp)
        .reduce((s, t) => s + Math.max(0, t.ms - 50), 0);
      blocking.push(tbt);
      console.log(`run ${run}: FCP ${fcp?.toFixed(0)} ms, blocking after FCP ${tbt.toFixed(0)} ms`);
      for (const t of tasks) {
        const parts = Object.entries(t.by)
          .sort((a, b) => b[1] - a[1])
          .filter(([, v]) => v >= 1)
          .map(([k, v]) => `${k} ${v.toFixed(0)}`)
          .join(', ');
        const file = t.url ? ` ${t.url.replace(/^.*\//, '')}` : '';
        console.log(`  @${t.start.toFixed(0)} ${t.ms.toFixed(0)} ms: ${parts}${file}`);
      }
    }
    blocking.sort((a, b) => a - b);
    console.log(`median blocking after FCP: ${blocking[Math.floor(blocking.length / 2)].toFixed(0)} ms`);
  }
} finally {
  await browser.close();
  await portal.stop();
}
