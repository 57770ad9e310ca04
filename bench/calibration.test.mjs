import { describe, expect, it } from 'vitest';
import { cpuMultiplier, REFERENCE_PHONE_MS, referenceMultiplier } from './calibration.mjs';

describe('the simulated phone, calibrated to the host (issue 37)', () => {
  it("lands on the points of Lighthouse's CPU throttling calculator", () => {
    // The calculator's documented points (bench/calibration.mjs).
    for (const [index, multiplier] of [
      [150, 1],
      [800, 2],
      [1300, 3],
      [1533, 4],
      [2000, 6],
    ]) {
      expect(cpuMultiplier(index, 'mid').multiplier).toBeCloseTo(multiplier, 1);
    }
    // Between points, the line through them: 1050 is halfway from 800 (2x) to 1300 (3x).
    expect(cpuMultiplier(1050, 'mid').multiplier).toBe(2.5);
  });

  it('gives a slower host a smaller multiplier, so the phone stays the same', () => {
    const slow = cpuMultiplier(1200, 'mid').multiplier;
    const fast = cpuMultiplier(2400, 'mid').multiplier;
    expect(slow).toBeLessThan(fast);
    // The same work, simulated: the host's time per unit of work times the multiplier is constant
    // only roughly, but a twice-as-fast host needs more than 1.5x the slowdown here.
    expect(fast / slow).toBeGreaterThan(1.5);
  });

  it('makes the low-end phone twice as slow as the mid-range one (Lighthouse docs table)', () => {
    expect(cpuMultiplier(1300, 'low').multiplier).toBe(6);
    expect(cpuMultiplier(1766, 'low').multiplier).toBe(2 * cpuMultiplier(1766, 'mid').multiplier);
  });

  it('says when the host is too slow to emulate the phone, and refuses a missing index', () => {
    expect(cpuMultiplier(100, 'mid')).toEqual({ multiplier: 1, tooSlow: true });
    expect(() => cpuMultiplier(undefined)).toThrow(/benchmark index/);
  });

  describe('by the reference workload', () => {
    it("gives the multiplier that makes the host take the phone's time", () => {
      // A host twice as fast needs twice the slowdown: the phone's time stays the same.
      const slow = referenceMultiplier(150, 'mid').multiplier;
      const fast = referenceMultiplier(75, 'mid').multiplier;
      expect(fast).toBeCloseTo(2 * slow, 1);
      expect(fast * 75).toBeCloseTo(REFERENCE_PHONE_MS.mid, -1);
      expect(referenceMultiplier(75, 'low').multiplier).toBeCloseTo(2 * fast, 1);
    });

    it('says when the host is slower than the phone, and refuses a missing time', () => {
      expect(referenceMultiplier(REFERENCE_PHONE_MS.mid * 2, 'mid')).toEqual({
        multiplier: 1,
        tooSlow: true,
      });
      expect(() => referenceMultiplier(Number.NaN)).toThrow(/reference time/);
      expect(() => referenceMultiplier(50, 'tablet')).toThrow(/device/);
    });
  });
});
