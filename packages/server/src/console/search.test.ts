import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eraseRequests } from '../retention/erase.js';
import { createTestDb, type TestDb, testDbKinds } from '../test/databases.js';
import { storedRequest } from '../test/requests.js';
import { ConsoleQueryError } from './queue.js';
import { prefixEnd, type SearchQuery, type SearchRow, searchRequests } from './search.js';

const rejected = async (p: Promise<unknown>, field: string) => {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err, field).toBeInstanceOf(ConsoleQueryError);
  expect((err as ConsoleQueryError).field).toBe(field);
};

it('prefixEnd is the first string after every string with the prefix', () => {
  expect(prefixEnd('novak')).toBe('noval');
  expect(prefixEnd('novak ')).toBe('novak!');
  expect(prefixEnd('a\u{d7ff}')).toBe('a\u{e000}');
  for (const s of ['novak', 'novak jan', 'novakova eva', 'novak\u{10fff0}'])
    expect(s >= 'novak' && s < prefixEnd('novak')).toBe(true);
  expect('noval' < prefixEnd('novak')).toBe(false);
});

for (const kind of await testDbKinds()) {
  describe(`the console's search (${kind})`, { timeout: 60_000 }, () => {
    let t: TestDb;
    const refs: Record<string, string> = {};
    beforeAll(async () => {
      t = await createTestDb(kind);
      const people = {
        jan: { first_name: 'Jan', last_name: 'Novák', birth_date: '1990-07-05', birth_number: '900705/1236' },
        jan2: {
          first_name: 'Jan',
          last_name: 'Novák',
          birth_date: '1971-01-02',
          birth_number: '710102/0007',
        },
        eva: {
          first_name: 'Eva',
          last_name: 'Nováková',
          birth_date: '1985-03-04',
          birth_number: '855304/1230',
        },
        novotny: { first_name: 'Jan', last_name: 'Novotný', birth_date: '1990-07-05', birth_number: '' },
        gone: {
          first_name: 'Jan',
          last_name: 'Novák',
          birth_date: '1990-07-05',
          birth_number: '900705/1236',
        },
      };
      for (const [key, over] of Object.entries(people))
        refs[key] = (await storedRequest(t.db, over)).reference;
      await eraseRequests(t.db, [refs.gone as string], new Date());
    });
    afterAll(async () => {
      await t?.cleanup();
    });
    const search = async (q: Omit<SearchQuery, 'limit'>) =>
      (await searchRequests(t.db, { limit: 20, ...q })).rows.map((r) => r.reference);

    it('by name: a prefix of "surname given" in any case, with or without diacritics', async () => {
      const novak = [refs.jan, refs.jan2, refs.eva];
      expect((await search({ name: 'novák' })).sort()).toEqual(novak.sort());
      expect((await search({ name: '  NOVAK ' })).sort()).toEqual(novak.sort());
      expect((await search({ name: 'Novák Jan' })).sort()).toEqual([refs.jan, refs.jan2].sort());
      expect((await search({ name: 'novak  j' })).sort()).toEqual([refs.jan, refs.jan2].sort());
      expect(await search({ name: 'nováková' })).toEqual([refs.eva]);
      expect((await search({ name: 'nov' })).length).toBe(4);
      expect(await search({ name: 'jan novák' })).toEqual([]);
      expect(await search({ name: 'novam' })).toEqual([]);
    });

    it('narrowed by birth date (ISO or as typed); the rows carry the name as written', async () => {
      expect(await search({ name: 'novák', birthDate: '1990-07-05' })).toEqual([refs.jan]);
      expect(await search({ name: 'n', birthDate: '5.7.1990' })).toEqual([refs.jan, refs.novotny]);
      const [row] = (await searchRequests(t.db, { name: 'nováková', limit: 5 })).rows;
      expect(row).toMatchObject({ name: 'Eva Nováková', birthDate: '1985-03-04', erased: false });
    });

    it('by birth number, exactly, with or without the slash', async () => {
      expect(await search({ birthNumber: '900705/1236' })).toEqual([refs.jan]);
      expect(await search({ birthNumber: ' 9007051236 ' })).toEqual([refs.jan]);
      expect(await search({ birthNumber: '900705/123' })).toEqual([]);
      expect(await search({ birthNumber: '710102/0007' })).toEqual([refs.jan2]);
    });

    it('an erased request only by its reference, marked erased, with nothing of the person', async () => {
      const gone = refs.gone as string;
      const rows = (await searchRequests(t.db, { reference: gone.toLowerCase(), limit: 5 })).rows;
      expect(rows).toEqual([
        expect.objectContaining<Partial<SearchRow>>({
          reference: gone,
          name: null,
          birthDate: null,
          erased: true,
        }),
      ]);
      expect(await search({ name: 'novak jan' })).not.toContain(gone);
      expect(await search({ birthNumber: '9007051236' })).not.toContain(gone);
      expect(await search({ reference: refs.jan })).toEqual([refs.jan]);
      expect(await search({ reference: 'ROS-2099-999999' })).toEqual([]);
    });

    it('pages a name search in name order, none twice, none skipped among equal names', async () => {
      const same: string[] = [];
      for (let i = 0; i < 11; i++)
        same.push((await storedRequest(t.db, { first_name: 'Jan', last_name: 'Dvořák' })).reference);
      same.push((await storedRequest(t.db, { first_name: 'Adam', last_name: 'Dvořák' })).reference);
      const seen: string[] = [];
      let cursor: string | undefined;
      for (let n = 0; n < 20; n++) {
        const page = await searchRequests(t.db, { name: 'dvořák', cursor, limit: 3 });
        seen.push(...page.rows.map((r) => r.reference));
        if (page.next === null) break;
        cursor = page.next;
      }
      // "dvorak adam" first, then the Jans by reference.
      expect(seen).toEqual([same[11], ...same.slice(0, 11).sort()]);
    });

    it('refuses what it does not search by, bounded before use', async () => {
      const cases: Array<[Omit<SearchQuery, 'limit'>, string]> = [
        [{}, 'name'],
        [{ name: '   ' }, 'name'],
        [{ name: 'x'.repeat(121) }, 'name'],
        [{ name: 'nov%' }, 'name'],
        [{ name: 'nov_k' }, 'name'],
        [{ name: 'nov\u0000ak' }, 'name'],
        [{ name: '\u0301' }, 'name'],
        [{ name: 'novák', birthNumber: '9007051236' }, 'birthNumber'],
        [{ reference: 'ROS-2026-000001', name: 'novák' }, 'name'],
        [{ birthDate: '1990-07-05' }, 'name'],
        [{ birthNumber: '9007051236', birthDate: '1990-07-05' }, 'birthDate'],
        [{ name: 'novák', birthDate: '1990-02-30' }, 'birthDate'],
        [{ name: 'novák', birthDate: '1'.repeat(13) }, 'birthDate'],
        [{ birthNumber: 'abc' }, 'birthNumber'],
        [{ birthNumber: '9'.repeat(21) }, 'birthNumber'],
        [{ reference: 'ROS-1' }, 'reference'],
        [{ reference: `ROS-2026-000001${' '.repeat(40)}` }, 'reference'],
      ];
      for (const [q, field] of cases) await rejected(searchRequests(t.db, { ...q, limit: 5 }), field);
      await rejected(searchRequests(t.db, { name: 'n', limit: 0 }), 'limit');
      // A cursor belongs to its search: another prefix, mode or a forged one is refused.
      const page = await searchRequests(t.db, { name: 'nov', limit: 1 });
      const next = page.next as string;
      await rejected(searchRequests(t.db, { name: 'dvo', cursor: next, limit: 1 }), 'cursor');
      await rejected(searchRequests(t.db, { birthNumber: '9007051236', cursor: next, limit: 1 }), 'cursor');
      await rejected(searchRequests(t.db, { reference: refs.jan, cursor: next, limit: 1 }), 'cursor');
      const forged = Buffer.from(JSON.stringify(['n', 'nov\u0000', 'ROS-2026-000001'])).toString('base64url');
      await rejected(searchRequests(t.db, { name: 'nov', cursor: forged, limit: 1 }), 'cursor');
      expect((await searchRequests(t.db, { name: 'nov', cursor: next, limit: 1 })).rows).toHaveLength(1);
    });
  });
}
