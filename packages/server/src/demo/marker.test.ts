import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findRecord, saveRecords } from '../records/repository.js';
import { savePerson } from '../register/persons.js';
import { createTestDb, type TestDb, testDbKinds } from '../test/databases.js';
import { seedDemoPersons } from './persons.js';
import { seedDemoRecords } from './records.js';

/** An operator's person who happens to have the first demo person's id. */
const OPERATOR_1001 = {
  id: 1001,
  person: {
    jmeno: 'Operátor',
    prijmeni: 'Skutečný',
    pohlavi: '1',
    dat_nar: '1970-01-02',
    rc: '700102/0005',
    email: 'real.person@example.cz',
  },
};

for (const kind of await testDbKinds()) {
  describe(`demo data only touches its own rows (${kind})`, () => {
    let t: TestDb;
    beforeAll(async () => {
      t = await createTestDb(kind);
    });
    afterAll(async () => {
      await t?.cleanup();
    });

    const person = (id: number) =>
      t.db.kysely.selectFrom('persons').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

    it('gives an operator-loaded person with a demo id no demo NIA identifier and no demo certificate', async () => {
      await savePerson(t.db.kysely, t.db.dialect, OPERATOR_1001);
      const before = await person(1001);
      await seedDemoPersons(t.db);
      await seedDemoPersons(t.db); // every start
      const after = await person(1001);
      // Before the marker, the seeding wrote demo-nia-1001 here: the test identity then opened
      // this real person's register data.
      expect(after.nia_identifier).toBeNull();
      expect(after.data).toBe(before.data);
      expect(Number(after.demo)).toBe(0);
      // Nor was the demo certificate 1001 (with the demo person's names) attached to this person.
      expect(await findRecord(t.db, 1001)).toBeUndefined();
      // The other demo people were made, marked, with their identifiers and certificates.
      const demo = await person(1003);
      expect(Number(demo.demo)).toBe(1);
      expect(demo.nia_identifier).toBe('demo-nia-1003');
      expect(await findRecord(t.db, 1003)).toMatchObject({ first_name: 'Martin' });
    });

    it('leaves a person alone once an operator loaded over a demo person', async () => {
      await savePerson(t.db.kysely, t.db.dialect, { ...OPERATOR_1001, id: 1002 });
      await seedDemoPersons(t.db);
      const after = await person(1002);
      expect(after.nia_identifier).toBeNull();
      expect(JSON.parse(after.data).jmeno).toBe('Operátor');
    });

    it('never rewrites a certificate with a demo id that an operator loaded, even with the demo names', async () => {
      await seedDemoRecords(t.db);
      // An operator's register import over the demo id, with the same names (demo rows were told
      // apart by names before the marker).
      await saveRecords(t.db, [
        {
          id: 990000001,
          person_id: null,
          stav: 'Ne',
          platnost_do: '2030-01-01',
          a1a3_valid_until: null,
          a2_valid_until: null,
          first_name: 'Jiřina',
          last_name: 'Dvořáková',
        },
      ]);
      await seedDemoRecords(t.db);
      expect(await findRecord(t.db, 990000001)).toMatchObject({ stav: 'Ne', platnost_do: '2030-01-01' });
      // The demo's own rows are still refreshed.
      expect(await findRecord(t.db, 990000002)).toMatchObject({ stav: 'Ano', first_name: 'Petr' });
    });
  });
}
