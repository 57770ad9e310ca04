import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb, testDbKinds } from '../test/databases.js';
import {
  findRecord,
  insertRecord,
  loadValidityRows,
  type RecordInput,
  recordsVersion,
  revokeRecord,
  saveRecords,
} from './repository.js';

const record = (id: number, over: Partial<RecordInput> = {}): RecordInput => ({
  id,
  person_id: null,
  stav: 'Ano',
  platnost_do: '2027-03-31',
  a1a3_valid_until: null,
  a2_valid_until: null,
  first_name: 'Jana',
  last_name: 'Nováková',
  ...over,
});

for (const kind of await testDbKinds()) {
  describe(`records repository (${kind})`, () => {
    let t: TestDb;
    beforeAll(async () => {
      t = await createTestDb(kind);
    });
    afterAll(async () => {
      await t?.cleanup();
    });

    it('saves all or nothing', async () => {
      await expect(saveRecords(t.db, [record(1), record(2, { person_id: 999 })])).rejects.toThrow();
      expect(await findRecord(t.db, 1)).toBeUndefined();
      expect(await saveRecords(t.db, [record(1), record(2)])).toEqual({ inserted: 2, updated: 0 });
    });

    it('keeps a revocation when a later load lists the certificate again', async () => {
      await revokeRecord(t.db, 2);
      expect(await saveRecords(t.db, [record(2, { platnost_do: '2028-01-01' })])).toEqual({
        inserted: 0,
        updated: 1,
      });
      const r = await findRecord(t.db, 2);
      expect(r?.platnost_do).toBe('2028-01-01');
      expect(r?.revoked_at).toBeTruthy();
    });

    it('insertRecord refuses a taken id', async () => {
      expect(await insertRecord(t.db, record(1, { first_name: 'X' }))).toBe(false);
      expect((await findRecord(t.db, 1))?.first_name).toBe('Jana');
      expect(await insertRecord(t.db, record(3))).toBe(true);
    });

    it('every change of records moves the version on, also one made with plain SQL', async () => {
      const v0 = await recordsVersion(t.db);
      await revokeRecord(t.db, 1);
      const v1 = await recordsVersion(t.db);
      expect(v1).not.toBe(v0);
      await sql`update records set stav = 'Ne' where id = 3`.execute(t.db.kysely);
      const v2 = await recordsVersion(t.db);
      expect(v2).not.toBe(v1);
      await sql`delete from records where id = 3`.execute(t.db.kysely);
      expect(await recordsVersion(t.db)).not.toBe(v2);
    });

    it('loads every certificate with the columns the validity check needs', async () => {
      const { version, rows } = await loadValidityRows(t.db);
      expect(version).toBe(await recordsVersion(t.db));
      expect(rows.map((r) => r.id).sort()).toEqual([1, 2]);
      expect(rows.find((r) => r.id === 2)).toMatchObject({ stav: 'Ano', platnost_do: '2028-01-01' });
      expect(rows.find((r) => r.id === 1)?.revoked_at).toBeTruthy();
    });
  });
}
