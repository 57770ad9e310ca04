import { validityCode } from '@ros/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { registerToday } from '../records/records.js';
import { findRecord, revokeRecord, saveRecords } from '../records/repository.js';
import { createTestDb, type TestDb, testDbKinds } from '../test/databases.js';
import {
  DEMO_RECORDS,
  demoCheckLinks,
  demoRows,
  firstDateWithCode,
  lastDateWithCode,
  seedDemoRecords,
} from './records.js';

describe('dates with a given code', () => {
  it('finds the first date on or after a day whose day + month + year is the code', () => {
    expect(firstDateWithCode(2070, '2027-11-25')).toBe('2027-12-31');
    expect(firstDateWithCode(2068, '2027-11-25')).toBe('2027-11-30');
    // Past the last such date of the year: the next year has one a day earlier in the year.
    expect(firstDateWithCode(2070, '2028-01-01')).toBe('2028-12-30');
    expect(validityCode(firstDateWithCode(2070, '2040-06-15'))).toBe(2070);
    expect(() => firstDateWithCode(2000, '2026-01-01')).toThrow();
  });

  it('finds the last date on or before a day', () => {
    expect(lastDateWithCode(2040, '2026-10-26')).toBe('2026-10-04');
    expect(validityCode(lastDateWithCode(2040, '2045-01-01'))).toBe(2040);
  });

  it('keeps every demo link working, whatever the day', () => {
    const days = ['2026-01-01', '2026-11-25', '2027-12-31', '2028-02-29', '2035-07-01', '2050-12-31'];
    for (const today of days) {
      const rows = demoRows(today);
      for (const demo of DEMO_RECORDS) {
        const row = rows.find((r) => r.id === demo.id);
        expect(row, today).toBeDefined();
        if (!row) continue;
        expect(validityCode(row.platnost_do), `${demo.id} on ${today}`).toBe(demo.code);
        if (demo.role === 'expired') {
          expect(row.platnost_do < today).toBe(true);
        } else {
          expect(row.platnost_do > today).toBe(true);
          // About a year ahead (a certificate is valid for a year), at most two.
          const years = (Date.parse(row.platnost_do) - Date.parse(today)) / (365.25 * 86400000);
          expect(years).toBeGreaterThanOrEqual(0.99);
          expect(years).toBeLessThan(2.01);
        }
      }
    }
  });
});

for (const kind of await testDbKinds()) {
  describe(`seedDemoRecords (${kind})`, () => {
    let t: TestDb;
    beforeAll(async () => {
      t = await createTestDb(kind);
    });
    afterAll(async () => {
      await t?.cleanup();
    });

    it('loads the demo certificates, and the documented links answer as described', async () => {
      await seedDemoRecords(t.db);
      const app = await buildApp({ config: t.config, db: t.db, version: 'test' });
      try {
        const answers = new Map<string, { statusCode: number; body: Record<string, unknown> }>();
        for (const link of demoCheckLinks()) {
          const token = link.path.replace('/check?id=', '');
          const res = await app.inject({ method: 'GET', url: `/api/ros/${token}/validity` });
          answers.set(link.description, { statusCode: res.statusCode, body: res.json() });
        }
        const byRole = (role: string) => {
          const demo = DEMO_RECORDS.find((d) => d.role === role);
          return answers.get(demo?.description ?? '');
        };
        expect(byRole('valid-a1a3-a2')?.body).toMatchObject({
          data: { stav: 'Ano', jmeno: 'Jiř', prijmeni: 'Dvo' },
          a1a3: {},
          a2: {},
        });
        expect(byRole('valid-a1a3')?.body).toMatchObject({ data: { stav: 'Ano' }, a1a3: {} });
        expect(byRole('valid-a1a3')?.body.a2).toBeUndefined();
        expect(byRole('valid')?.body.a1a3).toBeUndefined();
        expect(byRole('valid')?.body).toMatchObject({ data: { stav: 'Ano', jmeno: 'Šár' } });
        expect(byRole('expired')?.body).toMatchObject({ data: { stav: 'Ne' } });
        expect(byRole('revoked')?.body).toMatchObject({ data: { stav: 'Ne' } });
        expect(answers.get('wrong code for a valid certificate (not verified)')?.statusCode).toBe(404);
      } finally {
        await app.close();
      }
    });

    it('is idempotent and puts a demo certificate back in its documented state', async () => {
      await revokeRecord(t.db, 990000001);
      await seedDemoRecords(t.db);
      await seedDemoRecords(t.db);
      const n = await t.db.kysely
        .selectFrom('records')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow();
      expect(Number(n.n)).toBe(DEMO_RECORDS.length);
      expect(await findRecord(t.db, 990000001)).toMatchObject({ stav: 'Ano', revoked_at: null });
      const revoked = await findRecord(t.db, 990000005);
      expect(revoked?.revoked_at).toBeTruthy();
      expect(revoked?.stav).toBe('Ne');
      const rows = demoRows(registerToday());
      expect((await findRecord(t.db, 990000002))?.platnost_do).toBe(rows[1]?.platnost_do);
    });

    it('never overwrites a real certificate that has a demo id', async () => {
      await saveRecords(t.db, [
        {
          id: 990000003,
          person_id: null,
          stav: 'Ano',
          platnost_do: '2030-01-01',
          a1a3_valid_until: null,
          a2_valid_until: null,
          first_name: 'Real',
          last_name: 'Person',
        },
      ]);
      await seedDemoRecords(t.db);
      expect(await findRecord(t.db, 990000003)).toMatchObject({
        first_name: 'Real',
        platnost_do: '2030-01-01',
      });
    });
  });
}
