import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changeStatus } from '../intake/status.js';
import { eraseRequests } from '../retention/erase.js';
import { createTestDb, type TestDb, testDbKinds } from '../test/databases.js';
import { storedRequest } from '../test/requests.js';
import {
  ConsoleQueryError,
  QUEUE_TABS,
  type QueueRow,
  type QueueTab,
  queueCounts,
  queuePage,
} from './queue.js';

/** Every row of a tab, page by page. */
async function walk(t: TestDb, tab: QueueTab, limit: number): Promise<{ rows: QueueRow[]; pages: number }> {
  const rows: QueueRow[] = [];
  let cursor: string | undefined;
  let pages = 0;
  for (;;) {
    const page = await queuePage(t.db, { tab, cursor, limit });
    pages++;
    rows.push(...page.rows);
    if (page.next === null) return { rows, pages };
    cursor = page.next;
  }
}

const rejected = async (p: Promise<unknown>, field: string) => {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ConsoleQueryError);
  expect((err as ConsoleQueryError).field).toBe(field);
};

for (const kind of await testDbKinds()) {
  describe(`the console's queue (${kind})`, { timeout: 60_000 }, () => {
    let t: TestDb;
    beforeAll(async () => {
      t = await createTestDb(kind);
    });
    afterAll(async () => {
      await t?.cleanup();
    });

    it('puts each open request in its tab with its counts; erased and decided requests in none', async () => {
      const at = (m: number) => new Date(Date.UTC(2026, 10, 1, 8, m));
      const paper = await storedRequest(
        t.db,
        { first_name: 'Jan Karel', last_name: 'Novák', birth_date: '1990-07-05' },
        { now: at(1) },
      );
      const nia = await storedRequest(t.db, {}, { viaNia: true, language: 'en', now: at(2) });
      const received = await storedRequest(t.db, {}, { now: at(3) });
      const working = await storedRequest(t.db, {}, { now: at(4) });
      const waiting = await storedRequest(t.db, {}, { now: at(5) });
      const decided = await storedRequest(t.db, {}, { now: at(6) });
      const erased = await storedRequest(t.db, {}, { now: at(7) });
      await changeStatus(t.db, received.reference, { status: 'received' });
      for (const r of [working, waiting, decided]) {
        await changeStatus(t.db, r.reference, { status: 'received' });
        await changeStatus(t.db, r.reference, { status: 'in_progress' });
      }
      await changeStatus(t.db, waiting.reference, { status: 'documents_needed', note: 'Pošlete pas.' });
      await changeStatus(t.db, decided.reference, { status: 'refused' });
      await changeStatus(t.db, erased.reference, { status: 'received' });
      await eraseRequests(t.db, [erased.reference], new Date());

      expect(await queueCounts(t.db)).toEqual({
        paper_new: 1,
        nia_new: 1,
        received: 1,
        in_progress: 1,
        documents_needed: 1,
      });
      const first = await queuePage(t.db, { tab: 'paper_new', limit: 10 });
      expect(first).toEqual({
        rows: [
          {
            reference: paper.reference,
            name: 'Jan Karel Novák',
            birthDate: '1990-07-05',
            viaNia: false,
            language: 'cs',
            duplicate: false,
            status: 'new',
            createdAt: at(1).toISOString(),
          },
        ],
        next: null,
      });
      const tabs: Record<QueueTab, string> = {
        paper_new: paper.reference,
        nia_new: nia.reference,
        received: received.reference,
        in_progress: working.reference,
        documents_needed: waiting.reference,
      };
      for (const tab of QUEUE_TABS) {
        const page = await queuePage(t.db, { tab, limit: 10 });
        expect(
          page.rows.map((r) => r.reference),
          tab,
        ).toEqual([tabs[tab]]);
      }
      expect((await queuePage(t.db, { tab: 'nia_new', limit: 1 })).rows[0]).toMatchObject({
        viaNia: true,
        language: 'en',
      });
    });

    it('pages oldest first with no row twice and none skipped across equal times, new requests shifting nothing', async () => {
      // 37 requests at 4 instants (ten at most share one), paged by 4, then by 1 and by 100.
      const times = [0, 1, 2, 3].map((i) => new Date(Date.UTC(2025, 0, 1, 0, 0, i)));
      const stored: Array<{ reference: string; createdAt: string }> = [];
      for (let i = 0; i < 37; i++) {
        const r = await storedRequest(t.db, {}, { now: times[i % 4] });
        await changeStatus(t.db, r.reference, { status: 'received' });
        stored.push(r);
      }
      const expected = stored
        .map((r) => [r.createdAt, r.reference] as const)
        .sort((a, b) => (a[0] === b[0] ? a[1].localeCompare(b[1]) : a[0].localeCompare(b[0])))
        .map(([, reference]) => reference);
      for (const limit of [4, 1, 100]) {
        const { rows, pages } = await walk(t, 'received', limit);
        const ours = rows.map((r) => r.reference).filter((r) => expected.includes(r));
        expect(ours, `limit ${limit}`).toEqual(expected);
        expect(new Set(rows.map((r) => r.reference)).size).toBe(rows.length);
        expect(pages).toBe(Math.max(1, Math.ceil(rows.length / limit)));
      }
      // A request that comes in while the clerk pages does not move the pages already cut.
      const page1 = await queuePage(t.db, { tab: 'received', limit: 5 });
      const late = await storedRequest(t.db, {}, { now: times[0] });
      await changeStatus(t.db, late.reference, { status: 'received' });
      const page2 = await queuePage(t.db, { tab: 'received', limit: 5, cursor: page1.next ?? '' });
      const before = page1.rows.map((r) => r.reference);
      expect(page2.rows.map((r) => r.reference).some((r) => before.includes(r))).toBe(false);
    });

    it('refuses a tab, a page size or a cursor it does not know with a typed error', async () => {
      const asked = { tab: 'received' as QueueTab, limit: 10 };
      await rejected(queuePage(t.db, { ...asked, tab: 'issued' as QueueTab }), 'tab');
      for (const limit of [0, 101, 1.5, Number.NaN])
        await rejected(queuePage(t.db, { ...asked, limit }), 'limit');
      const json = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
      for (const cursor of [
        '',
        'not a cursor',
        json(['2026-01-01T00:00:00.000Z']),
        json(['2026-01-01T00:00:00.000Z', "ROS-2026-000001' or 1=1"]),
        json(['\u0000', '\u0000']),
        'A'.repeat(500),
      ])
        await rejected(queuePage(t.db, { ...asked, cursor }), 'cursor');
    });
  });
}
