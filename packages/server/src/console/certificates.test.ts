import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isCertificateOf } from '../intake/certificate.js';
import { saveRecords } from '../records/repository.js';
import { identityKey, type PersonIdentity } from '../requests/person.js';
import { eraseRequests } from '../retention/erase.js';
import { createTestDb, type TestDb, testDbKinds } from '../test/databases.js';
import { registerCertificate, storedRequest } from '../test/requests.js';
import { certificatesOfRequest } from './certificates.js';

/**
 * The certificates a clerk picks from are those of the request's person, resolved as the check
 * of an issued certificate resolves it (intake/certificate.ts): every one offered passes
 * isCertificateOf, and every certificate of the register that passes it is offered.
 */
const identity = (over: Partial<PersonIdentity>): PersonIdentity => ({
  first_name: 'Žofie',
  last_name: 'Nová',
  birth_date: '',
  birth_number: '',
  aifo: '',
  document_number: '',
  ...over,
});

for (const kind of await testDbKinds()) {
  describe(`the certificates of a request's person (${kind})`, { timeout: 60_000 }, () => {
    let t: TestDb;
    const requests: Array<{ reference: string; personKey: string }> = [];
    const all: string[] = [];
    beforeAll(async () => {
      t = await createTestDb(kind);
    });
    afterAll(async () => {
      await t?.cleanup();
    });
    /** A request with this person key, kept for the cross-check at the end. */
    const request = async (values: Record<string, string>, personKey: string) => {
      const r = await storedRequest(t.db, values, { personKey });
      requests.push({ reference: r.reference, personKey });
      return r.reference;
    };

    it('a linked person: each certificate with its validity check, the longest valid first', async () => {
      const current = await registerCertificate(
        t.db,
        7101,
        { jmeno: 'Radek', prijmeni: 'Registrovaný' },
        '2031-05-06',
      );
      // An older one of the same person, expired, and a revoked one.
      await saveRecords(t.db, [
        {
          id: 7102,
          person_id: 7101,
          stav: 'Ano',
          platnost_do: '2020-01-31',
          a1a3_valid_until: null,
          a2_valid_until: null,
          first_name: 'Radek',
          last_name: 'Registrovaný',
        },
        {
          id: 7103,
          person_id: 7101,
          stav: 'Ne',
          platnost_do: '2030-02-03',
          a1a3_valid_until: null,
          a2_valid_until: null,
          first_name: 'Radek',
          last_name: 'Registrovaný',
        },
      ]);
      all.push(current, '7102x2052', '7103x2035');
      const ref = await request({}, 'person:7101');
      const certs = await certificatesOfRequest(t.db, ref.toLowerCase(), new Date('2026-12-01T12:00:00Z'));
      expect(certs).toEqual([
        {
          id: current,
          validTo: '2031-05-06',
          inForce: true,
          validity: { data: { stav: 'Ano', platnost_do: '06.05.2031', jmeno: 'Rad', prijmeni: 'Reg' } },
        },
        {
          id: '7103x2035',
          validTo: '2030-02-03',
          inForce: false,
          validity: { data: { stav: 'Ne', platnost_do: '03.02.2030', jmeno: 'Rad', prijmeni: 'Reg' } },
        },
        {
          id: '7102x2052',
          validTo: '2020-01-31',
          inForce: false,
          validity: { data: { stav: 'Ne', platnost_do: '31.01.2020', jmeno: 'Rad', prijmeni: 'Reg' } },
        },
      ]);
    });

    it('a new applicant put into the register later: by birth number, AIFO, or names, birth date and document', async () => {
      const rc = '926123/0006';
      all.push(await registerCertificate(t.db, 7201, { jmeno: 'Žofie', prijmeni: 'Nová', rc }));
      const byRc = await request({ birth_number: rc }, identityKey(identity({ birth_number: rc })) as string);
      all.push(
        await registerCertificate(t.db, 7202, {
          jmeno: 'Žofie',
          prijmeni: 'Nová',
          aifo: 'AIFO-7202',
        } as never),
      );
      const byAifo = await request(
        { aifo: 'AIFO-7202' },
        identityKey(identity({ aifo: 'AIFO-7202' })) as string,
      );
      const person = {
        first_name: 'Joan',
        last_name: 'Smith',
        birth_date: '1980-04-05',
        document_number: 'X 123',
      };
      all.push(
        await registerCertificate(t.db, 7203, {
          jmeno: 'Joan',
          prijmeni: 'Smith',
          dat_nar: '1980-04-05',
          typ_op_pas: 'PAS',
          op_pas: 'x123',
        } as never),
      );
      const byNames = await request(person, identityKey(identity(person)) as string);
      for (const [ref, id] of [
        [byRc, 7201],
        [byAifo, 7202],
        [byNames, 7203],
      ] as const)
        expect(
          (await certificatesOfRequest(t.db, ref)).map((c) => c.id.split('x')[0]),
          ref,
        ).toEqual([String(id)]);
    });

    it("none for a stranger, another person's key, an erased or unknown request", async () => {
      const stranger = await request({ birth_number: '736028/5163' }, 'rc:not-in-the-register');
      expect(await certificatesOfRequest(t.db, stranger)).toEqual([]);
      // The same birth number as person 7201, but linked to nobody of that identity: a key of its own.
      const other = await request(
        { birth_number: '926123/0006' },
        identityKey(identity({ aifo: 'AIFO-x' })) as string,
      );
      expect(await certificatesOfRequest(t.db, other)).toEqual([]);
      const gone = await request({}, 'person:7101');
      await eraseRequests(t.db, [gone], new Date());
      expect(await certificatesOfRequest(t.db, gone)).toEqual([]);
      expect(await certificatesOfRequest(t.db, 'ROS-2099-999999')).toEqual([]);
      expect(await certificatesOfRequest(t.db, 'not a reference')).toEqual([]);
    });

    it('offers exactly the certificates that the issue check accepts, for every request above', async () => {
      for (const r of requests) {
        const row = await t.db.kysely
          .selectFrom('requests')
          .select('person_key')
          .where('reference', '=', r.reference)
          .executeTakeFirstOrThrow();
        const offered = (await certificatesOfRequest(t.db, r.reference)).map((c) => c.id);
        const accepted: string[] = [];
        for (const id of all) if (await isCertificateOf(t.db.kysely, row.person_key, id)) accepted.push(id);
        expect(offered.sort(), r.reference).toEqual(accepted.sort());
      }
    });
  });
}
