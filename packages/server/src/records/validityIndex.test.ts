import { validityCode } from '@ros/domain';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb, testDbKinds } from '../test/databases.js';
import { type RecordInput, revokeRecord, saveRecords } from './repository.js';
import { openValidityIndex, type ValidityIndex } from './validityIndex.js';

const record = (id: number, over: Partial<RecordInput> = {}): RecordInput => ({
  id,
  person_id: null,
  stav: 'Ano',
  platnost_do: '2027-03-31',
  a1a3_valid_until: '2027-03-31',
  a2_valid_until: null,
  first_name: 'Jiřina',
  last_name: 'Dvořáková',
  ...over,
});
const CODE = validityCode('2027-03-31') as number;
const TODAY = '2026-11-26';

for (const kind of await testDbKinds()) {
  describe(`validity index (${kind})`, () => {
    let t: TestDb;
    let index: ValidityIndex;
    beforeAll(async () => {
      t = await createTestDb(kind);
      await saveRecords(t.db, [record(1), record(2, { stav: 'Ne' })]);
      index = await openValidityIndex(t.db, { refreshMs: 25 });
    });
    afterAll(async () => {
      index?.close();
      await t?.cleanup();
    });

    it('answers a certificate only with its code, holding no full names', async () => {
      expect(index.size).toBe(2);
      const json = index.answer(1, CODE, TODAY);
      expect(JSON.parse(json ?? 'null')).toEqual({
        data: { stav: 'Ano', platnost_do: '31.03.2027', jmeno: 'Jiř', prijmeni: 'Dvo' },
        a1a3: { valid_until: '31.03.2027' },
      });
      expect(index.answer(1, CODE + 1, TODAY)).toBeUndefined();
      expect(index.answer(1, -1, TODAY)).toBeUndefined();
      expect(index.answer(99, CODE, TODAY)).toBeUndefined();
      expect(index.answer(0, CODE, TODAY)).toBeUndefined();
      expect(JSON.parse(index.answer(2, CODE, TODAY) ?? 'null').data.stav).toBe('Ne');
    });

    it('makes the answer again for a new day: a certificate runs out after its last day', async () => {
      expect(JSON.parse(index.answer(1, CODE, '2027-03-31') ?? 'null').data.stav).toBe('Ano');
      const after = JSON.parse(index.answer(1, CODE, '2027-04-01') ?? 'null');
      expect(after.data.stav).toBe('Ne');
      expect(after.a1a3).toBeUndefined();
    });

    it('refresh() reloads only when records changed', async () => {
      expect(await index.refresh()).toBe(false);
      await saveRecords(t.db, [record(3, { first_name: 'Petr', last_name: 'Černý' })]);
      expect(await index.refresh()).toBe(true);
      expect(JSON.parse(index.answer(3, CODE, TODAY) ?? 'null').data.jmeno).toBe('Pet');
      expect(await index.refresh()).toBe(false);
    });

    it('sees a revocation, a plain-SQL change and a deletion on its own, within its refresh time', async () => {
      await revokeRecord(t.db, 1);
      await expect
        .poll(() => JSON.parse(index.answer(1, CODE, TODAY) ?? 'null')?.data.stav, { timeout: 3000 })
        .toBe('Ne');
      await sql`update records set platnost_do = '2027-04-01' where id = 3`.execute(t.db.kysely);
      await expect.poll(() => index.answer(3, CODE, TODAY), { timeout: 3000 }).toBeUndefined();
      expect(index.answer(3, validityCode('2027-04-01') as number, TODAY)).toBeDefined();
      await sql`delete from records where id = 2`.execute(t.db.kysely);
      await expect.poll(() => index.size, { timeout: 3000 }).toBe(2);
    });

    it('keeps its answers when a look for changes fails, and says so without data', async () => {
      const errors: unknown[] = [];
      const t2 = await createTestDb(kind);
      await saveRecords(t2.db, [record(7)]);
      const i2 = await openValidityIndex(t2.db, { refreshMs: 20, onError: (e) => errors.push(e) });
      try {
        await sql`drop table records_version`.execute(t2.db.kysely);
        await expect.poll(() => errors.length, { timeout: 3000 }).toBeGreaterThan(0);
        expect(i2.answer(7, CODE, TODAY)).toBeDefined();
        expect(JSON.stringify(errors)).not.toContain('Jiř');
      } finally {
        i2.close();
        await t2.cleanup();
      }
    });
  });
}
