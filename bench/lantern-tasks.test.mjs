import { describe, expect, it } from 'vitest';
import { mainThreadTasks } from './lantern-tasks.mjs';

/** A trace of one page's main thread (pid 1, tid 7) and another renderer's (the browser's UI). */
function trace() {
  const X = (name, ts, dur, extra = {}) => ({ name, ph: 'X', pid: 1, tid: 7, ts, dur, ...extra });
  return [
    { name: 'thread_name', ph: 'M', pid: 1, tid: 7, args: { name: 'CrRendererMain' } },
    { name: 'thread_name', ph: 'M', pid: 2, tid: 9, args: { name: 'CrRendererMain' } },
    { name: 'navigationStart', ph: 'R', pid: 1, tid: 7, ts: 1_000_000 },
    // 12 ms of module evaluation that calls 4 ms of style: before the first paint.
    X('RunTask', 1_010_000, 12_000),
    X('v8.evaluateModule', 1_010_500, 11_000),
    X('UpdateLayoutTree', 1_012_000, 4_000),
    // 9 ms: shorter than Lantern keeps.
    X('RunTask', 1_030_000, 9_000),
    X('FunctionCall', 1_030_100, 8_000),
    { name: 'firstContentfulPaint', ph: 'R', pid: 1, tid: 7, ts: 1_040_000 },
    // 20 ms after it: 15 of a timer's call, 5 of layout.
    X('RunTask', 1_050_000, 20_000),
    X('TimerFire', 1_050_000, 15_000),
    X('Layout', 1_065_000, 5_000),
    // The other renderer's long task is not the page's.
    { name: 'RunTask', ph: 'X', pid: 2, tid: 9, ts: 1_050_000, dur: 5_000 },
  ];
}

describe("the tasks Lighthouse's simulated TBT is made of (issue 37)", () => {
  it('keeps the tasks of 10 ms or more of the page, with their time at the multiplier and what they did', () => {
    const { fcpMs, tasks, blockingMs } = mainThreadTasks(trace(), { minMs: 10, cpu: 5 });
    expect(fcpMs).toBe(40);
    expect(tasks.map((k) => [k.atMs, k.ms, k.phoneMs, k.afterFcp])).toEqual([
      [10, 12, 60, false],
      [50, 20, 100, true],
    ]);
    expect(Object.fromEntries(tasks[0].self)).toEqual({ 'v8.evaluateModule': 7, UpdateLayoutTree: 4 });
    expect(Object.fromEntries(tasks[1].self)).toEqual({ TimerFire: 15, Layout: 5 });
    // Only the task after the first paint counts: 100 - 50.
    expect(blockingMs).toBe(50);
  });

  it('keeps the shorter ones when asked', () => {
    expect(mainThreadTasks(trace(), { minMs: 5 }).tasks.map((k) => k.ms)).toEqual([12, 9, 20]);
  });
});
