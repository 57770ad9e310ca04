import { describe, expect, it } from 'vitest';
import { ApiError } from './errors.js';
import { createSlidingWindowLimiter } from './ratelimit.js';

function status(fn: () => void): number | string {
  try {
    fn();
    return 'ok';
  } catch (err) {
    return err instanceof ApiError ? err.statusCode : 'other';
  }
}

/** How many of `n` hits by `key` at `t` were answered. */
function passed(l: { hit(k: string, t: number): void }, key: string, n: number, t: number): number {
  let ok = 0;
  for (let i = 0; i < n; i++) if (status(() => l.hit(key, t)) === 'ok') ok++;
  return ok;
}

describe('sliding-window limiter', () => {
  it('lets max requests through per key, then answers 429 RATE_LIMITED with Retry-After', () => {
    const l = createSlidingWindowLimiter(2, 60_000);
    const t = 120_000 + 15_000; // 15 s into a window
    expect(status(() => l.hit('a', t))).toBe('ok');
    expect(status(() => l.hit('a', t))).toBe('ok');
    expect(status(() => l.hit('b', t))).toBe('ok');
    try {
      l.hit('a', t);
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ApiError);
      expect((err as ApiError).code).toBe('RATE_LIMITED');
      const retry = Number((err as ApiError).headers?.['retry-after']);
      // Both requests fall out of the last minute at 75 s + a minute share of the next window.
      expect(retry).toBeGreaterThanOrEqual(45);
      expect(retry).toBeLessThanOrEqual(61 + 45);
    }
    // Two windows later the address is forgotten.
    expect(status(() => l.hit('a', 240_000))).toBe('ok');
  });

  it('lets no more than the limit (+1) through around a window boundary', () => {
    const max = 60;
    const l = createSlidingWindowLimiter(max, 60_000);
    // A fixed window aligned to the minute let 2 x max through here: max just before the turn,
    // max just after.
    const before = passed(l, 'a', max, 59_900);
    const after = passed(l, 'a', max, 60_100);
    expect(before).toBe(max);
    expect(before + after).toBeLessThanOrEqual(max + 1);
    // Half a window on, about half the limit is free again.
    const half = passed(l, 'a', max, 90_000);
    expect(half).toBeGreaterThanOrEqual(max / 2 - 2);
    expect(half).toBeLessThanOrEqual(max / 2 + 1);
  });

  it('never makes new clients share a counter: past the key cap the oldest address is forgotten', () => {
    const l = createSlidingWindowLimiter(1, 60_000, 100);
    // A flood of 1000 distinct addresses (e.g. spoofed): each one's first request is answered.
    for (let i = 0; i < 1000; i++) expect(status(() => l.hit(`flood-${i}`, 1_000))).toBe('ok');
    // A real client arriving after the flood is answered too (with a shared overflow counter
    // it got 429), and is then limited on its own count.
    expect(status(() => l.hit('real', 1_000))).toBe('ok');
    expect(status(() => l.hit('real', 1_000))).toBe(429);
    // Memory stays bounded.
    expect(l.size).toBeLessThanOrEqual(100);
    // Two windows later both generations are dropped whole: only the newest address is held.
    expect(status(() => l.hit('real', 130_000))).toBe('ok');
    expect(l.size).toBe(1);
  });
});
