/**
 * The simulated phone, the same on every host (issue 37).
 *
 * Lighthouse's CPU slowdown is relative to the machine that runs it: "4x" on a fast desktop and on
 * a slow shared VM are two different phones. Lighthouse measures the host in every run
 * (`environment.benchmarkIndex`, "CPU/Memory Power") and documents how to turn that index into the
 * multiplier that lands on its mid-tier mobile device: the Lighthouse CPU throttling calculator
 * linked from its docs/throttling.md ("Calibrating the CPU slowdown"), a piecewise-linear map
 * through the points 150 → 1x, 800 → 2x, 1300 → 3x, 1533 → 4x, 1766 → 5x, 2000 → 6x.
 *
 * The two devices of the budgets:
 * - `mid`: Lighthouse's mid-tier mobile (a Moto G4-class phone), the calculator's multiplier;
 * - `low`: an inexpensive phone several years old, Lighthouse's low-end mobile: the docs' table
 *   puts it at 2x the mid-tier phone ("Mid-Tier Mobile → Low-End Mobile: 2x").
 */

/** The calculator's points: [benchmark index, multiplier that emulates the mid-tier phone]. */
const MID_TIER_POINTS = [
  [150, 1],
  [800, 2],
  [1300, 3],
];
/** Above 1300 the calculator adds 1x per 233 index points (1533 → 4x, 2000 → 6x). */
const MID_TIER_STEP_ABOVE_1300 = 233;
/** The docs' table: a low-end phone is 2x slower than the mid-tier one. */
const LOW_END_OVER_MID_TIER = 2;

export const DEVICES = {
  mid: 'a mid-range phone (Lighthouse mid-tier mobile)',
  low: 'an inexpensive phone several years old (Lighthouse low-end mobile)',
};

/**
 * The CPU slowdown that makes a host of `benchmarkIndex` emulate `device` ('mid' | 'low').
 * A host slower than the calculator's floor (index 150) cannot emulate the mid-tier phone: it
 * answers 1x and says so (`tooSlow`). Rounded to two decimals, as the calculator shows it.
 */
export function cpuMultiplier(benchmarkIndex, device = 'mid') {
  if (!Number.isFinite(benchmarkIndex) || benchmarkIndex <= 0) {
    throw new Error(`no benchmark index to calibrate from (${benchmarkIndex})`);
  }
  let mid;
  const [floor] = MID_TIER_POINTS[0];
  const [top, topMultiplier] = MID_TIER_POINTS.at(-1);
  if (benchmarkIndex < floor) mid = 1;
  else if (benchmarkIndex >= top) mid = topMultiplier + (benchmarkIndex - top) / MID_TIER_STEP_ABOVE_1300;
  else {
    const i = MID_TIER_POINTS.findIndex(([bi]) => bi > benchmarkIndex);
    const [bi0, m0] = MID_TIER_POINTS[i - 1];
    const [bi1, m1] = MID_TIER_POINTS[i];
    mid = m0 + ((benchmarkIndex - bi0) / (bi1 - bi0)) * (m1 - m0);
  }
  const multiplier = device === 'low' ? mid * LOW_END_OVER_MID_TIER : mid;
  return { multiplier: Math.round(multiplier * 100) / 100, tooSlow: benchmarkIndex < floor };
}

/**
 * The other way (`--calibration reference`, bench/reference.mjs): a phone's time for a fixed
 * workload of the app's kind is a constant, so the multiplier is that time over the host's (its
 * median over the whole bench run). The phone is the calculator's own, taken where the calculator
 * is fitted: a host of index 1,300 emulates the mid-tier phone at 3x, so that phone is worth an
 * index of about 1,300 / 3 = 433. The workload's time times the index is what stays put on a host
 * (measured 2026-12-04 on a quiet 2-vCPU machine of this kind, 50-100 pairs of the workload's
 * median of 3 and Lighthouse's index each, three batches: median products 168,919, 177,109 and
 * 175,397 ms·index, while the index alone moved 1,800-2,833 and the workload 55-94 ms), so the
 * mid-tier phone's time for the workload is 175,400 / 433 ≈ 405 ms; the low-end phone is twice
 * that (the docs' table, as above).
 */
export const REFERENCE_PHONE_MS = { mid: 405, low: 2 * 405 };

/**
 * The CPU slowdown that makes a host whose median time for the reference workload is `hostMs`
 * emulate `device`. A host slower than the phone answers 1x and says so (`tooSlow`).
 */
export function referenceMultiplier(hostMs, device = 'mid') {
  if (!Number.isFinite(hostMs) || hostMs <= 0) {
    throw new Error(`no reference time to calibrate from (${hostMs})`);
  }
  const phoneMs = REFERENCE_PHONE_MS[device];
  if (phoneMs === undefined) throw new Error(`no such device: ${device}`);
  const multiplier = phoneMs / hostMs;
  return { multiplier: Math.max(1, Math.round(multiplier * 100) / 100), tooSlow: multiplier < 1 };
}
