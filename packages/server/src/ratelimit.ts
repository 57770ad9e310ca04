import { ApiError } from './errors.js';

/**
 * A per-client-address limiter for hot public endpoints (the validity check, opened from QR
 * codes) where @fastify/rate-limit's per-request hooks and headers cost more than the endpoint
 * itself (bench/README.md).
 *
 * Sliding window (the weighted two-window counter): a client's count is the requests it made in
 * the current window plus its previous window's count weighted by how much of that window still
 * lies within the last `windowMs`. So no burst fits around a window boundary (a fixed window lets
 * about twice the limit through there). Answered requests count; refused ones do not, so a client
 * that keeps trying gets back in at the limit's rate.
 *
 * Memory: two generations of counters (current and previous window). At each turnover the older
 * generation is dropped whole, so an address not seen for two windows is forgotten without any
 * sweep. Each generation holds at most `maxKeys` addresses: past that the address first seen
 * longest ago in the generation is evicted (forgotten, so it starts afresh: it is never merged
 * with anyone). There is no shared counter: a new client is never refused for others' requests.
 *
 * Per request: one or two Map lookups and a little arithmetic. In-process: with several app
 * processes each counts on its own (the limit is per process), acceptable for a throttle whose
 * job is to make enumeration slow.
 */
export interface RateLimiter {
  /** Throws ApiError 429 RATE_LIMITED with Retry-After when `key` is over the limit. */
  hit(key: string, now?: number): void;
  /** Addresses held (both generations), for tests and diagnostics. */
  readonly size: number;
}

/**
 * `limit` may be a function: it is read at every hit (the validity check's share of a limit that
 * several instances split, instances.ts).
 */
export function createSlidingWindowLimiter(
  limit: number | (() => number),
  windowMs = 60_000,
  maxKeys = 100_000,
): RateLimiter {
  const maxNow = typeof limit === 'number' ? () => limit : limit;
  /** Start of the current window (a multiple of windowMs). */
  let windowStart = Number.NEGATIVE_INFINITY;
  let current = new Map<string, number>();
  let previous = new Map<string, number>();

  const turnOver = (now: number) => {
    const start = now - (now % windowMs);
    if (start === windowStart) return;
    // One window on: the current becomes the previous; more than one: both are history.
    previous = start - windowStart === windowMs ? current : new Map();
    current = new Map();
    windowStart = start;
  };

  return {
    hit(key, now = Date.now()) {
      if (now - windowStart >= windowMs) turnOver(now);
      const cur = current.get(key) ?? 0;
      const prev = previous.get(key) ?? 0;
      const elapsed = now - windowStart;
      // The previous window's share of the last windowMs.
      const weight = (windowMs - elapsed) / windowMs;
      const max = maxNow();
      if (cur + prev * weight >= max) {
        throw new ApiError(429, 'RATE_LIMITED', 'Too many requests: try again later', undefined, {
          'retry-after': String(retryAfterSeconds(cur, prev, elapsed, max, windowMs)),
        });
      }
      if (cur === 0 && current.size >= maxKeys) {
        // Evict the address first seen longest ago in this window (Maps keep insertion order).
        const oldest = current.keys().next().value;
        if (oldest !== undefined) current.delete(oldest);
      }
      current.set(key, cur + 1);
    },
    get size() {
      return current.size + previous.size;
    },
  };
}

/** Whole seconds until one more request fits (only computed on the refusal path). */
function retryAfterSeconds(
  cur: number,
  prev: number,
  elapsed: number,
  max: number,
  windowMs: number,
): number {
  // Within this window the count falls as the previous window's weight falls.
  if (cur < max && prev > 0) {
    // cur + prev * (windowMs - t) / windowMs < max  =>  t > windowMs - (max - cur) * windowMs / prev
    const t = windowMs - ((max - cur) * windowMs) / prev;
    return Math.max(1, Math.ceil((t - elapsed) / 1000) + 1);
  }
  // Next window: cur becomes the previous count, cur * (1 - t' / windowMs) < max after t'.
  const t = windowMs - elapsed + (cur > max ? windowMs * (1 - max / cur) : 0);
  return Math.max(1, Math.ceil(t / 1000));
}
