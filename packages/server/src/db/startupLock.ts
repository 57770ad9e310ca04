import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';
import type { Db } from './database.js';

/** The advisory lock's key: one per database (PostgreSQL scopes advisory locks to a database). */
const STARTUP_LOCK = `hashtextextended('ros-startup', 0)`;

/**
 * Runs `work` while holding PostgreSQL's session advisory lock for start-up, on a connection of
 * its own: instances started at the same moment on one database take turns, so that steps that
 * read and then write (the reference data, the demo data) never race. The second instance
 * finds the work done. On SQLite (one process) it just runs `work`.
 *
 * An instance that has to wait says so, and says when it goes on: a start that waits for
 * another instance's is told apart in the logs from one that hangs.
 */
export async function underStartupLock<T>(
  db: Db,
  databaseUrl: string | undefined,
  work: () => Promise<T>,
  log?: Pick<FastifyBaseLogger, 'info'>,
): Promise<T> {
  if (db.dialect !== 'postgres' || !databaseUrl) return work();
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const free = await client.query<{ got: boolean }>(`select pg_try_advisory_lock(${STARTUP_LOCK}) as got`);
    if (!free.rows[0]?.got) {
      const since = Date.now();
      log?.info('start-up: another instance is doing its start-up work on this database; waiting for it');
      await client.query(`select pg_advisory_lock(${STARTUP_LOCK})`);
      log?.info({ waitedMs: Date.now() - since }, 'start-up: the other instance is done; going on');
    }
    return await work();
  } finally {
    // Ending the session releases the lock too; unlock first so a pool that keeps it never holds it.
    await client.query(`select pg_advisory_unlock(${STARTUP_LOCK})`).catch(() => {});
    await client.end().catch(() => {});
  }
}
