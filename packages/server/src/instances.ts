import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Db } from './db/database.js';
import type { Database } from './db/schema.js';

/**
 * The instances sharing one PostgreSQL database: each beats in table `instances` every few
 * seconds, and counts those that beat recently. The validity check's in-memory limiter allows
 * this instance its share of the limit (services.ts; ratelimit/stores.ts says why). On SQLite
 * (one process) the group is this instance alone.
 */

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
