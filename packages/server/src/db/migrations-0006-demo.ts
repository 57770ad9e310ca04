import type { Kysely, Migration } from 'kysely';
import type { DialectName } from './database.js';

/**
 * The demo marker (issue 11): `demo = 1` on the persons and certificates the demo seeding created
 * (demo/persons.ts, demo/records.ts). The seeding only ever changes rows so marked, never an
 * operator's row that happens to have a demo id (before this, an operator-loaded person with id
 * 1001 was given the demo NIA identifier, so a test identity signed in as that real person).
 *
 * Rows made by the demo before the marker existed are recognised by a fixed snapshot of the demo's
 * names (not imported from demo/: a migration never changes once shipped). And an unmarked person
 * that carries its demo NIA identifier `demo-nia-<id>` had it written by that old seeding: it is
 * taken away again.
 */
const DEMO_CERTIFICATES: ReadonlyArray<[number, string, string]> = [
  [990000001, 'Jiřina', 'Dvořáková'],
  [990000002, 'Petr', 'Černý'],
  [990000003, 'Šárka', 'Horáková'],
  [990000004, 'Tomáš', 'Svoboda'],
  [990000005, 'Marie', 'Procházková'],
];
/** id, jmeno, prijmeni, dat_nar of the demo people (ids 1001-1007, their certificates the same ids). */
const DEMO_PEOPLE: ReadonlyArray<[number, string, string, string]> = [
  [1001, 'Štěpán', 'Dvořák', '1985-03-15'],
  [1002, 'Karel', 'Procházka', '1978-07-04'],
  [1003, 'Martin', 'Horák', '1972-02-28'],
  [1004, 'Anna', 'Kowalska', '1990-06-21'],
  [1005, 'Josef', 'Veselý', '1950-04-12'],
  [1006, 'Eva', 'Marková', '1990-05-12'],
  [1007, 'Tomáš', 'Král', '1988-09-11'],
];

export function demoMarkerMigrations(_dialect: DialectName): Record<string, Migration> {
  return {
    '0006_demo_marker': {
      // biome-ignore lint/suspicious/noExplicitAny: migrations work on any schema
      async up(db: Kysely<any>) {
        for (const table of ['persons', 'records']) {
          await db.schema
            .alterTable(table)
            .addColumn('demo', 'integer', (c) => c.notNull().defaultTo(0))
            .execute();
        }
        for (const [id, first, last] of DEMO_CERTIFICATES) {
          await db
            .updateTable('records')
            .set({ demo: 1 })
            .where('id', '=', id)
            .where('first_name', '=', first)
            .where('last_name', '=', last)
            .execute();
        }
        const people = await db
          .selectFrom('persons')
          .select(['id', 'data'])
          .where(
            'id',
            'in',
            DEMO_PEOPLE.map((p) => p[0]),
          )
          .execute();
        for (const row of people as Array<{ id: number; data: string }>) {
          const id = Number(row.id);
          const demo = DEMO_PEOPLE.find((p) => p[0] === id);
          let data: { jmeno?: unknown; prijmeni?: unknown; dat_nar?: unknown } = {};
          try {
            data = JSON.parse(row.data);
          } catch {}
          if (demo && data.jmeno === demo[1] && data.prijmeni === demo[2] && data.dat_nar === demo[3]) {
            await db.updateTable('persons').set({ demo: 1 }).where('id', '=', id).execute();
            await db
              .updateTable('records')
              .set({ demo: 1 })
              .where('id', '=', id)
              .where('person_id', '=', id)
              .execute();
          }
        }
        // The old seeding's harm: a demo NIA identifier on a person the demo did not create.
        for (const [id] of DEMO_PEOPLE) {
          await db
            .updateTable('persons')
            .set({ nia_identifier: null })
            .where('id', '=', id)
            .where('demo', '=', 0)
            .where('nia_identifier', '=', `demo-nia-${id}`)
            .execute();
        }
      },
    },
  };
}
