import { defaultFormValues, type FormValues, prefillFromRegister } from '@ros/domain';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEMO_PERSONS } from '../demo/persons.js';
import { agreed, newApplicant } from '../test/applicant.js';
import { solvedToken } from '../test/botcheck.js';
import { type TestDb, testDbKinds } from '../test/databases.js';
import { startFormApp } from '../test/formApp.js';
import { matchFor } from '../test/match.js';

/**
 * Issue 21, item 1: a value that unlocks someone else's data. The duplicate retry finds only the
 * person its search found; a match token is bound to its person and links one request; validate
 * answers nothing person-specific without a proof; every mismatch answers as "not found".
 */

const demo = (id: number) => {
  const p = DEMO_PERSONS.find((d) => d.id === id);
  if (!p) throw new Error(`demo person ${id} missing`);
  return p.person;
};
const STEPAN = demo(1001);
const KAREL = demo(1002);
const TOMAS = demo(1007);

/** A demo person's request as the form prefills it, plus what the user adds. */
function requestOf(person: typeof STEPAN, duplicate = false, over: Partial<FormValues> = {}): FormValues {
  const contact = newApplicant();
  return {
    ...defaultFormValues(),
    ...prefillFromRegister(person, { duplicate }).values,
    contact_street: contact.contact_street,
    contact_city: contact.contact_city,
    contact_zip: contact.contact_zip,
    contact_state: contact.contact_state,
    employer_current_name: contact.employer_current_name,
    employer_current_from: contact.employer_current_from,
    employer_current_description: contact.employer_current_description,
    duplicate_type: duplicate ? ['POSKOZENI'] : [],
    ...over,
  };
}

/** Headers that differ from call to call whatever is asked (the clock, the limit's count). */
const VARYING = new Set(['date', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'content-length']);
const stable = (r: LightMyRequestResponse) =>
  Object.fromEntries(Object.entries(r.headers).filter(([k]) => !VARYING.has(k.toLowerCase())));

for (const kind of await testDbKinds()) {
  describe(`a value unlocks only its owner's data (${kind})`, () => {
    let t: TestDb;
    let a: FastifyInstance;

    const post = async (url: string, payload: unknown, headers: Record<string, string> = {}) =>
      a.inject({
        method: 'POST',
        url,
        payload: payload as object,
        headers: { 'content-type': 'application/json', recaptcha: await solvedToken(a), ...headers },
      });
    const retry = (payload: unknown) => post('/api/ros/search-birth-number', payload);
    const submit = (values: FormValues, extra: Record<string, unknown>, key?: string) =>
      post(
        '/api/ros',
        { ...values, language: 'cs', duplicate: false, ...agreed(), ...extra },
        key ? { 'idempotency-key': key } : {},
      );
    const validate = (payload: Record<string, unknown>) =>
      a.inject({ method: 'POST', url: '/api/ros/validate', payload });
    const personKeys = async () =>
      (await t.db.kysely.selectFrom('requests').select('person_key').execute()).map((r) => r.person_key);

    let stop = async () => {};
    beforeAll(async () => {
      ({
        t,
        app: a,
        stop,
      } = await startFormApp(kind, {
        ROS_ALTCHA_MAX_NUMBER: '1000',
        ROS_RATE_LIMIT_SEARCH: '100000',
      }));
    });
    afterAll(() => stop());
    beforeEach(async () => {
      await t.db.kysely.deleteFrom('requests').execute();
    });

    describe('the duplicate retry by birth number', () => {
      const karelDocument = {
        first_name: 'Karel',
        last_name: 'Procházka',
        type: 'OP_CR',
        number: '234567890',
      };

      it('finds the person the search found, by their token or their locked names and document', async () => {
        const match = await matchFor(a, KAREL.rc as string);
        for (const body of [
          { birth_number: '780704/1000', match },
          { birth_number: '7807041000', match },
          { birth_number: '780704/1000', ...karelDocument },
        ]) {
          const r = await retry(body);
          expect(r.statusCode, JSON.stringify(body)).toBe(200);
          expect(r.json()).toMatchObject({ jmeno: 'Karel', prijmeni: 'Procházka', email: KAREL.email });
        }
      });

      it('answers every mismatch exactly as "not found": status, body and headers', async () => {
        const karel = await matchFor(a, KAREL.rc as string);
        const stepan = await matchFor(a, STEPAN.rc as string);
        // A token spent by a request: Karel files a (new) request with his token.
        const spent = await matchFor(a, KAREL.rc as string);
        const filed = await submit(requestOf(KAREL), { match: spent });
        expect(filed.statusCode, filed.body).toBe(201);

        const nobody = await retry({ birth_number: '800101/1234', match: karel });
        expect(nobody.statusCode).toBe(404);
        expect(nobody.json().error.code).toBe('PERSON_NOT_FOUND');
        const misses: Record<string, unknown> = {
          "another person's birth number with the token": { birth_number: STEPAN.rc, match: karel },
          "another person's birth number with the names and document": {
            birth_number: STEPAN.rc,
            ...karelDocument,
          },
          'the right birth number with other names': {
            birth_number: KAREL.rc,
            ...karelDocument,
            first_name: 'Štěpán',
            last_name: 'Dvořák',
          },
          "another person's token": { birth_number: KAREL.rc, match: stepan },
          'a forged token': { birth_number: KAREL.rc, match: 'A'.repeat(43) },
          'a replayed (spent) token': { birth_number: KAREL.rc, match: spent },
          'no token': { birth_number: KAREL.rc },
          'a document without names': { birth_number: KAREL.rc, type: 'OP_CR', number: '234567890' },
        };
        for (const [what, body] of Object.entries(misses)) {
          const r = await retry(body);
          expect([r.statusCode, r.body], what).toEqual([nobody.statusCode, nobody.body]);
          expect(stable(r), what).toEqual(stable(nobody));
        }
      });
    });

    describe('a match token on submit', () => {
      it("is bound to its person: another person's identity is refused with the fields named", async () => {
        const stepan = await matchFor(a, STEPAN.rc as string);
        // The attack: Štěpán's token with Karel's name, birth date and birth number.
        const karel = requestOf(KAREL);
        const swapped = requestOf(STEPAN, false, {
          first_name: karel.first_name,
          last_name: karel.last_name,
          birth_name: karel.birth_name,
          birth_date: karel.birth_date,
          birth_number: karel.birth_number,
        });
        const r = await submit(swapped, { match: stepan });
        expect(r.statusCode, r.body).toBe(400);
        expect(r.json().error.code).toBe('MATCH_MISMATCH');
        expect(r.json().error.fields).toEqual(
          ['first_name', 'last_name', 'birth_date', 'birth_number'].map((path) => ({
            path,
            message: 'matchMismatch',
          })),
        );
        // The document too; in duplicate mode the names may change (after a marriage), the birth number not.
        const document = await submit(requestOf(STEPAN, false, { document_number: '234567890' }), {
          match: stepan,
        });
        expect(document.json().error.fields).toEqual([{ path: 'document_number', message: 'matchMismatch' }]);
        const renamed = await submit(requestOf(STEPAN, true, { last_name: 'Dvořáková-Nová' }), {
          duplicate: true,
          match: stepan,
        });
        expect(renamed.statusCode, renamed.body).toBe(201);
        expect(await personKeys()).toEqual(['person:1001']);
        const duplicateOther = await submit(
          requestOf(STEPAN, true, { birth_number: '780704/1000', birth_date: '1978-07-04' }),
          { duplicate: true, match: await matchFor(a, STEPAN.rc as string) },
        );
        expect(duplicateOther.statusCode).toBe(400);
        expect(duplicateOther.json().error.fields).toEqual([
          { path: 'birth_number', message: 'matchMismatch' },
        ]);
        expect(await personKeys()).toEqual(['person:1001']);
      });

      it('links one request only; a retry of that request with its Idempotency-Key still works', async () => {
        const match = await matchFor(a, STEPAN.rc as string);
        const first = await submit(requestOf(STEPAN), { match }, 'key-first');
        expect(first.statusCode, first.body).toBe(201);
        const again = await submit(requestOf(STEPAN), { match }, 'key-first');
        expect([again.statusCode, again.json().id]).toEqual([200, first.json().id]);
        // The same token on other requests links nothing: they are new applicants' requests.
        for (let i = 0; i < 3; i++) {
          const r = await submit(
            requestOf(STEPAN, false, { email: `stepan.${i}@example.cz` }),
            { match },
            `k${i}`,
          );
          expect(r.statusCode, r.body).toBe(201);
        }
        const keys = await personKeys();
        expect(keys.filter((k) => k === 'person:1001')).toHaveLength(1);
        expect(keys).toHaveLength(4);
        const spentBy = await t.db.kysely.selectFrom('search_matches').select('request_id').execute();
        expect(spentBy.map((r) => r.request_id)).toContain(first.json().id);
      });

      it("hands a stranger who sends the same values none of Štěpán's request (issue 33, item 1)", async () => {
        // Štěpán searches and sends his prefilled form, with a key, as the web app does.
        const own = await matchFor(a, STEPAN.rc as string);
        const first = await submit(requestOf(STEPAN), { match: own }, 'stepan-key');
        expect(first.statusCode, first.body).toBe(201);
        const his = first.json() as { id: string; reference: string; access_code: string };
        expect(his.access_code).toBeTruthy();
        const leaks = (r: LightMyRequestResponse) =>
          [his.id, his.reference, his.access_code].filter((v) => r.body.includes(v));
        // A stranger searches Štěpán (anyone can) and sends the same form: with his own search's
        // token, without one, without a key each time.
        const stranger = await matchFor(a, STEPAN.rc as string);
        for (const extra of [{ match: stranger }, {}]) {
          const r = await submit(requestOf(STEPAN), extra);
          expect(r.statusCode, r.body).toBe(201);
          expect(leaks(r), JSON.stringify(extra)).toEqual([]);
          expect((await a.inject({ method: 'GET', url: `/api/ros/pdf/${his.id}` })).statusCode).toBe(200);
        }
        // Štěpán's own retry without a key (his browser holds the token his send spent) is his.
        const retried = await submit(requestOf(STEPAN), { match: own });
        expect([retried.statusCode, retried.json()]).toEqual([200, his]);
        // The same spent token with other values is not a retry: a new applicant's request.
        const other = await submit(requestOf(STEPAN, false, { email: 'jiny@example.cz' }), { match: own });
        expect(other.statusCode, other.body).toBe(201);
        expect(leaks(other)).toEqual([]);
        expect(await personKeys()).toHaveLength(4);
      });

      it('answers a keyless retry only through its spent token, also when the first send had no key', async () => {
        const own = await matchFor(a, STEPAN.rc as string);
        const first = await submit(requestOf(STEPAN), { match: own });
        expect(first.statusCode, first.body).toBe(201);
        // Concurrent retries of that send: each is the first request.
        const retries = await Promise.all([0, 1, 2].map(() => submit(requestOf(STEPAN), { match: own })));
        expect(retries.map((r) => [r.statusCode, r.json().id])).toEqual(
          retries.map(() => [200, first.json().id]),
        );
        // Anyone else with the same values: a request of their own.
        const stranger = await submit(requestOf(STEPAN), {});
        expect(stranger.statusCode, stranger.body).toBe(201);
        expect(stranger.json().id).not.toBe(first.json().id);
        // Five concurrent first sends of one search's form without a key: one is linked and
        // answered, the rest are its retries.
        const fresh = await matchFor(a, KAREL.rc as string);
        const sends = await Promise.all(
          [0, 1, 2, 3, 4].map(() => submit(requestOf(KAREL), { match: fresh })),
        );
        expect(sends.map((r) => r.statusCode).sort()).toEqual([200, 200, 200, 200, 201]);
        expect(new Set(sends.map((r) => r.json().id)).size).toBe(1);
      });

      it('links one of several concurrent requests that carry it', async () => {
        const match = await matchFor(a, STEPAN.rc as string);
        const rs = await Promise.all(
          [0, 1, 2, 3].map((i) =>
            submit(requestOf(STEPAN, false, { email: `race.${i}@example.cz` }), { match }, `race-${i}`),
          ),
        );
        expect(rs.map((r) => r.statusCode)).toEqual([201, 201, 201, 201]);
        expect((await personKeys()).filter((k) => k === 'person:1001')).toHaveLength(1);
      });
    });

    describe('validate without a bot check', () => {
      const identity = (p: typeof STEPAN, over: Record<string, unknown> = {}) => ({
        first_name: p.jmeno,
        last_name: p.prijmeni,
        birth_date: p.dat_nar,
        municipality: '',
        aifo: '',
        document_number: p.op_pas,
        birth_number: p.rc,
        duplicate: false,
        ...over,
      });

      it('answers anything person-specific only with the token of that person', async () => {
        // Tomáš files a request: only a proof of Tomáš may learn that it counts against a new one.
        const filed = await submit(requestOf(TOMAS), { match: await matchFor(a, TOMAS.rc as string) });
        expect(filed.statusCode, filed.body).toBe(201);
        const proved = await validate(identity(TOMAS, { match: await matchFor(a, TOMAS.rc as string) }));
        expect(proved.json()).toMatchObject({
          okDate: false,
          okDuplications: true,
          reason: { rule: 'repeat-request' },
        });

        const neutral = await validate(identity(TOMAS));
        expect(neutral.statusCode).toBe(200);
        expect(neutral.json()).toEqual({ okDate: true, okDuplications: true });
        const stepan = await matchFor(a, STEPAN.rc as string);
        // Štěpán's own certificate is valid for 300 more days: proved, his okDate is false.
        expect((await validate(identity(STEPAN, { match: stepan }))).json().okDate).toBe(false);
        const tomas = await matchFor(a, TOMAS.rc as string);
        const misses: Record<string, Record<string, unknown>> = {
          "another person's token": identity(TOMAS, { match: stepan }),
          "another person's birth number with a token": identity(STEPAN, {
            birth_number: TOMAS.rc,
            birth_date: TOMAS.dat_nar,
            match: stepan,
          }),
          'the right birth number with other names': identity(TOMAS, { first_name: 'Karel', match: tomas }),
          'a forged token': identity(TOMAS, { match: 'A'.repeat(43) }),
          'a replayed (spent) token': identity(TOMAS, { match: await spentToken() }),
          'no token': identity(TOMAS),
        };
        for (const [what, body] of Object.entries(misses)) {
          const r = await validate(body);
          expect([r.statusCode, r.body], what).toEqual([neutral.statusCode, neutral.body]);
          expect(stable(r), what).toEqual(stable(neutral));
        }
        // A duplicate without proof: no certificate is known.
        expect((await validate(identity(STEPAN, { duplicate: true }))).json()).toEqual({
          okDate: true,
          okDuplications: false,
        });
      });

      /** A token of Tomáš spent by a request of his. */
      async function spentToken(): Promise<string> {
        const match = await matchFor(a, TOMAS.rc as string);
        const r = await submit(requestOf(TOMAS, false, { email: 'tomas.spent@example.cz' }), { match });
        expect(r.statusCode, r.body).toBe(201);
        return match;
      }
    });
  });
}
