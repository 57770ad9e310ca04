import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Catalogue, FIELDS } from '@ros/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { run } from '../cli/persons.js';
import { DEMO_PERSONS, seedDemoPersons } from '../demo/persons.js';
import { createTestDb, type TestDb, testDbKinds } from '../test/databases.js';
import {
  loadPersonFile,
  PersonImportError,
  parsePersonFile,
  personRowSchema,
  personRowSchemaOf,
} from './import.js';
import { findByDocument, findForRetry, getPerson } from './persons.js';

const JSON_FILE = `[
  {
    "id": 5001,
    "jmeno": "Jiří",
    "prijmeni": "Šťastný",
    "rc": "850315/1008",
    "typ_op_pas": "ID",
    "op_pas": "AB 123",
    "documents": [{ "type": "P", "number": "P-99" }],
    "activities": [{ "zam_od": "01/2020", "zam_do": "12/2021", "typ": 1, "zamestnavatel": "X", "funkce": "Y" }]
  },
  { "jmeno": "Eva", "prijmeni": "Malá", "web_st5_kody": ["DE", "AT"] }
]`;

const CSV_FILE = [
  'id,jmeno,prijmeni,rc,typ_op_pas,op_pas,web_st5_kody,documents,abroad_stay',
  '6001,Petr,Černý,780704/1000,ID,111 222,DE;AT,P:X1,"[{""stat"":""DE"",""duvod"":""Studium""}]"',
  '6002,"Jana, ml.",Bílá,,P,X2,,,',
].join('\n');

describe('parsePersonFile', () => {
  it('reads JSON with ids, documents and lists', () => {
    const rows = parsePersonFile(JSON_FILE, 'json');
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({ id: 5001, documents: [{ type: 'P', number: 'P-99' }] });
    expect(rows[0]?.person).toMatchObject({ jmeno: 'Jiří', op_pas: 'AB 123' });
    expect(rows[1]?.person.web_st5_kody).toEqual(['DE', 'AT']);
    expect(rows[1]?.person).not.toHaveProperty('rc');
  });

  it('reads { "persons": [...] } too', () => {
    expect(parsePersonFile('{"persons":[{"jmeno":"A","prijmeni":"B"}]}', 'json')).toHaveLength(1);
  });

  it('reads CSV with quoted cells, lists, documents and JSON cells', () => {
    const rows = parsePersonFile(CSV_FILE, 'csv');
    expect(rows[0]).toMatchObject({ id: 6001, documents: [{ type: 'P', number: 'X1' }] });
    expect(rows[0]?.person).toMatchObject({
      jmeno: 'Petr',
      web_st5_kody: ['DE', 'AT'],
      abroad_stay: [{ stat: 'DE', duvod: 'Studium' }],
    });
    expect(rows[1]?.person).toMatchObject({ jmeno: 'Jana, ml.', prijmeni: 'Bílá', typ_op_pas: 'P' });
    expect(rows[1]?.person).not.toHaveProperty('rc');
  });

  it('reports a bad JSON row with its line', () => {
    const bad = JSON_FILE.replace('"rc": "850315/1008"', '"rc": "851315/1008"');
    expect(() => parsePersonFile(bad, 'json')).toThrow(/line 2: rc: birthNumberInvalidFormat/);
    const missing = '[\n{"jmeno":"A","prijmeni":"B"},\n\n{"jmeno":"A"}\n]';
    expect(() => parsePersonFile(missing, 'json')).toThrow(/line 4: prijmeni/);
    expect(() => parsePersonFile('[{"jmeno":"A","prijmeni":"B","typo":1}]', 'json')).toThrow(
      /line 1: .*typo/,
    );
    expect(() => parsePersonFile('{"x":1}', 'json')).toThrow(PersonImportError);
    expect(() => parsePersonFile('[{', 'json')).toThrow(/not valid JSON/);
  });

  it('reports bad CSV rows with their lines', () => {
    expect(() => parsePersonFile(`${CSV_FILE}\n7001,Ota,,,,,,,`, 'csv')).toThrow(/line 4: prijmeni/);
    expect(() => parsePersonFile(`${CSV_FILE}\n7001,Ota`, 'csv')).toThrow(
      /line 4: 2 fields, the header has 9/,
    );
    expect(() => parsePersonFile('jmeno,prijmeni,oops\nA,B,C', 'csv')).toThrow(
      /line 1: unknown column "oops"/,
    );
    expect(() => parsePersonFile('jmeno,prijmeni,activities\nA,B,[x', 'csv')).toThrow(/line 2: activities/);
    expect(() => parsePersonFile('id,jmeno,prijmeni\n1,A,B\n1,C,D', 'csv')).toThrow(
      /line 3: id 1 appears twice/,
    );
  });
});

describe('the register columns the catalogue names (issue 34)', () => {
  /** The first problem of a person row with `column` set to `value`, or null when it is accepted. */
  const problem = (column: string, value: unknown, schema: z.ZodType = personRowSchema) => {
    const parsed = schema.safeParse({ jmeno: 'A', prijmeni: 'B', [column]: value });
    if (parsed.success) return null;
    const issue = parsed.error.issues[0];
    return `${issue?.path.join('.')}: ${issue?.message}`;
  };
  const TEXT_KINDS = ['text', 'email', 'telephone', 'municipality', 'district'];
  const CODE_KINDS = ['country', 'list'];
  const named = Object.entries(FIELDS).flatMap(([name, spec]) =>
    'register' in spec && spec.register !== undefined ? [{ name, column: spec.register, spec }] : [],
  );

  it('checks each column an entry names by that entry: a text of its length, a code, a month/year', () => {
    expect(named.map((n) => n.column)).toEqual(
      expect.arrayContaining(['jmeno', 'email', 'web_zamestnavatel']),
    );
    for (const { name, column, spec } of named) {
      expect(Object.keys(personRowSchema.shape), name).toContain(column);
      if (TEXT_KINDS.includes(spec.kind)) {
        expect(problem(column, 'x'.repeat(spec.maxLength)), name).toBeNull();
        expect(problem(column, 'x'.repeat(spec.maxLength + 1)), name).toBe(
          `${column}: Too big: expected string to have <=${spec.maxLength} characters`,
        );
      } else if (CODE_KINDS.includes(spec.kind)) {
        expect(problem(column, 'CZ'), name).toBeNull();
        expect(problem(column, 'cz'), name).toBe(`${column}: must be a code such as CZ, ID or EMAIL`);
      } else if (spec.kind === 'monthYear')
        expect(problem(column, '13/2020'), name).toBe(`${column}: must be MM/YYYY`);
      // What the register does not always know may be left out; jmeno and prijmeni it always holds.
      const { [column]: _left, ...without } = { jmeno: 'A', prijmeni: 'B' } as Record<string, string>;
      expect(personRowSchema.safeParse(without).success, name).toBe(!['jmeno', 'prijmeni'].includes(column));
    }
  });

  it('takes the length from the entry: a catalogue with a shorter first name checks jmeno by it', () => {
    const shorter: Catalogue = { ...FIELDS, first_name: { ...FIELDS.first_name, maxLength: 20 } };
    expect(problem('jmeno', 'x'.repeat(21))).toBeNull();
    expect(problem('jmeno', 'x'.repeat(21), personRowSchemaOf(shorter))).toBe(
      'jmeno: Too big: expected string to have <=20 characters',
    );
    // A column that no entry names and the import does not check itself is refused, not let through.
    const { birth_name: _dropped, ...withoutBirthName } = FIELDS;
    expect(() => personRowSchemaOf(withoutBirthName)).toThrow(
      'the register column rodne_prijm needs one check',
    );
  });
});

for (const kind of await testDbKinds()) {
  describe(`register storage (${kind})`, () => {
    let t: TestDb;
    beforeAll(async () => {
      t = await createTestDb(kind);
    });
    afterAll(async () => t?.cleanup());

    it('loads a file, then replaces a person by id and adds the others', async () => {
      expect(await loadPersonFile(t.db, JSON_FILE, 'json')).toEqual({ created: 2, updated: 0 });
      const p = await findByDocument(t.db, {
        first_name: 'jiri',
        last_name: 'STASTNY',
        type: 'OP_CR',
        number: 'ab123',
      });
      expect(p?.answer.jmeno).toBe('Jiří');
      const byPassport = await findByDocument(t.db, {
        first_name: 'Jiří',
        last_name: 'Šťastný',
        type: 'PAS',
        number: 'p-99',
      });
      expect(byPassport?.answer.jmeno).toBe('Jiří');
      const retry = { birth_number: '8503151008', match: true, matchedPersonId: 5001 };
      expect((await findForRetry(t.db, retry))?.answer.prijmeni).toBe('Šťastný');

      const changed = JSON_FILE.replace('"op_pas": "AB 123"', '"op_pas": "CD 456"');
      expect(await loadPersonFile(t.db, changed, 'json')).toEqual({ created: 1, updated: 1 });
      expect(
        await findByDocument(t.db, {
          first_name: 'Jiří',
          last_name: 'Šťastný',
          type: 'OP_CR',
          number: 'AB123',
        }),
      ).toBeUndefined();
      expect((await getPerson(t.db, 5001))?.documents).toEqual([
        { type: 'ID', number: 'CD456' },
        { type: 'P', number: 'P-99' },
      ]);
    });

    it('stores nothing when one row is bad', async () => {
      const before = await t.db.kysely
        .selectFrom('persons')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirst();
      await expect(loadPersonFile(t.db, `${CSV_FILE}\n6003,Ota,,,,,,,`, 'csv')).rejects.toThrow(
        PersonImportError,
      );
      const after = await t.db.kysely
        .selectFrom('persons')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirst();
      expect(Number(after?.n)).toBe(Number(before?.n));
      expect(await getPerson(t.db, 6001)).toBeUndefined();
    });

    it('seeds the demo people once, with their certificates', async () => {
      await seedDemoPersons(t.db);
      await seedDemoPersons(t.db);
      for (const p of DEMO_PERSONS)
        expect((await getPerson(t.db, p.id ?? 0))?.person.jmeno).toBe(p.person.jmeno);
      const records = await t.db.kysely
        .selectFrom('records')
        .select(['id', 'person_id'])
        .where('id', '>=', 1001)
        .execute();
      expect(records.map((r) => Number(r.person_id)).sort()).toEqual([1001, 1003, 1004, 1005, 1006, 1007]);
      // A person added afterwards gets an id of its own.
      const r = await loadPersonFile(t.db, '[{"jmeno":"Nový","prijmeni":"Člověk"}]', 'json');
      expect(r.created).toBe(1);
    });

    it('ros-admin persons load | show | find', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'ros-persons-'));
      const file = join(dir, 'people.csv');
      writeFileSync(file, CSV_FILE);
      const lines: string[] = [];
      const out = (l: string) => lines.push(l);
      const ctx = { config: t.config, db: t.db, version: 'test' };
      expect(await run(['load', file], ctx, out)).toBe(0);
      expect(lines.at(-1)).toMatch(/Loaded 2 persons/);
      expect(await run(['show', '6001'], ctx, out)).toBe(0);
      expect(JSON.parse(lines.at(-1) ?? '{}')).toMatchObject({ id: 6001, jmeno: 'Petr', record: null });
      expect(await run(['find', '--last', 'cerny'], ctx, out)).toBe(0);
      expect(lines.at(-1)).toBe('6001\tPetr Černý');
      expect(await run(['find', '--document', '111222'], ctx, out)).toBe(0);
      expect(await run(['show', '999999'], ctx, out)).toBe(1);
      const bad = join(dir, 'bad.json');
      writeFileSync(bad, '[{"jmeno":"A"}]');
      expect(await run(['load', bad], ctx, out)).toBe(1);
      expect(lines.at(-1)).toMatch(/line 1: prijmeni/);
      expect(await run(['load', join(dir, 'people.txt')], ctx, out)).toBe(2);
      expect(await run(['bogus'], ctx, out)).toBe(2);
    });
  });
}
