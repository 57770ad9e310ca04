import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb, testDbKinds } from '../test/databases.js';
import { anotherSchemaVanished, migrateToLatest } from './migrations.js';

for (const kind of await testDbKinds()) {
  describe(`migrations when another user of the database drops a schema (${kind})`, () => {
    let t: TestDb;
    beforeAll(async () => {
      t = await createTestDb(kind);
    });
    afterAll(async () => t?.cleanup());

    it('tries again only for a schema that is not its own, on PostgreSQL', async () => {
      const current =
        kind === 'postgres'
          ? new URL(t.config.databaseUrl ?? '').searchParams.get('options')?.split('=')[1]
          : '';
      const other = new Error('error: schema "t_someone_else" does not exist');
      const own = new Error(`error: schema "${current}" does not exist`);
      expect(await anotherSchemaVanished(t.db.kysely, t.db.dialect, other)).toBe(kind === 'postgres');
      expect(await anotherSchemaVanished(t.db.kysely, t.db.dialect, own)).toBe(false);
      // A table of a schema that went while the catalogue was read: the other's, or its own.
      const otherTable = new Error('error: relation "t_someone_else.request_mails" does not exist');
      const ownTable = new Error(`error: relation "${current}.kysely_migration" does not exist`);
      expect(await anotherSchemaVanished(t.db.kysely, t.db.dialect, otherTable)).toBe(kind === 'postgres');
      expect(await anotherSchemaVanished(t.db.kysely, t.db.dialect, ownTable)).toBe(false);
      // A column looked up again by name (pg_get_serial_sequence) after another's table changed:
      // the message names no schema, and another try is safe (its own error would come back).
      const column = new Error('error: column "a2_valid_until" of relation "records" does not exist');
      expect(await anotherSchemaVanished(t.db.kysely, t.db.dialect, column)).toBe(kind === 'postgres');
      expect(await anotherSchemaVanished(t.db.kysely, t.db.dialect, new Error('syntax error'))).toBe(false);
    });

    it('migrating again is a no-op', async () => {
      await expect(migrateToLatest(t.db.kysely, t.db.dialect)).resolves.toBeUndefined();
    });
  });
}
