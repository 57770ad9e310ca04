import { type Compilable, CompiledQuery, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../db/database.js';
import { encodeCursor } from '../intake/paging.js';
import { birthNumberKey, searchName } from '../requests/searchKeys.js';
import { createTestDb, type TestDb, testDbKinds } from '../test/databases.js';
import { queuePageQuery } from './queue.js';
import { searchQuery } from './search.js';

/**
 * The queue's page and the name search stay index reads on both databases (issue 38: paging that
 * holds at 100,000 requests): each query's plan, as the database itself gives it (SQLite's
 * EXPLAIN QUERY PLAN without statistics, PostgreSQL's EXPLAIN after ANALYZE), reads its index, with no full scan of
 * `requests` and, for the queue, no sort. The timings are bench/console-queue.mjs's.
 */

const SURNAMES = ['Novák', 'Svoboda', 'Dvořák', 'Černý', 'Procházka', 'Kučera', 'Veselý', 'Horák'];
const GIVEN = ['Jan', 'Petr', 'Eva', 'Jana', 'Tomáš', 'Marie', 'Lucie', 'Martin'];
/** As a register's requests stand after a while: most decided, a few in each open status. */
const STATUSES = [
  ...['new', 'new', 'received', 'in_progress', 'documents_needed'],
  ...Array.from({ length: 20 }, (_, i) => (i % 10 === 0 ? 'refused' : 'issued')),
];

/** `count` requests as the store writes them, in batches (a few kinds of each column). */
async function seed(db: Db, count: number): Promise<void> {
  for (let start = 0; start < count; start += 200) {
    const rows = Array.from({ length: Math.min(200, count - start) }, (_, j) => {
      const i = start + j;
      const first = GIVEN[i % GIVEN.length] as string;
      const last = `${SURNAMES[(i >> 3) % SURNAMES.length]}${i % 97}`;
      const birthDate = `19${50 + (i % 50)}-0${1 + (i % 9)}-1${i % 10}`;
      return {
        id: `plan-${String(i).padStart(8, '0')}`,
        reference: `ROS-2025-${String(i + 1).padStart(6, '0')}`,
        language: 'cs',
        duplicate: 0,
        via_nia: i % 3 === 0 ? 1 : 0,
        payload: JSON.stringify({ first_name: first, last_name: last, birth_date: birthDate }),
        person_key: `test:${i}`,
        idempotency_key: null,
        body_hash: 'x',
        created_at: new Date(Date.UTC(2025, 0, 1) + Math.floor(i / 3) * 60_000).toISOString(),
        status: STATUSES[i % STATUSES.length] as string,
        search_name: searchName(last, first),
        birth_date: birthDate,
        birth_number_key: birthNumberKey(`${String(5000000000 + i)}`),
      };
    });
    await db.kysely.insertInto('requests').values(rows).execute();
  }
  // PostgreSQL's autovacuum analyses a table that grew; SQLite has no statistics unless asked
  // (the server never runs ANALYZE): each as in production.
  if (db.dialect === 'postgres') await sql`analyze requests`.execute(db.kysely);
}

/** The plan of a query, one line per step. */
async function plan(t: TestDb, query: Compilable): Promise<string> {
  const q = query.compile();
  const explain = t.db.dialect === 'sqlite' ? 'explain query plan ' : 'explain ';
  const r = await t.db.kysely.executeQuery<Record<string, unknown>>(
    CompiledQuery.raw(`${explain}${q.sql}`, [...q.parameters]),
  );
  const text = r.rows.map((row) => String(row.detail ?? row['QUERY PLAN'])).join('\n');
  // ROS_SHOW_PLANS=1: print them (docs/console-data.md "Index plans" quotes them).
  if (process.env.ROS_SHOW_PLANS) console.log(`${t.db.dialect}: ${q.sql}\n${text}\n`);
  return text;
}

for (const kind of await testDbKinds()) {
  describe(`the console's queries read their indexes (${kind})`, { timeout: 120_000 }, () => {
    let t: TestDb;
    beforeAll(async () => {
      t = await createTestDb(kind);
      await seed(t.db, 6000);
    });
    afterAll(async () => {
      await t?.cleanup();
    });
    const fullScan = (p: string) =>
      kind === 'sqlite' ? /SCAN requests(?! USING)/.test(p) : /Seq Scan on requests/.test(p);

    const queuePlans = async () => {
      const after = encodeCursor({ created_at: '2025-01-01T10:00:00.000Z', reference: 'ROS-2025-000600' });
      for (const tab of ['paper_new', 'received', 'documents_needed'] as const)
        for (const cursor of [undefined, after]) {
          const p = await plan(t, queuePageQuery(t.db, { tab, cursor, limit: 50 }));
          expect(p, p).toMatch(/requests_queue/);
          expect(fullScan(p), p).toBe(false);
          expect(p, p).not.toMatch(/TEMP B-TREE|Sort/);
        }
    };
    const searchPlans = async () => {
      const cursor = Buffer.from(JSON.stringify(['n', 'novak3 jan', 'ROS-2025-000100'])).toString(
        'base64url',
      );
      for (const q of [
        { name: 'novák', limit: 50 },
        { name: 'Dvořák1 E', birthDate: '1957-08-17', limit: 50 },
        { name: 'novak', cursor, limit: 50 },
      ]) {
        const p = await plan(t, searchQuery(t.db, q).query);
        expect(p, p).toMatch(/requests_search_name/);
        expect(fullScan(p), p).toBe(false);
        // Read in the index's order and stopped after the page: the sort is only of equal names.
        expect(p, p).not.toMatch(/Bitmap Heap Scan|TEMP B-TREE FOR ORDER BY/);
      }
      const p = await plan(t, searchQuery(t.db, { birthNumber: '5000000042', limit: 50 }).query);
      expect(p, p).toMatch(/requests_birth_number_key/);
      expect(fullScan(p), p).toBe(false);
    };

    it('a page of the queue, first and after a cursor: the queue index, no sort', queuePlans);
    it(
      'a search by name (with a birth date, after a cursor) and by birth number: their indexes',
      searchPlans,
    );
    // Defined on SQLite only (PostgreSQL keeps its statistics itself): no skipped test in CI.
    if (kind === 'sqlite')
      it('the same on SQLite once an operator has run ANALYZE', async () => {
        await sql`analyze`.execute(t.db.kysely);
        await queuePlans();
        await searchPlans();
      });
  });
}
