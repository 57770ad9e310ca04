import { ApiError } from '../errors.js';

/**
 * Per-client limits counted over an exact sliding minute, in memory (issue 33 item 6).
 *
 * Hits are counted in one-second slots. A client's count is the sum of its slots of the last
 * `windowMs / 1000 + 1` seconds (61 for a minute): two hits less than a minute apart always lie
 * within 61 slots of each other, so no 60 s anywhere hold more than the limit (the weighted
 * two-window estimate this replaces let 2× through: 20 calls in a window's last second, then one
 * a second, gave 40 within 60 s). A hit is remembered between 60 and 61 s: stricter by up to a
 * second, never looser.
 *
 * `SlidingCounts` is the counting; `createSlidingWindowLimiter` the lean limiter of the hot public
 * routes (the validity check, the status page), where @fastify/rate-limit's per-request hooks and
 * headers cost more than the route: answered requests count, refused ones do not, so a client that
 * keeps trying gets back in at the limit's rate. `MemoryRateLimitStore` (ratelimit/stores.ts) counts
 * with the same class for @fastify/rate-limit on SQLite.
 *
 * Memory: per client at most one entry per second that had hits (61 at most, fewer than the
 * limit's worth). Clients live in two generations of a window's length each: a client is moved to
 * the current one when seen, and the older generation is dropped whole at each turnover, so an
 * address not seen for a whole window is forgotten without any sweep. Each generation holds at most
 * `maxKeys` addresses: past that the address first seen longest ago in the generation is evicted
 * (forgotten, so it starts afresh: never merged with anyone). There is no shared counter: a new
 * client is never refused for others' requests.
 */
export const SLOT_MS = 1000;

interface Entry {
  /** Slot numbers (time / SLOT_MS) with hits, ascending. */
  slots: number[];
  counts: number[];
  total: number;
}

export class SlidingCounts {
  /** Slots counted: the window's seconds and the one it started in. */
  private readonly span: number;
  private generationStart = Number.NEGATIVE_INFINITY;
  private current = new Map<string, Entry>();
  private previous = new Map<string, Entry>();

  constructor(
    readonly windowMs = 60_000,
    private readonly maxKeys = 100_000,
  ) {
    this.span = Math.ceil(windowMs / SLOT_MS) + 1;
  }

  /** The client's hits over the last window (its entry made current, its old slots dropped). */
  count(key: string, now: number): number {
    return this.entry(key, now)?.total ?? 0;
  }

  /** Counts one hit of `key` at `now`; returns the new count. */
  add(key: string, now: number): number {
    const slot = Math.floor(now / SLOT_MS);
    let e = this.entry(key, now);
    if (!e) {
      if (this.current.size >= this.maxKeys) {
        // Evict the address first seen longest ago in this generation (Maps keep insertion order).
        const oldest = this.current.keys().next().value;
        if (oldest !== undefined) this.current.delete(oldest);
      }
      e = { slots: [], counts: [], total: 0 };
      this.current.set(key, e);
    }
    const last = e.slots.length - 1;
    if (e.slots[last] === slot) e.counts[last] = (e.counts[last] ?? 0) + 1;
    else {
      e.slots.push(slot);
      e.counts.push(1);
    }
    return ++e.total;
  }

  /** Milliseconds until the client's count is below `max` again (0 when it is). */
  msUntilBelow(key: string, max: number, now: number): number {
    const e = this.entry(key, now);
    if (!e || e.total < max) return 0;
    let left = e.total;
    for (let i = 0; i < e.slots.length; i++) {
      left -= e.counts[i] ?? 0;
      if (left < max) return ((e.slots[i] ?? 0) + this.span) * SLOT_MS - now;
    }
    return this.span * SLOT_MS;
  }

  /** Addresses held (both generations), for tests and diagnostics. */
  get size(): number {
    return this.current.size + this.previous.size;
  }

  private entry(key: string, now: number): Entry | undefined {
    const generationMs = this.span * SLOT_MS;
    if (now - this.generationStart >= generationMs) {
      // One generation on: the current becomes the previous; more than one: both are history.
      const start = now - (now % generationMs);
      this.previous = start - this.generationStart === generationMs ? this.current : new Map();
      this.current = new Map();
      this.generationStart = start;
    }
    let e = this.current.get(key);
    if (!e) {
      e = this.previous.get(key);
      if (!e) return undefined;
      this.previous.delete(key);
      this.current.set(key, e);
    }
    const oldest = Math.floor(now / SLOT_MS) - this.span + 1;
    let drop = 0;
    while (drop < e.slots.length && (e.slots[drop] ?? 0) < oldest) e.total -= e.counts[drop++] ?? 0;
    if (drop > 0) {
      e.slots.splice(0, drop);
      e.counts.splice(0, drop);
    }
    return e;
  }
}

export interface RateLimiter {
  /** Throws ApiError 429 RATE_LIMITED with Retry-After when `key` is over the limit. */
  hit(key: string, now?: number): void;
  /** Addresses held, for tests and diagnostics. */
  readonly size: number;
}

/**
 * The lean limiter. `limit` may be a function: it is read at every hit (the share of a limit that
 * several instances split, instances.ts).
 */
export function createSlidingWindowLimiter(
  limit: number | (() => number),
  windowMs = 60_000,
  maxKeys = 100_000,
): RateLimiter {
  const maxNow = typeof limit === 'number' ? () => limit : limit;
  const counts = new SlidingCounts(windowMs, maxKeys);
  return {
    hit(key, now = Date.now()) {
      const max = maxNow();
      if (counts.count(key, now) >= max) {
        const seconds = Math.max(1, Math.ceil(counts.msUntilBelow(key, max, now) / 1000));
        throw new ApiError(429, 'RATE_LIMITED', 'Too many requests: try again later', undefined, {
          'retry-after': String(seconds),
        });
      }
      counts.add(key, now);
    },
    get size() {
      return counts.size;
    },
  };
}
