import type { Kysely } from 'kysely';
import type { Db } from './db/database.js';
import type { Database } from './db/schema.js';

/**
 * The stores @fastify/rate-limit counts per-address limits in: a sliding window, in the database
 * or in memory. Limits hold across several instances on one PostgreSQL database
 * (docs/OPERATIONS.md "Several instances"). Two instances must not double a limit:
 *
 * - The routes guarded by @fastify/rate-limit (search, validate, submit, sign-in, PDF, bot-check
 *   challenges, intake) count in `rate_limit_hits`: one upsert per request, a sliding window made
 *   of the current and the previous fixed window (as ratelimit.ts does in memory). Exact.
 * - The validity check is the hot path (answered from memory in about a millisecond; a database
 *   round trip per check would cost more than the check). Each instance keeps its in-memory
 *   limiter but allows only its share: the limit divided by the live instances, which beat in
 *   `instances` every few seconds (instances.ts). Behind a round-robin balancer a client's checks are spread
 *   evenly, so the whole group allows about the limit; behind a sticky one a client gets a share
 *   only (stricter, never looser).
 *
 * On SQLite (one process) the routes count in memory (MemoryRateLimitStore): the same sliding
 * window, not @fastify/rate-limit's own store, whose window is fixed (issue 21: 1 call at T0, 19
 * at +58 s and 20 at +61 s were 39 answers within a minute against a limit of 20).
 */

type Counter = { current: number; ttl: number };
type Callback = (err: Error | null, res?: Counter) => void;

/** How often a store sweeps windows that ended (every this many hits per process). */
const SWEEP_EVERY = 1000;

/** A @fastify/rate-limit store class over the database (`store:` takes a class). */
export function databaseRateLimitStore(db: Db) {
  const k = db.kysely as Kysely<Database>;
  let hitsSinceSweep = 0;

  return class DatabaseRateLimitStore {
    constructor(
      _options?: unknown,
      readonly prefix = '',
    ) {}

    incr(key: string, cb: Callback, timeWindow: number, max: number): void {
      this.count(`${this.prefix}${key}`, timeWindow, max, true).then(
        (c) => cb(null, c),
        (err: Error) => cb(err),
      );
    }

    read(key: string, cb: Callback, timeWindow: number, max: number): void {
      this.count(`${this.prefix}${key}`, timeWindow, max, false).then(
        (c) => cb(null, c),
        (err: Error) => cb(err),
      );
    }

    async count(key: string, windowMs: number, _max: number, increment: boolean): Promise<Counter> {
      const now = Date.now();
      const start = now - (now % windowMs);
      let current = 0;
      if (increment) {
        const row = await k
          .insertInto('rate_limit_hits')
          .values({ key, window_start: start, hits: 1, expires_at: start + 2 * windowMs })
          .onConflict((oc) =>
            oc
              .columns(['key', 'window_start'])
              .doUpdateSet((eb) => ({ hits: eb('rate_limit_hits.hits', '+', 1) })),
          )
          .returning('hits')
          .executeTakeFirstOrThrow();
        current = Number(row.hits);
        if (++hitsSinceSweep >= SWEEP_EVERY) {
          hitsSinceSweep = 0;
          await k.deleteFrom('rate_limit_hits').where('expires_at', '<', now).execute();
        }
      }
      const rows = await k
        .selectFrom('rate_limit_hits')
        .select(['window_start', 'hits'])
        .where('key', '=', key)
        .where('window_start', 'in', increment ? [start - windowMs] : [start - windowMs, start])
        .execute();
      let previous = 0;
      for (const r of rows) {
        if (Number(r.window_start) === start) current = Number(r.hits);
        else previous = Number(r.hits);
      }
      return slidingCount(current, previous, now, windowMs);
    }

    /** One store per route (@fastify/rate-limit passes the route as `routeInfo`), as its Redis store does. */
    child(routeOptions: unknown) {
      const info = (routeOptions as { routeInfo?: { method?: string; url?: string } }).routeInfo;
      const route = `${info?.method ?? ''} ${info?.url ?? ''}:`;
      return new DatabaseRateLimitStore(undefined, `${this.prefix}${route}`);
    }
  };
}

/**
 * The count over the last windowMs from the current fixed window's count and the previous one's,
 * weighted by how much of the previous window still lies within it (ratelimit.ts explains the
 * weighting), and the time until the current window ends.
 */
function slidingCount(current: number, previous: number, now: number, windowMs: number): Counter {
  const start = now - (now % windowMs);
  const weight = (windowMs - (now - start)) / windowMs;
  return { current: Math.floor(current + previous * weight), ttl: start + windowMs - now };
}

/** Keys a memory store holds per window, at most (the oldest first seen is forgotten past it). */
const MEMORY_MAX_KEYS = 100_000;

/**
 * The same sliding window in memory, for one process (SQLite): per route, two generations of
 * counters (the current and the previous fixed window); at each turnover the older one is
 * dropped whole, so an address not seen for two windows is forgotten without a sweep.
 */
export class MemoryRateLimitStore {
  private windowStart = Number.NEGATIVE_INFINITY;
  private current = new Map<string, number>();
  private previous = new Map<string, number>();

  incr(key: string, cb: Callback, timeWindow: number): void {
    cb(null, this.count(key, timeWindow, true));
  }

  read(key: string, cb: Callback, timeWindow: number): void {
    cb(null, this.count(key, timeWindow, false));
  }

  count(key: string, windowMs: number, increment: boolean): Counter {
    const now = Date.now();
    const start = now - (now % windowMs);
    if (start !== this.windowStart) {
      // One window on: the current becomes the previous; more than one: both are history.
      this.previous = start - this.windowStart === windowMs ? this.current : new Map();
      this.current = new Map();
      this.windowStart = start;
    }
    let current = this.current.get(key) ?? 0;
    if (increment) {
      if (current === 0 && this.current.size >= MEMORY_MAX_KEYS) {
        const oldest = this.current.keys().next().value;
        if (oldest !== undefined) this.current.delete(oldest);
      }
      this.current.set(key, ++current);
    }
    return slidingCount(current, this.previous.get(key) ?? 0, now, windowMs);
  }

  /** One store per route, as the database store. */
  child() {
    return new MemoryRateLimitStore();
  }
}
