import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PERSONS } from '../demo/persons.js';
import { savePerson } from '../register/persons.js';
import { createTestDb, type TestDb, testDbKinds } from '../test/databases.js';
import { demoMarkerMigrations } from './migrations-0006-demo.js';

/**
 * Migration 0006 on a database as the old seeding left it: demo rows are recognised and marked,
 * and the demo NIA identifier the old seeding gave an operator's person is taken back.
 */
for (const kind of await testDbKinds()) {
  describe(`migration 0006_demo_marker on old data (${kind})`, () => {
    let t: TestDb;
    beforeAll(async () => {
      t = await createTestDb(kind);
      // Back to before the migration: no marker columns.
      for (const table of ['persons', 'records']) {
        await sql`alter table ${sql.table(table)} drop column demo`.execute(t.db.kysely);
      }
      const demo1001 = DEMO_PERSONS.find((p) => p.id === 1001);
      if (!demo1001) throw new Error('no demo person 1001');
      // The demo's own person and certificate, as the old seeding made them.
      await savePerson(t.db.kysely, t.db.dialect, demo1001);
      // An operator's person with a demo id, to which the old seeding added demo-nia-1002.
      await savePerson(t.db.kysely, t.db.dialect, {
        id: 1002,
        nia_identifier: 'demo-nia-1002',
        person: { jmeno: 'Skutečná', prijmeni: 'Osoba', pohlavi: '2', dat_nar: '1969-09-09' },
      });
      const cert = { stav: 'Ano', platnost_do: '2031-01-01', created_at: '2026-01-01T00:00:00Z' };
      // biome-ignore lint/suspicious/noExplicitAny: the table as it was before the migration
      await (t.db.kysely as any)
        .insertInto('records')
        .values([
          { ...cert, id: 1001, person_id: 1001, first_name: 'Štěpán', last_name: 'Dvořák' },
          { ...cert, id: 990000001, person_id: null, first_name: 'Jiřina', last_name: 'Dvořáková' },
          { ...cert, id: 990000002, person_id: null, first_name: 'Real', last_name: 'Holder' },
        ])
        .execute();
      const up = demoMarkerMigrations(t.db.dialect)['0006_demo_marker']?.up;
      if (!up) throw new Error('no migration');
      await up(t.db.kysely);
    });
    afterAll(async () => {
      await t?.cleanup();
    });

    const demoOf = async (table: 'persons' | 'records', id: number) =>
      Number(
        (await t.db.kysely.selectFrom(table).select('demo').where('id', '=', id).executeTakeFirstOrThrow())
          .demo,
      );

    it('marks the rows the demo made, by their names', async () => {
      expect(await demoOf('persons', 1001)).toBe(1);
      expect(await demoOf('records', 1001)).toBe(1);
      expect(await demoOf('records', 990000001)).toBe(1);
    });

    it("leaves operators' rows unmarked and takes back the demo NIA identifier given to one", async () => {
      expect(await demoOf('persons', 1002)).toBe(0);
      expect(await demoOf('records', 990000002)).toBe(0);
      const p = await t.db.kysely
        .selectFrom('persons')
        .select('nia_identifier')
        .where('id', '=', 1002)
        .executeTakeFirstOrThrow();
      expect(p.nia_identifier).toBeNull();
      const demo = await t.db.kysely
        .selectFrom('persons')
        .select('nia_identifier')
        .where('id', '=', 1001)
        .executeTakeFirstOrThrow();
      expect(demo.nia_identifier).toBe('demo-nia-1001');
    });
  });
}
