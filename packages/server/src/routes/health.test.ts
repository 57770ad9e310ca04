import Database from 'better-sqlite3';
import { sql } from 'kysely';
import pg from 'pg';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../app.js';
import type { AppContext } from '../context.js';
import { cachedCheck } from '../readiness.js';
import { createTestDb, type TestDb, testDbKinds } from '../test/databases.js';

for (const kind of await testDbKinds()) {
  describe(`GET /readyz (${kind})`, () => {
    let t: TestDb | undefined;
    afterEach(async () => {
      await t?.cleanup();
      t = undefined;
    });

    async function started() {
      t = await createTestDb(kind);
      const ctx: AppContext = { config: t.config, db: t.db, version: 'test' };
      const app = await buildApp(ctx);
      await app.ready();
      // The validity index's first read (readiness waits for it).
      for (let i = 0; i < 100 && app.services.readiness.pending().length > 0; i++) {
        await new Promise((r) => setTimeout(r, 20));
      }
      return { app, db: t.db };
    }

    it('ready, then draining once shutdown began (while /healthz still answers)', async () => {
      const { app } = await started();
      try {
        expect((await app.inject('/readyz')).json()).toEqual({ status: 'ready' });
        app.services.readiness.drain();
        const r = await app.inject('/readyz');
        expect(r.statusCode).toBe(503);
        expect(r.json()).toEqual({ status: 'draining' });
        expect((await app.inject('/healthz')).statusCode).toBe(200);
        expect((await app.inject('/api/ros/metadata')).statusCode).toBe(200);
      } finally {
        await app.close();
      }
    });

    it('costs the database one question a second, however often it is asked (issue 21)', async () => {
      const { app } = await started();
      // Every statement about migrations either database is asked.
      const asked: string[] = [];
      const note = (q: unknown) => {
        const text = typeof q === 'string' ? q : String((q as { text?: unknown } | null)?.text ?? '');
        if (text.includes('kysely_migration')) asked.push(text);
      };
      const pgQuery = pg.Client.prototype.query;
      vi.spyOn(pg.Client.prototype, 'query').mockImplementation(function (
        this: pg.Client,
        ...args: unknown[]
      ) {
        note(args[0]);
        return (pgQuery as (...a: unknown[]) => unknown).apply(this, args) as never;
      });
      const prepare = Database.prototype.prepare;
      vi.spyOn(Database.prototype, 'prepare').mockImplementation(function (
        this: Database.Database,
        source: string,
      ) {
        note(source);
        return prepare.call(this, source);
      });
      // The clock stands still (Date only): on a slow machine the calls must not outlast the second.
      vi.useFakeTimers({ toFake: ['Date'] });
      try {
        const answers = await Promise.all(Array.from({ length: 50 }, () => app.inject('/readyz')));
        expect(answers.map((r) => r.statusCode)).toEqual(Array(50).fill(200));
        for (let i = 0; i < 50; i++) expect((await app.inject('/readyz')).statusCode).toBe(200);
        const once = asked.length;
        expect(once).toBeGreaterThan(0);
        expect(once).toBeLessThanOrEqual(2);
        // A second later it asks again.
        vi.advanceTimersByTime(1000);
        expect((await app.inject('/readyz')).statusCode).toBe(200);
        expect(asked.length).toBeGreaterThan(once);
      } finally {
        vi.useRealTimers();
        vi.restoreAllMocks();
        await app.close();
      }
    });

    it('not ready while a migration this version knows has not run', async () => {
      const { app, db } = await started();
      try {
        await sql`delete from kysely_migration where name = '0009_shared_limits'`.execute(db.kysely);
        const r = await app.inject('/readyz');
        expect(r.statusCode).toBe(503);
        expect(r.json()).toEqual({ status: 'migrations pending', pending: 1 });
      } finally {
        await app.close();
      }
    });
  });
}

describe('cachedCheck', () => {
  it('one check in flight for all callers, the answer kept for ttl, a failure not kept', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      let runs = 0;
      let fail = false;
      const check = cachedCheck(async () => {
        runs++;
        if (fail) throw new Error('down');
        return runs;
      }, 1000);
      expect(await Promise.all([check(), check(), check()])).toEqual([1, 1, 1]);
      vi.advanceTimersByTime(999);
      expect(await check()).toBe(1);
      vi.advanceTimersByTime(1);
      fail = true;
      await expect(check()).rejects.toThrow('down');
      await expect(check()).rejects.toThrow('down');
      expect(runs).toBe(3);
      fail = false;
      expect(await check()).toBe(4);
    } finally {
      vi.useRealTimers();
    }
  });
});
