import { ApiError } from './errors.js';

/**
 * A fixed-window counter per client address, for hot public endpoints (the validity check,
 * opened from QR codes) where @fastify/rate-limit's per-request hooks and headers cost more
 * than the endpoint itself (bench/README.md). One Map lookup and an increment per request;
 * the whole map is dropped when the window turns over, so memory is bounded by the number of
 * addresses seen in one window (and capped by `maxKeys`: past it, unknown addresses share one
 * counter, so a flood of spoofed addresses is throttled as one client).
 *
 * In-process: with several app processes each process counts on its own (the limit is per
 * process), which is acceptable for a throttle whose job is to make enumeration slow.
 */
export interface FixedWindowLimiter {
  /** Throws ApiError 429 RATE_LIMITED with Retry-After when `key` is over the limit. */
  hit(key: string, now?: number): void;
}

export function createFixedWindowLimiter(
  max: number,
  windowMs = 60_000,
  maxKeys = 100_000,
): FixedWindowLimiter {
  let windowStart = 0;
  let counts = new Map<string, number>();
  const OVERFLOW = '\u0000overflow';
  return {
    hit(key, now = Date.now()) {
      if (now - windowStart >= windowMs) {
        windowStart = now - (now % windowMs);
        counts = new Map();
      }
      const k = counts.size >= maxKeys && !counts.has(key) ? OVERFLOW : key;
      const n = (counts.get(k) ?? 0) + 1;
      counts.set(k, n);
      if (n > max) {
        const retryAfter = Math.max(1, Math.ceil((windowStart + windowMs - now) / 1000));
        throw new ApiError(429, 'RATE_LIMITED', 'Too many requests: try again later', undefined, {
          'retry-after': String(retryAfter),
        });
      }
    },
  };
}
