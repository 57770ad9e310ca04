import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { createTestDb, testDbKinds } from '../test/databases.js';
import { underStartupLock } from './startupLock.js';

/**
 * Instances started together on one PostgreSQL database take turns at the start-up work
 * (db/startupLock.ts); one that waits says so in its log, and says when it goes on. Each test
 * has a database of its own: the lock is per database, and other test files share one.
 */
describe.skipIf(!(await testDbKinds()).includes('postgres'))('the start-up lock (PostgreSQL)', () => {
  it('waits while another instance holds it, says so, and runs the work once it is free', async () => {
    const t = await createTestDb('postgres', {}, { ownDatabase: true });
    const url = t.config.databaseUrl;
    if (!url) throw new Error('no database URL');
    const other = new pg.Client({ connectionString: url });
    await other.connect();
    try {
      await other.query(`select pg_advisory_lock(hashtextextended('ros-startup', 0))`);
      const said: string[] = [];
      const log = {
        info: (first: unknown, second?: unknown) => {
          said.push(typeof first === 'string' ? first : String(second));
        },
      } as Parameters<typeof underStartupLock>[3];
      let ran = false;
      const running = underStartupLock(
        t.db,
        url,
        async () => {
          ran = true;
          return 'done';
        },
        log,
      );
      await expect.poll(() => said.length, { timeout: 10_000 }).toBe(1);
      expect(said[0]).toContain('another instance is doing its start-up work');
      expect(ran).toBe(false);
      await other.query(`select pg_advisory_unlock(hashtextextended('ros-startup', 0))`);
      expect(await running).toBe('done');
      expect(ran).toBe(true);
      expect(said[1]).toContain('the other instance is done');
    } finally {
      await other.end();
      await t.cleanup();
    }
  });

  it('says nothing when nobody holds it', async () => {
    const t = await createTestDb('postgres', {}, { ownDatabase: true });
    const said: string[] = [];
    const log = { info: (m: unknown) => said.push(String(m)) } as Parameters<typeof underStartupLock>[3];
    try {
      expect(await underStartupLock(t.db, t.config.databaseUrl, async () => 7, log)).toBe(7);
      expect(said).toEqual([]);
    } finally {
      await t.cleanup();
    }
  });
});
