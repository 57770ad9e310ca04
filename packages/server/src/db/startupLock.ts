import pg from 'pg';
import type { Db } from './database.js';

/**
 * Runs `work` while holding PostgreSQL's session advisory lock for start-up, on a connection of
 * its own: instances started at the same moment on one database take turns, so that steps that
 * read and then write (the reference data, the demo data) never race. The second instance
 * finds the work done. On SQLite (one process) it just runs `work`.
 */
export async function underStartupLock<T>(
  db: Db,
  databaseUrl: string | undefined,
  work: () => Promise<T>,
): Promise<T> {
  if (db.dialect !== 'postgres' || !databaseUrl) return work();
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(`select pg_advisory_lock(hashtextextended('ros-startup', 0))`);
    return await work();
  } finally {
    // Ending the session releases the lock too; unlock first so a pool that keeps it never holds it.
    await client.query(`select pg_advisory_unlock(hashtextextended('ros-startup', 0))`).catch(() => {});
    await client.end().catch(() => {});
  }
}
