import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Db } from './db/database.js';
import type { Database } from './db/schema.js';

/**
 * Per-address limits that hold across several instances on one PostgreSQL database
 * (docs/OPERATIONS.md "Several instances"). Two instances must not double a limit:
 *
 * - The routes guarded by @fastify/rate-limit (search, validate, submit, sign-in, PDF, bot-check
 *   challenges, intake) count in `rate_limit_hits`: one upsert per request, a sliding window made
 *   of the current and the previous fixed window (as ratelimit.ts does in memory). Exact.
 * - The validity check is the hot path (answered from memory in about a millisecond; a database
 *   round trip per check would cost more than the check). Each instance keeps its in-memory
 *   limiter but allows only its share: the limit divided by the live instances, which beat in
 *   `instances` every few seconds. Behind a round-robin balancer a client's checks are spread
 *   evenly, so the whole group allows about the limit; behind a sticky one a client gets a share
 *   only (stricter, never looser).
 *
 * On SQLite (one process) neither is used: the in-memory stores are exact there.
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
      // The previous window's share of the last windowMs (ratelimit.ts explains the weighting).
      const weight = (windowMs - (now - start)) / windowMs;
      return { current: Math.floor(current + previous * weight), ttl: start + windowMs - now };
    }

    /** One store per route (@fastify/rate-limit passes the route as `routeInfo`), as its Redis store does. */
    child(routeOptions: unknown) {
      const info = (routeOptions as { routeInfo?: { method?: string; url?: string } }).routeInfo;
      const route = `${info?.method ?? ''} ${info?.url ?? ''}:`;
      return new DatabaseRateLimitStore(undefined, `${this.prefix}${route}`);
    }
  };
}

/** The instances of the group that beat recently: how many share the validity check's limit. */
export interface InstanceGroup {
  /** Live instances, this one included (at least 1). */
  live(): number;
  /** Beats now (and counts the live instances again); start() beats at once, then every few seconds. */
  beat(): Promise<void>;
  start(): Promise<void>;
  stop(): Promise<void>;
}

const BEAT_MS = 5000;
/** An instance missing three beats no longer counts. */
const LIVE_MS = 3 * BEAT_MS;

export function instanceGroup(db: Db): InstanceGroup {
  if (db.dialect !== 'postgres') {
    return { live: () => 1, beat: async () => {}, start: async () => {}, stop: async () => {} };
  }
  const k = db.kysely as Kysely<Database>;
  const id = randomBytes(16).toString('hex');
  let live = 1;
  let timer: NodeJS.Timeout | undefined;

  const beat = async () => {
    const now = Date.now();
    await k
      .insertInto('instances')
      .values({ id, started_at: new Date(now).toISOString(), seen_at: now })
      .onConflict((oc) => oc.column('id').doUpdateSet({ seen_at: now }))
      .execute();
    const row = await k
      .selectFrom('instances')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('seen_at', '>', now - LIVE_MS)
      .executeTakeFirstOrThrow();
    live = Math.max(1, Number(row.n));
    // Rows of instances long gone go, so the table stays small.
    await k
      .deleteFrom('instances')
      .where('seen_at', '<', now - 100 * LIVE_MS)
      .execute();
  };

  return {
    live: () => live,
    beat,
    async start() {
      // Not awaited: readiness never waits on a heartbeat; until the first one this instance
      // counts only itself.
      void beat().catch(() => {});
      timer = setInterval(() => void beat().catch(() => {}), BEAT_MS);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      await k
        .deleteFrom('instances')
        .where('id', '=', id)
        .execute()
        .catch(() => {});
    },
  };
}
