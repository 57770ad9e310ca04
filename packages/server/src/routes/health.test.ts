import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import type { AppContext } from '../context.js';
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
