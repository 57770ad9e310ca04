import { type Kysely, sql } from 'kysely';
import type { Db } from '../db/database.js';
import type { Database } from '../db/schema.js';
import { SLOT_MS, SlidingCounts } from './limiter.js';

/**
 * The stores @fastify/rate-limit counts per-address limits in: an exact sliding minute of
 * one-second slots (ratelimit/limiter.ts explains the slots), in the database or in memory. Limits hold
 * across several instances on one PostgreSQL database (docs/OPERATIONS.md "Several instances").
 * Two instances must not double a limit:
 *
 * - The routes guarded by @fastify/rate-limit (search, validate, submit, sign-in, PDF, bot-check
 *   challenges, intake) count in `rate_limit_hits`: in one transaction per request, a lock on the
 *   key (pg_advisory_xact_lock), one upsert of the request's slot and one read of the key's slots
 *   from the window's first on. Every request counts (as @fastify/rate-limit's own stores do).
 *   Exact under concurrency, across instances too (issue 39 item 3): one key's requests take the
 *   lock one after another, so each counts every request before it (60 calls at once from two
 *   instances answer exactly 20 of a limit of 20; without the lock, all 60 upserts could land
 *   before any read and refuse every call).
 * - The validity check and the status page are hot paths (the check is answered from memory in
 *   about a millisecond; a database round trip per check would cost more than the check). Each
 *   instance keeps its in-memory limiter but allows only its share: the limit divided by the live
 *   instances, which beat in `instances` every few seconds (instances.ts). Behind a round-robin
 *   balancer a client's checks are spread evenly, so the whole group allows about the limit;
 *   behind a sticky one a client gets a share only (stricter, never looser).
 *
 * On SQLite (one process) the routes count in memory (MemoryRateLimitStore), the same slots.
 */

type Counter = { current: number; ttl: number };
type Callback = (err: Error | null, res?: Counter) => void;

/** How often a store sweeps slots that left the window (every this many hits per process). */
const SWEEP_EVERY = 1000;

/** Slots of a window: its seconds and the one it started in (ratelimit/limiter.ts). */
const spanOf = (windowMs: number) => Math.ceil(windowMs / SLOT_MS) + 1;

/** A @fastify/rate-limit store class over the database (`store:` takes a class). */
export function databaseRateLimitStore(db: Db, clock: () => number = () => Date.now()) {
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

    async count(key: string, windowMs: number, max: number, increment: boolean): Promise<Counter> {
      const now = clock();
      const span = spanOf(windowMs);
      const slot = Math.floor(now / SLOT_MS);
      const first = (slot - span + 1) * SLOT_MS;
      const read = (q: Kysely<Database>) =>
        q
          .selectFrom('rate_limit_hits')
          .select(['window_start', 'hits'])
          .where('key', '=', key)
          .where('window_start', '>=', first)
          .orderBy('window_start')
          .execute();
      const rows = !increment
        ? await read(k)
        : await k.transaction().execute(async (trx) => {
            // One key's hits one after another, whichever instance takes them: each read sees every
            // hit before it (a transaction-scoped lock on the key's hash, released at commit).
            await sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`.execute(trx);
            await trx
              .insertInto('rate_limit_hits')
              .values({ key, window_start: slot * SLOT_MS, hits: 1, expires_at: (slot + span) * SLOT_MS })
              .onConflict((oc) =>
                oc
                  .columns(['key', 'window_start'])
                  .doUpdateSet((eb) => ({ hits: eb('rate_limit_hits.hits', '+', 1) })),
              )
              .execute();
            return read(trx);
          });
      if (increment && ++hitsSinceSweep >= SWEEP_EVERY) {
        hitsSinceSweep = 0;
        await k.deleteFrom('rate_limit_hits').where('expires_at', '<', now).execute();
      }
      const slots = rows.map((r) => ({ start: Number(r.window_start), hits: Number(r.hits) }));
      const total = slots.reduce((sum, s) => sum + s.hits, 0);
      // Until the count is below the limit again (refused), or the oldest hit leaves (answered).
      let left = total;
      let ttl = 0;
      for (const s of slots) {
        left -= s.hits;
        ttl = s.start + span * SLOT_MS - now;
        if (left < Math.min(max, total)) break;
      }
      return { current: total, ttl: Math.max(0, ttl) };
    }

    /** One store per route (@fastify/rate-limit passes the route as `routeInfo`), as its Redis store does. */
    child(routeOptions: unknown) {
      const info = (routeOptions as { routeInfo?: { method?: string; url?: string } }).routeInfo;
      const route = `${info?.method ?? ''} ${info?.url ?? ''}:`;
      return new DatabaseRateLimitStore(undefined, `${this.prefix}${route}`);
    }
  };
}

/** Keys a memory store holds per generation, at most (the oldest first seen is forgotten past it). */
const MEMORY_MAX_KEYS = 100_000;

/** The same slots in memory, for one process (SQLite): per route, a SlidingCounts (ratelimit/limiter.ts). */
export class MemoryRateLimitStore {
  private counts: SlidingCounts | undefined;

  incr(key: string, cb: Callback, timeWindow: number, max: number): void {
    cb(null, this.count(key, timeWindow, max, true));
  }

  read(key: string, cb: Callback, timeWindow: number, max: number): void {
    cb(null, this.count(key, timeWindow, max, false));
  }

  count(key: string, windowMs: number, max: number, increment: boolean): Counter {
    const now = Date.now();
    this.counts ??= new SlidingCounts(windowMs, MEMORY_MAX_KEYS);
    const total = increment ? this.counts.add(key, now) : this.counts.count(key, now);
    return { current: total, ttl: this.counts.msUntilBelow(key, Math.min(max, total), now) };
  }

  /** One store per route, as the database store. */
  child() {
    return new MemoryRateLimitStore();
  }
}
