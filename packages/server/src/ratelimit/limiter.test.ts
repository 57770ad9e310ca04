import { describe, expect, it } from 'vitest';
import { ApiError } from '../errors.js';
import { createSlidingWindowLimiter } from './limiter.js';

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

  it('lets no more than the limit through around a window boundary', () => {
    const max = 60;
    const l = createSlidingWindowLimiter(max, 60_000);
    // A fixed window aligned to the minute let 2 x max through here: max just before the turn,
    // max just after.
    const before = passed(l, 'a', max, 59_900);
    const after = passed(l, 'a', max, 60_100);
    expect(before).toBe(max);
    expect(after).toBe(0);
    // A minute after the burst (and its second) it is free again.
    expect(passed(l, 'a', max, 59_900 + 61_000)).toBe(max);
  });

  /** Answered hits' times: none of the 60 s windows starting at an answered hit holds more than `max`. */
  const mostInAnyMinute = (answered: number[]) =>
    Math.max(...answered.map((a) => answered.filter((b) => b >= a && b < a + 60_000).length));

  it("20 calls in a window's last second, then one a second: at most 20 within any 60 s (issue 33 item 6)", () => {
    const l = createSlidingWindowLimiter(20, 60_000);
    const answered: number[] = [];
    const call = (t: number) => {
      if (status(() => l.hit('a', t)) === 'ok') answered.push(t);
    };
    // The weighted two-window estimate answered 40 of these within 60 s.
    for (let i = 0; i < 20; i++) call(119_000 + i * 40);
    for (let t = 120_000; t < 400_000; t += 1000) call(t);
    expect(answered.length).toBeGreaterThan(20);
    expect(mostInAnyMinute(answered)).toBe(20);
  });

  it('holds for any pattern of calls (random times), and answers a client that keeps under the rate', () => {
    let seed = 33;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (let run = 0; run < 20; run++) {
      const l = createSlidingWindowLimiter(20, 60_000);
      const answered: number[] = [];
      let t = Math.floor(random() * 120_000);
      for (let i = 0; i < 300; i++) {
        t += Math.floor(random() ** 3 * 5000);
        if (status(() => l.hit('a', t)) === 'ok') answered.push(t);
      }
      expect(mostInAnyMinute(answered)).toBeLessThanOrEqual(20);
    }
    // 20 a minute with a little room (one every 3.1 s): never refused.
    const l = createSlidingWindowLimiter(20, 60_000);
    for (let i = 0; i < 200; i++) expect(status(() => l.hit('b', 7_000 + i * 3100))).toBe('ok');
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
