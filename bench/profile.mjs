#!/usr/bin/env node
/**
 * What runs while a page loads (issue 14: "profile the page, don't guess"). Starts the built
 * server (as bench/lighthouse.mjs: production mode, fresh SQLite, no demo data), opens each page
 * in Chromium (playwright-core) with the CPU slowed down 4x (Lighthouse's mobile preset), records
 * a CPU profile (CDP `Profiler`) from before the navigation until the page has been quiet for
 * `--settle` ms, and adds up the self time of every sampled function by the source it came from
 * (the build's source maps, packages/web/dist/assets/*.map): which package or app module the
 * main thread spent its time in, and the longest tasks.
 *
 *   npm run build && node bench/profile.mjs [--page /form] [--runs 3] [--top 25]
 *
 * `--page /prefilled` is the form prefilled by a search, as bench/lighthouse.mjs measures it: the
 * tab searches the demo person Štěpán Dvořák through the search step (unthrottled, not profiled),
 * which leaves the draft of step 2 in its sessionStorage, and the profile is of the reload.
 */
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { CHROMIUM_FLAGS, CHROMIUM_PATH, startPortal } from './lib.mjs';
import { frameLabel, isAppFrame, sourceOf } from './sourcemaps.mjs';

const { values } = parseArgs({
  options: {
    page: { type: 'string', multiple: true },
    runs: { type: 'string', default: '3' },
    top: { type: 'string', default: '25' },
    settle: { type: 'string', default: '3000' },
    'cpu-throttle': { type: 'string', default: '4' },
  },
});
const PAGES = values.page ?? ['/', '/check', '/form', '/form?eid=eid'];

/** The search step filled as a user would, for the demo person: step 2 opens prefilled. */
async function searchDemoPerson(page, formUrl) {
  await page.goto(formUrl, { waitUntil: 'load' });
  await page.fill('#first_name', 'Štěpán');
  await page.fill('#last_name', 'Dvořák');
  await page.waitForSelector('#type option[value="OP_CR"]', { state: 'attached' });
  await page.selectOption('#type', 'OP_CR');
  await page.fill('#number', '123456789');
  await page.click('[data-testid="search-submit"]');
  const next = page.locator('[data-testid="finish"], [data-testid="early-refusal-continue"]').first();
  await next.waitFor({ timeout: 120_000 });
  const early = page.getByTestId('early-refusal-continue');
  if (await early.count()) await early.click();
  await page.getByTestId('finish').waitFor({ timeout: 120_000 });
}

async function profilePage(browser, url) {
  const context = await browser.newContext({ viewport: { width: 412, height: 823 }, isMobile: true });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Performance.enable', { timeDomain: 'timeTicks' });
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await page.addInitScript(() => {
    window.__longTasks = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries())
        window.__longTasks.push([Math.round(e.startTime), Math.round(e.duration)]);
    }).observe({ type: 'longtask', buffered: true });
  });
  const prefilled = url.endsWith('/prefilled');
  if (prefilled) await searchDemoPerson(page, url.replace(/\/prefilled$/, '/form'));
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: Number(values['cpu-throttle']) });
  await cdp.send('Profiler.start');
  if (prefilled) await page.reload({ waitUntil: 'load' });
  else await page.goto(url, { waitUntil: 'load' });
  await page.waitForTimeout(Number(values.settle));
  const { profile } = await cdp.send('Profiler.stop');
  const longTasks = await page.evaluate(() => window.__longTasks);
  // The navigation's start on the profile's clock (both are the browser's monotonic time), so a
  // long task's [start, start + duration] (performance.now()) finds its samples.
  const { metrics } = await cdp.send('Performance.getMetrics');
  const navStartUs = (metrics.find((m) => m.name === 'NavigationStart')?.value ?? 0) * 1e6;
  await context.close();
  // Self time per node: samples x interval.
  const dt = new Map();
  for (let i = 0; i < profile.samples.length; i++) {
    const id = profile.samples[i];
    dt.set(id, (dt.get(id) ?? 0) + (profile.timeDeltas[i + 1] ?? 0));
  }
  const bySource = new Map();
  const byFunction = new Map();
  for (const node of profile.nodes) {
    const us = dt.get(node.id) ?? 0;
    if (!us) continue;
    const { url: u, lineNumber, columnNumber, functionName } = node.callFrame;
    const src = u ? sourceOf(u, lineNumber, columnNumber) : `(${functionName || 'native'})`;
    bySource.set(src, (bySource.get(src) ?? 0) + us);
    const fn = frameLabel(node.callFrame);
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + us);
  }
  return { bySource, byFunction, longTasks, stretches: taskBreakdown(profile, longTasks, navStartUs) };
}

/**
 * What ran in each long task: the profile's samples whose time falls in the task (the long-task
 * entry's start and duration, on the navigation's clock), as the functions that took most of it
 * and the app's own frame nearest each sample (web or domain source: which of our components or
 * functions the work was done for, whatever library did it).
 */
function taskBreakdown(profile, longTasks, navStartUs) {
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const frameOf = (n) => frameLabel(n.callFrame);
  const appFrame = new Map();
  const appOf = (id) => {
    if (appFrame.has(id)) return appFrame.get(id);
    let cur = id;
    let found = '(no app frame: the library itself, the browser)';
    while (cur !== undefined) {
      const f = frameOf(nodes.get(cur));
      if (isAppFrame(f)) {
        found = f;
        break;
      }
      cur = parent.get(cur);
    }
    appFrame.set(id, found);
    return found;
  };
  const tasks = longTasks.map(([start, ms]) => ({ start, ms, fns: new Map(), app: new Map() }));
  let t = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    t += profile.timeDeltas[i] ?? 0;
    const at = (t - navStartUs) / 1000;
    const task = tasks.find((k) => at >= k.start && at <= k.start + k.ms);
    if (!task) continue;
    const node = nodes.get(profile.samples[i]);
    const step = profile.timeDeltas[i + 1] ?? 0;
    const fn = frameOf(node);
    task.fns.set(fn, (task.fns.get(fn) ?? 0) + step);
    const app = appOf(node.id);
    task.app.set(app, (task.app.get(app) ?? 0) + step);
  }
  const top = (m, n, sep) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([k, v]) => `${(v / 1000).toFixed(1)} ms ${sep}${k}`);
  return tasks.map((k) => ({ start: k.start, ms: k.ms, top: top(k.fns, 8, ''), app: top(k.app, 8, 'for ') }));
}

function add(into, from) {
  for (const [k, v] of from) into.set(k, (into.get(k) ?? 0) + v);
}

async function main() {
  // The demo people: the prefilled form searches one.
  const { base, stop } = await startPortal('profile', { ROS_DEMO_DATA: 'true' });
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: CHROMIUM_FLAGS,
  });
  try {
    const runs = Number(values.runs);
    for (const path of PAGES) {
      const bySource = new Map();
      const byFunction = new Map();
      const tasks = [];
      const stretches = [];
      for (let r = 0; r < runs; r++) {
        const p = await profilePage(browser, `${base}${path}`);
        add(bySource, p.bySource);
        add(byFunction, p.byFunction);
        tasks.push(p.longTasks);
        stretches.push(p.stretches);
      }
      const ms = (us) => (us / 1000 / runs).toFixed(1);
      const total = [...bySource.values()].reduce((a, b) => a + b, 0);
      console.log(
        `\n## ${path}: main-thread samples per run ${ms(total)} ms (CPU x${values['cpu-throttle']}, ${runs} runs)`,
      );
      console.log('| source | self ms |\n|---|---:|');
      for (const [k, v] of [...bySource]
        .filter(([k]) => k !== '(idle)')
        .sort((a, b) => b[1] - a[1])
        .slice(0, Number(values.top))) {
        console.log(`| ${k} | ${ms(v)} |`);
      }
      console.log('top functions:');
      for (const [k, v] of [...byFunction]
        .filter(([k]) => !k.startsWith('(idle)'))
        .sort((a, b) => b[1] - a[1])
        .slice(0, 15)) {
        console.log(`  ${ms(v)} ms  ${k}`);
      }
      console.log(`long tasks [start, ms] per run: ${tasks.map((t) => JSON.stringify(t)).join(' | ')}`);
      stretches.forEach((run, r) => {
        console.log(`long tasks of run ${r + 1}, what ran in them:`);
        for (const s of run)
          console.log(
            `  at ${s.start} ms, ${s.ms} ms:\n    ${s.top.join('\n    ')}\n    by app frame:\n      ${s.app.join('\n      ')}`,
          );
      });
    }
  } finally {
    await browser.close();
    await stop();
  }
}

await main();
