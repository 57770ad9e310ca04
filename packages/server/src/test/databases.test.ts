import { existsSync } from 'node:fs';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { createTestDb, PG_URL, testDbKinds } from './databases.js';

for (const kind of await testDbKinds()) {
  describe(`a test database (${kind})`, () => {
    it('is gone after cleanup, and a second cleanup does nothing (a failed set-up cleans up again)', async () => {
      const t = await createTestDb(kind);
      const schema = new URL(t.config.databaseUrl ?? 'x:').searchParams.get('options')?.split('=')[1];
      await t.cleanup();
      expect(existsSync(t.dataDir)).toBe(false);
      if (kind === 'postgres') {
        const c = new pg.Client({ connectionString: PG_URL });
        await c.connect();
        const r = await c.query('select 1 from information_schema.schemata where schema_name = $1', [schema]);
        await c.end();
        expect(schema).toMatch(/^t_[0-9a-f]{12}$/);
        expect(r.rowCount).toBe(0);
      }
      // Before, this dropped the schema again and failed with 'schema "t_…" does not exist'.
      await expect(t.cleanup()).resolves.toBeUndefined();
    });
  });
}
