import { storedFormValues } from '@ros/domain';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchKeysOf } from '../requests/searchKeys.js';
import { createTestDb, type TestDb, testDbKinds } from '../test/databases.js';
import { consoleMigrations } from './migrations-0014-console.js';

/**
 * Migration 0014 on a database as 0013 left it: the console's search keys are filled for every
 * request that holds personal data (in pages of 500: more than two pages here), left null for
 * erased requests and for a payload it cannot read; the indexes and the history's correction
 * flag are there afterwards.
 */
const HELD = 1203;

for (const kind of await testDbKinds()) {
  describe(`migration 0014_console back-fills the search keys (${kind})`, { timeout: 120_000 }, () => {
    let t: TestDb;
    // biome-ignore lint/suspicious/noExplicitAny: the tables as they were before the migration
    let old: any;
    beforeAll(async () => {
      t = await createTestDb(kind);
      old = t.db.kysely;
      // Back to before the migration.
      for (const index of ['requests_queue', 'requests_search_name', 'requests_birth_number_key'])
        await t.db.kysely.schema.dropIndex(index).execute();
      for (const column of ['search_name', 'birth_date', 'birth_number_key'])
        await t.db.kysely.schema.alterTable('requests').dropColumn(column).execute();
      await t.db.kysely.schema.alterTable('request_status_history').dropColumn('correction').execute();
      await t.db.kysely.schema.dropTable('console_sessions').execute();

      const row = (i: number, payload: string, erased: boolean) => ({
        id: `m14-${String(i).padStart(6, '0')}`,
        reference: `ROS-2025-${String(i + 1).padStart(6, '0')}`,
        language: 'cs',
        duplicate: 0,
        via_nia: 0,
        payload,
        person_key: erased ? null : `test:${i}`,
        idempotency_key: null,
        body_hash: erased ? '' : 'x',
        created_at: '2025-06-01T00:00:00.000Z',
        erased_at: erased ? '2026-01-01T00:00:00.000Z' : null,
      });
      const rows = Array.from({ length: HELD }, (_, i) =>
        row(
          i,
          JSON.stringify({
            first_name: i % 2 ? 'Jan' : 'Žofie',
            last_name: `Nováková ${i}`,
            // Some without a birth number, some with a date the key does not take.
            birth_date: i % 5 === 0 ? '5.7.1990' : '1990-07-05',
            birth_number: i % 3 === 0 ? '' : `${9007050000 + i}`,
          }),
          false,
        ),
      );
      rows.push(row(HELD, '{}', true), row(HELD + 1, '{not json', false));
      for (let i = 0; i < rows.length; i += 200)
        await old
          .insertInto('requests')
          .values(rows.slice(i, i + 200))
          .execute();
      await old
        .insertInto('request_status_history')
        .values({ request_id: 'm14-000001', status: 'received', at: '2025-06-02T00:00:00.000Z' })
        .execute();
      const up = consoleMigrations(t.db.dialect)['0014_console']?.up;
      if (!up) throw new Error('no migration');
      await up(t.db.kysely);
    });
    afterAll(async () => {
      await t?.cleanup();
    });

    const keysOf = async () =>
      t.db.kysely
        .selectFrom('requests')
        .select(['id', 'payload', 'erased_at', 'search_name', 'birth_date', 'birth_number_key'])
        .orderBy('id')
        .execute();

    it('fills every held request with the keys the store writes; erased and unreadable rows stay null', async () => {
      const rows = await keysOf();
      expect(rows).toHaveLength(HELD + 2);
      for (const r of rows.slice(0, HELD)) {
        const { search_name, birth_date, birth_number_key } = r;
        expect({ search_name, birth_date, birth_number_key }, r.id).toEqual(
          searchKeysOf(storedFormValues(r.payload)),
        );
        expect(search_name).toMatch(/^novakova \d+ (jan|zofie)$/);
      }
      expect(rows.filter((r) => r.birth_number_key !== null)).toHaveLength(HELD - Math.ceil(HELD / 3));
      expect(rows.filter((r) => r.birth_date !== null)).toHaveLength(HELD - Math.ceil(HELD / 5));
      for (const r of rows.slice(HELD))
        expect([r.search_name, r.birth_date, r.birth_number_key], r.id).toEqual([null, null, null]);
    });

    it('makes the indexes and the correction flag (0 on the rows already there)', async () => {
      const indexes =
        kind === 'sqlite'
          ? await sql<{ name: string }>`select name from sqlite_master where type = 'index'`.execute(
              t.db.kysely,
            )
          : await sql<{
              name: string;
            }>`select indexname as name from pg_indexes where schemaname = current_schema()`.execute(
              t.db.kysely,
            );
      const names = indexes.rows.map((r) => r.name);
      for (const index of ['requests_queue', 'requests_search_name', 'requests_birth_number_key'])
        expect(names).toContain(index);
      const history = await t.db.kysely.selectFrom('request_status_history').select('correction').execute();
      expect(history.map((h) => Number(h.correction))).toEqual([0]);
    });

    it('keeps the names in byte order on PostgreSQL, whatever the database collation (the prefix range)', async () => {
      if (kind === 'sqlite') {
        // SQLite compares text by bytes unless a column says otherwise; this one does not.
        const r = await sql<{ sql: string }>`select sql from sqlite_master where name = 'requests'`.execute(
          t.db.kysely,
        );
        expect(r.rows[0]?.sql ?? '').not.toMatch(/search_name[^,]*collate/i);
        return;
      }
      const r = await sql<{ collation: string | null }>`select collation_name as collation
        from information_schema.columns
        where table_schema = current_schema() and table_name = 'requests' and column_name = 'search_name'`.execute(
        t.db.kysely,
      );
      expect(r.rows[0]?.collation).toBe('C');
    });
  });
}
