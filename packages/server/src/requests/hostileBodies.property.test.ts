import { FORM_FIELDS } from '@ros/domain';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import type { BotCheck } from '../botcheck/index.js';
import type { AppContext } from '../context.js';
import { agreed, newApplicant } from '../test/applicant.js';
import { createTestDb, type TestDb, testDbKinds } from '../test/databases.js';
import { seedFormData } from '../test/seed.js';

/**
 * Issue 11, "in the suite": generated hostile bodies (fast-check) to every public POST through
 * the real app, on SQLite and PostgreSQL. Properties: no answer >= 500, every error answer
 * carries a documented code, and a refused body stores nothing (the requests table only grows
 * with a 201). ROS_FUZZ_RUNS sets the runs per route and database (default 200; a larger run:
 * `ROS_FUZZ_RUNS=5000 npx vitest run packages/server/src/requests/hostileBodies.property.test.ts`).
 * The bot check lets every token through here: what is under test is the body's handling.
 */

const RUNS = Number(process.env.ROS_FUZZ_RUNS ?? 200);
const DOCUMENTED = new Set([
  'INVALID_REQUEST',
  'INVALID_JSON',
  'INVALID_FORM',
  'TIME_NOT_COVERED',
  'PAYLOAD_TOO_LARGE',
  'PERSON_NOT_FOUND',
  'IDEMPOTENCY_KEY_REUSED',
  'INVALID_IDEMPOTENCY_KEY',
]);

const acceptAll: BotCheck = {
  provider: 'altcha',
  verify: async () => {},
  createChallenge: async () => {
    throw new Error('not used');
  },
  purgeExpired: async () => 0,
};

/** Text an attacker writes: any UTF-16 unit (lone surrogates too), the known troublemakers, long runs. */
const hostileText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 60 }),
  fc.string({ unit: 'grapheme', maxLength: 60 }),
  fc.constantFrom('\u0000', 'a\u0000b', '\u202Eabc', '\uD800', 'x\uDC00', '\u2066', '\r\n', '__proto__', ''),
  fc.nat({ max: 6000 }).map((n) => 'ř'.repeat(n)),
);
const hostileValue = fc.oneof(
  { weight: 4, arbitrary: hostileText },
  { weight: 1, arbitrary: fc.anything({ maxDepth: 4, maxKeys: 8 }) },
  { weight: 1, arbitrary: fc.array(hostileText, { maxLength: 130 }) },
  {
    weight: 1,
    arbitrary: fc.array(
      fc.record({
        from: hostileText,
        to: hostileText,
        type: hostileText,
        field1: hostileText,
        field2: hostileText,
      }),
      { maxLength: 110 },
    ),
  },
  { weight: 1, arbitrary: fc.constantFrom(null, true, 0, -1, 1e308, [], {}) },
);

/** A valid body with a few of its members (or unknown ones) replaced by hostile values. */
const mutated = (base: Record<string, unknown>, keys: readonly string[]) =>
  fc
    .dictionary(fc.constantFrom(...keys, 'match', 'extra', '__proto__', 'constructor'), hostileValue, {
      maxKeys: 4,
    })
    .map((changes) => JSON.stringify({ ...base, ...changes }));

/** Any JSON text, or text that is not JSON at all. */
const rawText = fc.oneof(
  fc.json({ maxDepth: 6 }),
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc.nat({ max: 3000 }).map((n) => `${'['.repeat(n)}${']'.repeat(n)}`),
);

const submitBase = { ...newApplicant(), language: 'cs', duplicate: false, ...agreed() };
const ROUTES: Array<{ path: string; body: fc.Arbitrary<string> }> = [
  {
    path: '/api/ros/search',
    body: fc.oneof(
      mutated({ first_name: 'Štěpán', last_name: 'Dvořák', type: 'OP_CR', number: '123456789' }, [
        'first_name',
        'last_name',
        'type',
        'number',
        'birth_number',
        'duplicate',
      ]),
      rawText,
    ),
  },
  {
    path: '/api/ros/search-birth-number',
    body: fc.oneof(mutated({ birth_number: '850315/1008' }, ['birth_number']), rawText),
  },
  {
    path: '/api/ros/validate',
    body: fc.oneof(
      mutated(
        {
          first_name: 'Štěpán',
          last_name: 'Dvořák',
          birth_date: '1985-03-15',
          document_number: '123456789',
          birth_number: '850315/1008',
          duplicate: false,
        },
        ['first_name', 'last_name', 'birth_date', 'municipality', 'aifo', 'document_number', 'birth_number'],
      ),
      rawText,
    ),
  },
  { path: '/api/ros', body: fc.oneof({ weight: 4, arbitrary: mutated(submitBase, FORM_FIELDS) }, rawText) },
];

for (const kind of await testDbKinds()) {
  describe(`generated hostile bodies through the app (${kind})`, { timeout: 120_000 }, () => {
    let t: TestDb;
    let app: FastifyInstance;
    const requests = async () =>
      Number(
        (
          await t.db.kysely
            .selectFrom('requests')
            .select((eb) => eb.fn.countAll<number | string>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );

    beforeAll(async () => {
      t = await createTestDb(kind, { ROS_RATE_LIMIT_SEARCH: '1000000' });
      const ctx: AppContext = { config: t.config, db: t.db, version: 'test' };
      await seedFormData(ctx);
      app = await buildApp(ctx, { serviceOptions: { botCheck: acceptAll } });
      await app.ready();
    });
    afterAll(async () => {
      await app?.close();
      await t?.cleanup();
    });

    it('the base submit body is valid (so that mutations of it reach every check)', async () => {
      const r = await app.inject({
        method: 'POST',
        url: '/api/ros',
        payload: submitBase,
        headers: { 'content-type': 'application/json', recaptcha: 'any' },
      });
      expect(r.statusCode, r.body).toBe(201);
      await t.db.kysely.deleteFrom('requests').execute();
    });

    for (const route of ROUTES) {
      it(`${route.path}: never >= 500, a documented code, nothing stored from a refused body`, async () => {
        let stored = 0;
        await fc.assert(
          fc.asyncProperty(route.body, async (text) => {
            const before = await requests();
            const r = await app.inject({
              method: 'POST',
              url: route.path,
              payload: text,
              headers: { 'content-type': 'application/json', recaptcha: 'any' },
            });
            expect(r.statusCode, r.body).toBeLessThan(500);
            const after = await requests();
            if (r.statusCode >= 400) {
              expect(DOCUMENTED.has(r.json().error?.code), r.body).toBe(true);
              expect(after, 'a refused body stored a row').toBe(before);
            } else if (r.statusCode === 201) {
              stored++;
              expect(after).toBe(before + 1);
            } else {
              expect(after).toBe(before);
            }
          }),
          { numRuns: RUNS },
        );
        if (route.path === '/api/ros')
          console.info(`${kind}: ${stored} of ${RUNS} generated submit bodies stored`);
      });
    }
  });
}
