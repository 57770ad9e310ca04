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
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { CHROMIUM_FLAGS, CHROMIUM_PATH, startPortal } from './lib.mjs';

const repo = fileURLToPath(new URL('..', import.meta.url));
const dist = join(repo, 'packages/web/dist');
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

// --- source maps: a minimal decoder of the "mappings" field (base64 VLQ) ---
const B64 = Object.fromEntries(
  [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'].map((c, i) => [c, i]),
);
function decodeMappings(mappings) {
  const lines = [];
  let source = 0;
  let srcLine = 0;
  for (const line of mappings.split(';')) {
    const segs = [];
    let col = 0;
    for (const seg of line.split(',')) {
      if (!seg) continue;
      const nums = [];
      let value = 0;
      let shift = 0;
      for (const ch of seg) {
        const digit = B64[ch];
        value += (digit & 31) << shift;
        if (digit & 32) shift += 5;
        else {
          nums.push(value & 1 ? -(value >>> 1) : value >>> 1);
          value = 0;
          shift = 0;
        }
      }
      col += nums[0];
      if (nums.length > 1) {
        source += nums[1];
        srcLine += nums[2];
      }
      segs.push([col, nums.length > 1 ? source : -1, srcLine]);
    }
    lines.push(segs);
  }
  return lines;
}
const maps = new Map();
/** The source file a position of a built asset came from (package name for node_modules). */
function sourceOf(url, line, col, withLine = false) {
  const file = url.replace(/^https?:\/\/[^/]+\//, '').split('?')[0];
  if (!file.startsWith('assets/')) return file || '(page)';
  if (!maps.has(file)) {
    const path = join(dist, `${file}.map`);
    if (!existsSync(path)) maps.set(file, null);
    else {
      const map = JSON.parse(readFileSync(path, 'utf8'));
      maps.set(file, { sources: map.sources, lines: decodeMappings(map.mappings) });
    }
  }
  const map = maps.get(file);
  if (!map) return file;
  const segs = map.lines[line] ?? [];
  let found = -1;
  let foundLine = 0;
  for (const [c, s, l] of segs) {
    if (c > col) break;
    found = s;
    foundLine = l;
  }
  if (found < 0) return withLine ? `${file} (unmapped) ${line}:${col}` : `${file} (unmapped)`;
  const src = map.sources[found].replace(/^(\.\.\/)+/, '');
  if (withLine) return `${src}:${foundLine + 1}`;
  const pkg = src.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
  if (pkg)
    return pkg[1] === 'react-dom' || pkg[1] === 'zod' ? `${pkg[1]} (${src.split('/').at(-1)})` : pkg[1];
  return src;
}

async function profilePage(browser, url) {
  const context = await browser.newContext({ viewport: { width: 412, height: 823 }, isMobile: true });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: Number(values['cpu-throttle']) });
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await page.addInitScript(() => {
    window.__longTasks = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries())
        window.__longTasks.push([Math.round(e.startTime), Math.round(e.duration)]);
    }).observe({ type: 'longtask', buffered: true });
  });
  await cdp.send('Profiler.start');
  await page.goto(url, { waitUntil: 'load' });
  await page.waitForTimeout(Number(values.settle));
  const { profile } = await cdp.send('Profiler.stop');
  const longTasks = await page.evaluate(() => window.__longTasks);
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
    const fn = `${functionName || '(anonymous)'} @ ${u ? sourceOf(u, lineNumber, columnNumber, true) : src}`;
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + us);
  }
  return { bySource, byFunction, longTasks };
}

function add(into, from) {
  for (const [k, v] of from) into.set(k, (into.get(k) ?? 0) + v);
}

async function main() {
  const { base, stop } = await startPortal('profile');
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
      for (let r = 0; r < runs; r++) {
        const p = await profilePage(browser, `${base}${path}`);
        add(bySource, p.bySource);
        add(byFunction, p.byFunction);
        tasks.push(p.longTasks);
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
    }
  } finally {
    await browser.close();
    await stop();
  }
}

await main();
