import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb, testDbKinds } from '../test/databases.js';
import {
  createValidityLookup,
  findRecord,
  insertRecord,
  type RecordInput,
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

    it('the validity lookup finds by id, with Kysely and with a prepared SQLite statement', async () => {
      const lookups = [createValidityLookup(t.db)];
      let raw: SQLite.Database | undefined;
      if (kind === 'sqlite') {
        raw = new SQLite(join(t.dataDir, 'ros.sqlite'), { readonly: true });
        lookups.push(createValidityLookup({ ...t.db, sqlite: raw } as typeof t.db));
      }
      try {
        for (const lookup of lookups) {
          expect(await lookup(1)).toEqual({
            stav: 'Ano',
            platnost_do: '2027-03-31',
            a1a3_valid_until: null,
            a2_valid_until: null,
            first_name: 'Jana',
            last_name: 'Nováková',
            revoked_at: null,
          });
          expect(await lookup(0)).toBeUndefined();
          expect(await lookup(424242)).toBeUndefined();
        }
      } finally {
        raw?.close();
      }
    });
  });
}
