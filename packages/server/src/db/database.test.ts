import { sql } from 'kysely';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { createTestDb, PG_URL, testDbKinds } from '../test/databases.js';

/**
 * The PostgreSQL pool outlives a connection PostgreSQL ends while it is idle (a restart, a
 * failover, an administrator's pg_terminate_backend): the server keeps running and the next query
 * gets a new connection. node-postgres throws such an error when the pool has no listener for it,
 * which stopped the process (and, in the test suite, showed as unhandled errors).
 */
describe.skipIf(!(await testDbKinds()).includes('postgres'))('the PostgreSQL pool (db/database.ts)', () => {
  it('survives its idle connections being terminated, and the next query works', async () => {
    const t = await createTestDb('postgres');
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.message);
    process.on('warning', onWarning);
    try {
      const pid = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(t.db.kysely);
      const backend = pid.rows[0]?.pid;
      expect(backend).toBeGreaterThan(0);
      // The connection is back in the pool, idle: end it from another session.
      const admin = new pg.Client({ connectionString: PG_URL });
      await admin.connect();
      await admin.query('select pg_terminate_backend($1)', [backend]);
      await admin.end();
      await expect.poll(() => warnings.some((w) => w.includes('57P01')), { timeout: 10_000 }).toBe(true);
      const again = await sql<{ one: number }>`select 1 as one`.execute(t.db.kysely);
      expect(again.rows[0]?.one).toBe(1);
    } finally {
      process.off('warning', onWarning);
      await t.cleanup();
    }
  });
});
