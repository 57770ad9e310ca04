import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config/config.js';
import type { Db } from '../db/database.js';
import { type PurgeResult, purge } from './purge.js';

/**
 * Takes the named lease until `until` when it is free (never taken, or run out): one
 * conditional upsert, so of several instances racing for it exactly one gets it.
 */
export async function takeLease(
  db: Db,
  name: string,
  holder: string,
  now: Date,
  until: Date,
): Promise<boolean> {
  const r = await db.kysely
    .insertInto('leases')
    .values({ name, holder, until: until.toISOString() })
    .onConflict((oc) =>
      oc
        .column('name')
        .doUpdateSet((eb) => ({ holder: eb.ref('excluded.holder'), until: eb.ref('excluded.until') }))
        .where('leases.until', '<=', now.toISOString()),
    )
    .executeTakeFirst();
  return Number(r.numInsertedOrUpdatedRows ?? 0) === 1;
}

/**
 * The server's purge: every ROS_PURGE_INTERVAL_MINUTES each instance tries to take the lease
 * 'purge' for one interval; the one that gets it purges. So the group purges once per
 * interval, however many instances run, and a stopped instance's turn passes to another.
 */
export class PurgeScheduler {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private readonly holder = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;

  constructor(
    private readonly db: Db,
    private readonly config: Config,
    private readonly log: FastifyBaseLogger,
  ) {}

  start(): void {
    const minutes = this.config.purgeIntervalMinutes;
    if (minutes === 0 || this.timer) return;
    this.timer = setInterval(() => this.kick(), minutes * 60_000);
    this.timer.unref();
    this.kick();
  }

  kick(): void {
    if (this.running) return;
    this.running = this.tick()
      .then(() => undefined)
      .catch((err: unknown) => {
        this.log.error({ purge: { error: err instanceof Error ? err.name : 'Error' } }, 'purge failed');
      })
      .finally(() => {
        this.running = null;
      });
  }

  /** Purges when this instance gets the lease: the result, or null when another has it. */
  async tick(now: Date = new Date()): Promise<PurgeResult | null> {
    const until = new Date(now.getTime() + this.config.purgeIntervalMinutes * 60_000);
    if (!(await takeLease(this.db, 'purge', this.holder, now, until))) return null;
    const result = await purge(this.db, this.config, { now });
    this.log.info(
      { purge: { ...result, erased: result.erased.length, erasedAgain: result.erasedAgain.length } },
      'purge done',
    );
    return result;
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    while (this.running) await this.running;
  }
}
