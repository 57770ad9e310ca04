import { PERSON_KEYS, type PersonIdentity, personIdentity } from '@ros/domain';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { run as requests } from '../cli/requests.js';
import type { AppContext } from '../context.js';
import { identityKey } from '../requests/person.js';
import { createTestDb, type TestDb, testDbKinds } from '../test/databases.js';
import { registerCertificate, storedRequest } from '../test/requests.js';
import { LOOKUP_COLUMNS, registerPersonsOf } from './certificate.js';
import { createToken } from './tokens.js';

/**
 * Issue 33, item 10: `issued` with a certificate links the status page to that certificate's
 * validity check, so it must be a certificate of the request's person in the register: the
 * person the request was linked to (`person:<id>`), or for a new applicant the register person
 * with the request's identity (birth number first). Anything else, a well-formed id of no
 * certificate ("1x1") included, is 400 CERTIFICATE_MISMATCH and changes nothing; the same
 * through `ros-admin requests status`.
 */
for (const kind of await testDbKinds()) {
  describe(`an issued certificate is the request's person's (${kind})`, { timeout: 60_000 }, () => {
    let t: TestDb;
    let ctx: AppContext;
    let app: FastifyInstance;
    let token: string;
    beforeAll(async () => {
      t = await createTestDb(kind);
      ctx = { config: t.config, db: t.db, version: 'test' };
      app = await buildApp(ctx);
      await app.ready();
      token = (await createToken(t.db, 'clerk', ['requests:status', 'requests:read'], 'test')) as string;
    });
    afterAll(async () => {
      await app?.close();
      await t?.cleanup();
    });
    const post = (reference: string, body: unknown) =>
      app.inject({
        method: 'POST',
        url: `/api/intake/v1/requests/${reference}/status`,
        headers: { authorization: `Bearer ${token}` },
        payload: body as object,
      });
    const statusOf = async (reference: string) =>
      (
        await t.db.kysely
          .selectFrom('requests')
          .select('status')
          .where('reference', '=', reference)
          .executeTakeFirstOrThrow()
      ).status;
    const ready = async (reference: string) => {
      for (const status of ['received', 'in_progress'])
        expect((await post(reference, { status })).statusCode).toBe(200);
    };

    it('accepts the certificate of the linked person or of the new applicant by birth number', async () => {
      const linked = await registerCertificate(t.db, 6101);
      const r = await storedRequest(t.db, {}, { personKey: 'person:6101' });
      await ready(r.reference);
      const ok = await post(r.reference, { status: 'issued', certificate: linked });
      expect(ok.statusCode, ok.body).toBe(200);
      expect(await statusOf(r.reference)).toBe('issued');

      // A new applicant: the authority puts them into the register, then issues.
      const rc = '926123/0006';
      const fresh = await storedRequest(
        t.db,
        { birth_number: rc },
        {
          personKey: identityKey({
            first_name: 'Žofie',
            last_name: 'Nová',
            birth_date: '',
            birth_number: rc,
            aifo: '',
            document_number: '',
          }) as string,
        },
      );
      const theirs = await registerCertificate(t.db, 6102, { jmeno: 'Žofie', prijmeni: 'Nová', rc });
      await ready(fresh.reference);
      const issued = await post(fresh.reference, { status: 'issued', certificate: theirs });
      expect(issued.statusCode, issued.body).toBe(200);
    });

    it('refuses any other certificate with 400 CERTIFICATE_MISMATCH and changes nothing, also on the command line', async () => {
      const own = await registerCertificate(t.db, 6201);
      const other = await registerCertificate(t.db, 6202, { jmeno: 'Jiný', prijmeni: 'Člověk' });
      const r = await storedRequest(t.db, {}, { personKey: 'person:6201' });
      const stranger = await storedRequest(t.db);
      await ready(r.reference);
      await ready(stranger.reference);
      const [recordId, code] = own.split('x') as [string, string];
      for (const [reference, certificate] of [
        [r.reference, '1x1'],
        [r.reference, other],
        [r.reference, `${recordId}x${Number(code) + 1}`],
        [stranger.reference, own],
      ] as const) {
        const res = await post(reference, { status: 'issued', certificate });
        expect(res.statusCode, certificate).toBe(400);
        expect(res.json().error).toMatchObject({
          code: 'CERTIFICATE_MISMATCH',
          fields: [{ path: 'certificate', message: expect.any(String) }],
        });
        expect(await statusOf(reference)).toBe('in_progress');
      }
      const lines: string[] = [];
      const cli = (...args: string[]) => requests(args, ctx, (l) => lines.push(l));
      expect(await cli('status', r.reference, 'issued', '--certificate', other)).toBe(2);
      expect(lines.join('\n')).toMatch(/certificate/);
      expect(await statusOf(r.reference)).toBe('in_progress');
      expect(await cli('status', r.reference, 'issued', '--certificate', own)).toBe(0);
      expect(await statusOf(r.reference)).toBe('issued');
      // Issued without a certificate stays possible (the status page then shows the outcome).
      expect((await post(stranger.reference, { status: 'issued' })).statusCode).toBe(200);
    });

    it('finds a new applicant in the register by each kind of key, the values compared as the key compares them (issue 34)', async () => {
      const identity = (over: Partial<PersonIdentity>) => personIdentity(over);
      await registerCertificate(t.db, 6301, { jmeno: 'Žofie', prijmeni: 'Nová', rc: '736028/5163' });
      await registerCertificate(t.db, 6302, { jmeno: 'Joan', prijmeni: 'Smith', aifo: 'AIFO-6302' } as never);
      await registerCertificate(t.db, 6303, {
        jmeno: 'Joan',
        prijmeni: 'Smith',
        dat_nar: '1980-04-05',
        typ_op_pas: 'PAS',
        op_pas: 'x123',
      } as never);
      const of = (values: Partial<PersonIdentity>) =>
        registerPersonsOf(t.db.kysely, identityKey(identity(values)), values);
      expect(await of({ birth_number: ' 736028 / 5163 ' })).toEqual([6301]);
      expect(await of({ aifo: ' AIFO-6302 ' })).toEqual([6302]);
      const names = {
        first_name: ' JOAN ',
        last_name: 'smith',
        birth_date: '1980-04-05 ',
        document_number: 'X 123',
      };
      expect(await of(names)).toEqual([6303]);
      // The names' key's document is checked on the persons found: another document is another person.
      expect(await of({ ...names, document_number: 'X 124' })).toEqual([]);
      // A key whose looked-up field is empty in the values finds nobody.
      expect(
        await registerPersonsOf(t.db.kysely, identityKey(identity(names)), { ...names, birth_date: '' }),
      ).toEqual([]);
      expect(await registerPersonsOf(t.db.kysely, 'none:x', names)).toEqual([]);
    });
  });
}

describe('the register look-up of a person key (LOOKUP_COLUMNS)', () => {
  it('has a column, or null, for each of the key’s fields, in their order', () => {
    for (const key of PERSON_KEYS) expect(LOOKUP_COLUMNS[key.kind], key.kind).toHaveLength(key.fields.length);
  });
});
