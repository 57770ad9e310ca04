import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AppContext } from '../context.js';
import { findRecord } from '../records/repository.js';
import { createTestDb, type TestDb, testDbKinds } from '../test/databases.js';
import { run } from './records.js';

for (const kind of await testDbKinds()) {
  describe(`ros-admin records (${kind})`, () => {
    let t: TestDb;
    let ctx: AppContext;
    let lines: string[];
    const cli = async (...args: string[]) => {
      lines = [];
      return run(args, ctx, (l) => lines.push(l));
    };
    const file = (name: string, text: string) => {
      const path = join(t.dataDir, name);
      writeFileSync(path, text);
      return path;
    };
    const count = async () =>
      Number(
        (
          await t.db.kysely
            .selectFrom('records')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );

    beforeEach(async () => {
      t = await createTestDb(kind);
      ctx = { config: t.config, db: t.db, version: 'test' };
    });
    afterEach(async () => {
      await t?.cleanup();
    });

    it('loads a CSV file and updates existing ids on a second load', async () => {
      const csv = file(
        'records.csv',
        'id;first_name;last_name;platnost_do;a1a3_valid_until\n1;Jana;Nováková;2027-03-31;2027-03-31\n2;Petr;Černý;31.12.2027;\n',
      );
      expect(await cli('load', csv)).toBe(0);
      expect(lines).toEqual(['Loaded 2 certificate(s) from records.csv: 2 new, 0 updated.']);
      expect(await findRecord(t.db, 1)).toMatchObject({
        first_name: 'Jana',
        platnost_do: '2027-03-31',
        a1a3_valid_until: '2027-03-31',
        a2_valid_until: null,
        stav: 'Ano',
        revoked_at: null,
      });
      const json = file(
        'more.json',
        JSON.stringify([
          {
            id: 2,
            first_name: 'Petr',
            last_name: 'Černý',
            platnost_do: '2028-01-31',
            a2_valid_until: '2027-06-30',
          },
          { id: 3, first_name: 'Eva', last_name: 'Malá', platnost_do: '2027-05-01' },
        ]),
      );
      expect(await cli('load', json)).toBe(0);
      expect(lines).toEqual(['Loaded 2 certificate(s) from more.json: 1 new, 1 updated.']);
      expect(await findRecord(t.db, 2)).toMatchObject({
        platnost_do: '2028-01-31',
        a2_valid_until: '2027-06-30',
      });
      expect(await count()).toBe(3);
    });

    it('loads nothing when one line is wrong, and names the line', async () => {
      const csv = file(
        'bad.csv',
        'id,first_name,last_name,platnost_do\n1,Jana,Nováková,2027-03-31\n2,Petr,Černý,2027-02-29\n',
      );
      expect(await cli('load', csv)).toBe(1);
      expect(lines).toEqual([
        'bad.csv:3: platnost_do "2027-02-29" is not a date (YYYY-MM-DD or dd.mm.yyyy)',
        'Nothing was loaded: 1 problem(s) in bad.csv.',
      ]);
      expect(await count()).toBe(0);
    });

    it('loads nothing when a certificate names a person the register does not hold', async () => {
      const json = file(
        'persons.json',
        JSON.stringify([
          { id: 1, first_name: 'A', last_name: 'B', platnost_do: '2027-01-01' },
          { id: 2, first_name: 'C', last_name: 'D', platnost_do: '2027-01-01', person_id: 4242 },
        ]),
      );
      expect(await cli('load', json)).toBe(1);
      expect(lines[0]).toBe('persons.json: certificate 2: no person with person_id 4242');
      expect(await count()).toBe(0);
    });

    it('says so when the file cannot be read', async () => {
      expect(await cli('load', join(t.dataDir, 'missing.csv'))).toBe(1);
      expect(lines[0]).toMatch(/cannot read .*missing\.csv: ENOENT/);
      expect(await cli('load')).toBe(2);
    });

    it('issues a certificate and prints its check link', async () => {
      expect(
        await cli(
          'issue',
          '--id',
          '77',
          '--first-name',
          'Jana',
          '--last-name',
          'Nováková',
          '--valid-until',
          '2027-03-31',
          '--a2',
          '30.06.2027',
        ),
      ).toBe(0);
      expect(lines).toEqual([
        'Issued certificate 77, valid until 31.03.2027.',
        'Check link: /check?id=77x2061',
      ]);
      expect(await findRecord(t.db, 77)).toMatchObject({
        a1a3_valid_until: null,
        a2_valid_until: '2027-06-30',
      });
      // The same id again is refused and changes nothing.
      expect(
        await cli(
          'issue',
          '--id',
          '77',
          '--first-name',
          'X',
          '--last-name',
          'Y',
          '--valid-until',
          '2028-01-01',
        ),
      ).toBe(1);
      expect(lines[0]).toMatch(/exists already/);
      expect((await findRecord(t.db, 77))?.first_name).toBe('Jana');
    });

    it('refuses incomplete or wrong issue arguments', async () => {
      expect(await cli('issue', '--id', '1', '--first-name', 'A', '--last-name', 'B')).toBe(2);
      expect(lines[0]).toBe('ros-admin records: issue needs --valid-until');
      expect(
        await cli(
          'issue',
          '--id',
          '1',
          '--first-name',
          'A',
          '--last-name',
          'B',
          '--valid-until',
          '2027-31-12',
        ),
      ).toBe(1);
      expect(lines[0]).toMatch(/platnost_do "2027-31-12" is not a date/);
      expect(await cli('issue', '--bogus')).toBe(2);
      expect(await count()).toBe(0);
    });

    it('revokes a certificate once and shows it', async () => {
      await cli(
        'issue',
        '--id',
        '5',
        '--first-name',
        'Eva',
        '--last-name',
        'Malá',
        '--valid-until',
        '2099-01-01',
      );
      expect(await cli('revoke', '5')).toBe(0);
      expect(lines).toEqual(['Certificate 5 is revoked.']);
      const first = (await findRecord(t.db, 5))?.revoked_at;
      expect(first).toBeTruthy();
      expect(await cli('revoke', '5')).toBe(0);
      expect(lines).toEqual(['Certificate 5 was revoked already.']);
      expect((await findRecord(t.db, 5))?.revoked_at).toBe(first);
      expect(await cli('revoke', '6')).toBe(1);
      expect(await cli('revoke', 'abc')).toBe(2);

      expect(await cli('show', '5')).toBe(0);
      expect(lines.join('\n')).toMatch(/stav:\s+Ne \(revoked /);
      expect(lines.join('\n')).toMatch(/in force:\s+no/);
      expect(lines.join('\n')).toMatch(/check link:\s+\/check\?id=5x2101/);
      expect(await cli('show', '6')).toBe(1);
    });

    it('prints the demo links and its usage', async () => {
      expect(await cli('demo-links', '--base', 'http://localhost:8080/')).toBe(0);
      expect(lines[0]).toMatch(/^http:\/\/localhost:8080\/check\?id=990000001x2070 {2}valid/);
      expect(await cli()).toBe(0);
      expect(lines[0]).toMatch(/^Usage: ros-admin records/);
      expect(await cli('frobnicate')).toBe(2);
    });
  });
}
