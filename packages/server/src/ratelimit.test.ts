import { describe, expect, it } from 'vitest';
import { ApiError } from './errors.js';
import { createFixedWindowLimiter } from './ratelimit.js';

function status(fn: () => void): number | string {
  try {
    fn();
    return 'ok';
  } catch (err) {
    return err instanceof ApiError ? err.statusCode : 'other';
  }
}

describe('fixed-window limiter', () => {
  it('lets max requests through per key and window, then answers 429 with Retry-After', () => {
    const l = createFixedWindowLimiter(2, 60_000);
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
      expect((err as ApiError).headers?.['retry-after']).toBe('45');
    }
    // The next window starts afresh.
    expect(status(() => l.hit('a', 180_000))).toBe('ok');
  });

  it('puts addresses beyond the key cap into one shared counter', () => {
    const l = createFixedWindowLimiter(1, 60_000, 2);
    expect(status(() => l.hit('a', 0))).toBe('ok');
    expect(status(() => l.hit('b', 0))).toBe('ok');
    expect(status(() => l.hit('c', 0))).toBe('ok'); // first in the overflow counter
    expect(status(() => l.hit('d', 0))).toBe(429); // shares it with c
    expect(status(() => l.hit('a', 0))).toBe(429); // a keeps its own count
  });
});
