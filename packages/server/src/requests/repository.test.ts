import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb, testDbKinds } from '../test/databases.js';
import { identityKey, registerIdentity } from './person.js';
import {
  bodyHash,
  canonicalJson,
  formatReference,
  newRequestId,
  nextCounterValue,
  REQUEST_ID_PATTERN,
  referenceYear,
} from './repository.js';

describe('request ids, references and body hashes', () => {
  it('makes 144-bit base64url ids, all different', () => {
    const ids = new Set(Array.from({ length: 1000 }, () => newRequestId()));
    expect(ids.size).toBe(1000);
    for (const id of ids) expect(id).toMatch(REQUEST_ID_PATTERN);
    expect(Buffer.from([...ids][0] ?? '', 'base64url')).toHaveLength(18);
  });

  it('formats references with six digits, longer past 999999', () => {
    expect(formatReference(2026, 123)).toBe('ROS-2026-000123');
    expect(formatReference(2026, 1)).toBe('ROS-2026-000001');
    expect(formatReference(2027, 1234567)).toBe('ROS-2027-1234567');
  });

  it('takes the reference year in Prague, not in UTC', () => {
    expect(referenceYear(new Date('2026-12-31T22:59:59Z'))).toBe(2026);
    expect(referenceYear(new Date('2026-12-31T23:00:00Z'))).toBe(2027);
  });

  it('hashes the same content the same way whatever the key order', () => {
    expect(canonicalJson({ b: 1, a: [{ d: 'x', c: null }] })).toBe('{"a":[{"c":null,"d":"x"}],"b":1}');
    expect(bodyHash({ a: 1, b: 'ž' })).toBe(bodyHash({ b: 'ž', a: 1 }));
    expect(bodyHash({ a: 1 })).not.toBe(bodyHash({ a: 2 }));
    expect(bodyHash({ a: 1 })).toMatch(/^[0-9a-f]{64}$/);
  });

  it('keys a person by the strongest identifier, without personal data in the clear', () => {
    const base = {
      first_name: 'Žofie',
      last_name: 'Řeháková',
      birth_date: '1992-11-23',
      aifo: '',
      document_number: 'AB 12',
    };
    const rc = identityKey({ ...base, birth_number: '926123/0006' });
    expect(rc).toMatch(/^rc:/);
    expect(rc).toBe(identityKey({ ...base, first_name: 'Other', birth_number: '9261230006' }));
    expect(rc).not.toContain('926123');
    expect(identityKey({ ...base, birth_number: '', aifo: 'A1' })).toMatch(/^aifo:/);
    const ndd = identityKey({ ...base, birth_number: '' });
    expect(ndd).toMatch(/^ndd:/);
    expect(identityKey({ ...base, first_name: ' ZOFIE ', document_number: 'ab12', birth_number: '' })).toBe(
      ndd,
    );
    expect(identityKey({ ...base, document_number: '', birth_number: '' })).toBeNull();
  });

  it('reads a register person’s identity by the entries’ register columns, and its own for the rest', () => {
    const person = {
      jmeno: 'Žofie',
      prijmeni: 'Řeháková',
      rc: '926123/0006',
      dat_nar: '1992-11-23',
      op_pas: 'AB 12',
    };
    expect(registerIdentity(person, 'A1')).toEqual({
      first_name: 'Žofie',
      last_name: 'Řeháková',
      birth_date: '1992-11-23',
      birth_number: '926123/0006',
      aifo: 'A1',
      document_number: 'AB 12',
    });
    expect(registerIdentity({ jmeno: 'A', prijmeni: 'B', rc: null }, null)).toEqual({
      first_name: 'A',
      last_name: 'B',
      birth_date: '',
      birth_number: '',
      aifo: '',
      document_number: '',
    });
  });
});

for (const kind of await testDbKinds()) {
  describe(`reference counter (${kind})`, () => {
    let t: TestDb;
    beforeAll(async () => {
      t = await createTestDb(kind);
    });
    afterAll(async () => {
      await t?.cleanup();
    });

    it('gives 25 concurrent transactions 25 different numbers, per counter', async () => {
      const values = await Promise.all(
        Array.from({ length: 25 }, () =>
          t.db.kysely.transaction().execute((trx) => nextCounterValue(trx, 'test-2026')),
        ),
      );
      expect([...values].sort((a, b) => a - b)).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
      const other = await t.db.kysely.transaction().execute((trx) => nextCounterValue(trx, 'test-2027'));
      expect(other).toBe(1);
    });

    it('does not use up a number when the transaction rolls back', async () => {
      await expect(
        t.db.kysely.transaction().execute(async (trx) => {
          await nextCounterValue(trx, 'rollback');
          throw new Error('boom');
        }),
      ).rejects.toThrow('boom');
      expect(await t.db.kysely.transaction().execute((trx) => nextCounterValue(trx, 'rollback'))).toBe(1);
    });
  });
}
