import { followsTextPolicy } from '@ros/domain';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import type { AppContext } from '../context.js';
import { createTestDb, type TestDb, testDbKinds } from '../test/databases.js';
import { seedFormData } from '../test/seed.js';
import { createToken, SCOPES } from './tokens.js';

/**
 * Issue 21: the intake API under generated hostile input (fast-check), as
 * requests/hostileBodies.property.test.ts does for the public API, on SQLite and PostgreSQL:
 * bodies of PUT records and PUT persons, path ids, and the list's query (since, cursor, limit).
 * Properties: no answer >= 500, every error answer carries a documented code, and a body that is
 * accepted holds no text against the policy (domain text.ts: no NUL, lone surrogate or bidi
 * control; a line break only where text may span lines, so not checked here). Before the fix
 * PostgreSQL answered 500 to a NUL in a name, a person id past its integer column and a cursor
 * holding a NUL. ROS_FUZZ_RUNS sets the runs per case and database (default 200).
 */

const RUNS = Number(process.env.ROS_FUZZ_RUNS ?? 200);
const DOCUMENTED = new Set([
  'INVALID_REQUEST',
  'INVALID_JSON',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'NIA_IDENTIFIER_TAKEN',
  'PERSON_NOT_FOUND',
  'REQUEST_NOT_FOUND',
  'NOT_FOUND',
  'BAD_URL',
]);

/** The characters that broke things: NUL, lone surrogates, bidi controls, line breaks. */
const trouble = fc.constantFrom('\u0000', '\uD800', '\uDC00', '\u202E', '\u2066', '\r\n', '\u0085');
const hostileText = fc.oneof(
  {
    weight: 3,
    arbitrary: fc
      .tuple(fc.string({ maxLength: 8 }), trouble, fc.string({ maxLength: 8 }))
      .map((p) => p.join('')),
  },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 60 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 60 }) },
  { weight: 1, arbitrary: fc.constantFrom('__proto__', '', ' ', 'null') },
  { weight: 1, arbitrary: fc.nat({ max: 3000 }).map((n) => 'ř'.repeat(n)) },
);
const hostileNumber = fc.oneof(
  fc.constantFrom(0, -1, 1.5, 2 ** 31, 3_000_000_000, 2 ** 53, 1e308, Number.MAX_SAFE_INTEGER),
  fc.integer(),
  fc.double(),
);
const hostileValue = fc.oneof(
  { weight: 4, arbitrary: hostileText },
  { weight: 2, arbitrary: hostileNumber },
  { weight: 1, arbitrary: fc.anything({ maxDepth: 3, maxKeys: 6 }) },
  { weight: 1, arbitrary: fc.array(hostileText, { maxLength: 30 }) },
  { weight: 1, arbitrary: fc.constantFrom(null, true, [], {}) },
);

/**
 * A valid body with a few of its members replaced by hostile values; now and then an unknown or
 * forbidden member too (mostly not: the body must get past the shape check to reach storage).
 */
const mutated = (base: Record<string, unknown>, keys: readonly string[]) =>
  fc
    .tuple(
      fc.dictionary(fc.constantFrom(...keys), hostileValue, { maxKeys: 3 }),
      fc.oneof(
        { weight: 6, arbitrary: fc.constant({}) },
        { weight: 1, arbitrary: fc.constantFrom({ extra: 1 }, JSON.parse('{"__proto__":{"x":1}}')) },
      ),
    )
    .map(([changes, extra]) => ({ ...base, ...changes, ...extra }));

const person = { jmeno: 'Zofie', prijmeni: 'Řeháková', rc: '926123/0006', dat_nar: '1992-11-23' };
const PERSON_KEYS = [
  'jmeno',
  'prijmeni',
  'rodne_prijm',
  'misto_nar',
  'ulice',
  'email',
  'nia_identifier',
  'aifo',
  'id',
  'documents',
  'activities',
  'abroad_stay',
  'web_st5_kody',
];
const record = {
  person: { first_name: 'Zofie', last_name: 'Řeháková' },
  stav: 'Ano',
  platnost_do: '2031-01-31',
};

/** Mostly an id that exists in the column's range, so that the body is what is under test. */
const pathId = fc.oneof(
  { weight: 4, arbitrary: fc.integer({ min: 1, max: 2_000_000_000 }).map(String) },
  {
    weight: 1,
    arbitrary: fc.constantFrom('3000000000', '9007199254740993', '0', '-1', '1e3', '%00', '%E2%80%AE1'),
  },
);
/** Every string a JSON value holds, keys aside. */
const strings = (v: unknown): string[] =>
  typeof v === 'string'
    ? [v]
    : v !== null && typeof v === 'object'
      ? Object.values(v as Record<string, unknown>).flatMap(strings)
      : [];

/** Any text as a path segment, byte by byte (a lone surrogate becomes U+FFFD's bytes). */
const segment = (s: string) => [...Buffer.from(s)].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');
const base64url = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
const query = fc.record(
  {
    since: fc.oneof(
      hostileText,
      fc.constantFrom('2026-02-30', '2026-13-01', '2026-03-01T24:00Z', '2026-03-01'),
    ),
    cursor: fc.oneof(
      hostileText,
      fc.array(hostileText, { maxLength: 3 }).map(base64url),
      fc.constant('WyJcdTAwMDAiLCJcdTAwMDAiXQ'),
    ),
    limit: fc.oneof(hostileText, hostileNumber.map(String)),
    status: hostileText,
  },
  { requiredKeys: [] },
);

for (const kind of await testDbKinds()) {
  describe(`intake API under hostile input (${kind})`, { timeout: 180_000 }, () => {
    let t: TestDb;
    let app: FastifyInstance;
    let token: string;
    const call = (method: 'GET' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
      app.inject({
        method,
        url: `/api/intake/v1${url}`,
        headers: {
          authorization: `Bearer ${token}`,
          ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }),
      });
    /** `body`: what was sent; a body that is accepted must follow the text policy throughout. */
    const expectHandled = (r: Awaited<ReturnType<typeof call>>, body?: unknown) => {
      expect(r.statusCode, r.body).toBeLessThan(500);
      if (r.statusCode >= 400) expect(DOCUMENTED.has(r.json().error?.code), r.body).toBe(true);
      else if (body !== undefined) {
        const bad = strings(body).filter((v) => !followsTextPolicy(v, { multiline: true }));
        expect(bad, `${r.statusCode} for ${JSON.stringify(body)}`).toEqual([]);
      }
    };

    beforeAll(async () => {
      t = await createTestDb(kind, { ROS_RATE_LIMIT_INTAKE: '1000000000' });
      const ctx: AppContext = { config: t.config, db: t.db, version: 'test' };
      await seedFormData(ctx);
      app = await buildApp(ctx);
      await app.ready();
      token = (await createToken(t.db, 'fuzz', SCOPES, 'test')) as string;
    });
    afterAll(async () => {
      await app?.close();
      await t?.cleanup();
    });

    it('the three 500s of the round: NUL in a name, person id 3000000000, a cursor of NULs', async () => {
      const nul = await call('PUT', '/persons/5', { ...person, jmeno: 'a\u0000b' });
      expect(nul.statusCode, nul.body).toBe(400);
      expect(nul.json().error.fields).toContainEqual(expect.objectContaining({ path: 'jmeno' }));
      const big = await call('PUT', '/records/5', {
        ...record,
        person: { ...record.person, id: 3000000000 },
      });
      expect(big.statusCode, big.body).toBe(400);
      expect(big.json().error.fields).toContainEqual(expect.objectContaining({ path: 'person.id' }));
      const cursor = await call('GET', '/requests?cursor=WyJcdTAwMDAiLCJcdTAwMDAiXQ');
      expect(cursor.statusCode, cursor.body).toBe(400);
      expect(cursor.json().error.fields).toEqual([
        { path: 'cursor', message: 'is not a cursor this API gave' },
      ]);
    });

    it('one text rule for every stored text: no NUL, lone surrogate or bidi control reaches the register', async () => {
      for (const bad of ['a\u0000b', 'x\uD800', '\u202Egnp.exe', 'a\u2066b']) {
        for (const body of [
          { ...person, prijmeni: bad },
          { ...person, ulice: bad },
          { ...person, documents: [{ type: 'ID', number: bad }] },
          { ...person, activities: [{ zam_od: '01/2020', zam_do: '02/2020', typ: 1, zamestnavatel: bad }] },
        ]) {
          const r = await call('PUT', '/persons/6', body);
          expect(r.statusCode, `${JSON.stringify(bad)}: ${r.body}`).toBe(400);
        }
        const rec = await call('PUT', '/records/6', {
          ...record,
          person: { ...record.person, last_name: bad },
        });
        expect(rec.statusCode, rec.body).toBe(400);
        expect(rec.json().error.fields).toContainEqual(expect.objectContaining({ path: 'person.last_name' }));
      }
      const stored = await t.db.kysely.selectFrom('persons').select('id').where('id', '=', 6).execute();
      expect(stored).toEqual([]);
      // A line break is allowed where a text may span lines (the reason of a stay abroad), not elsewhere.
      const reason = await call('PUT', '/persons/6', {
        ...person,
        abroad_stay: [{ stat: 'SK', duvod: 'a\nb' }],
      });
      expect(reason.statusCode, reason.body).toBe(201);
      const name = await call('PUT', '/persons/6', { ...person, jmeno: 'a\nb' });
      expect(name.statusCode, name.body).toBe(400);
    });

    it('since must be a day that exists: 2026-02-30 is refused, 2026-02-28 is not', async () => {
      const bad = await call('GET', '/requests?since=2026-02-30');
      expect(bad.statusCode, bad.body).toBe(400);
      expect(bad.json().error.fields).toEqual([{ path: 'since', message: 'must be an ISO date or time' }]);
      for (const s of ['2026-02-29', '2026-03-01T24:00Z', '2026-03-01T10:60Z', '2026-03-01T10:00+15:00']) {
        expect((await call('GET', `/requests?since=${encodeURIComponent(s)}`)).statusCode, s).toBe(400);
      }
      expect((await call('GET', '/requests?since=2026-02-28')).statusCode).toBe(200);
      expect((await call('GET', '/requests?since=2028-02-29T10:00:00%2B01:00')).statusCode).toBe(200);
    });

    it('PUT persons/{id}: generated bodies never get >= 500, an accepted one follows the text policy', async () => {
      await fc.assert(
        fc.asyncProperty(pathId, mutated(person, PERSON_KEYS), async (id, body) => {
          expectHandled(await call('PUT', `/persons/${id}`, body), body);
        }),
        { numRuns: RUNS },
      );
    });

    it('PUT records/{id}: generated bodies never get >= 500, an accepted one follows the text policy', async () => {
      const personOf = mutated(record.person, ['first_name', 'last_name', 'id']);
      await fc.assert(
        fc.asyncProperty(
          pathId,
          mutated(record, ['stav', 'platnost_do', 'a1a3', 'a2']),
          personOf,
          async (id, body, p) => {
            const sent = { ...body, person: p };
            expectHandled(await call('PUT', `/records/${id}`, sent), sent);
          },
        ),
        { numRuns: RUNS },
      );
    });

    it('GET requests: generated queries never get >= 500', async () => {
      await fc.assert(
        fc.asyncProperty(query, async (q) => {
          const qs = new URLSearchParams(q as Record<string, string>).toString();
          expectHandled(await call('GET', `/requests?${qs}`));
        }),
        { numRuns: RUNS },
      );
    });

    it('DELETE persons/{id} and GET requests/{reference}: generated paths never get >= 500', async () => {
      await fc.assert(
        fc.asyncProperty(
          pathId,
          fc.oneof(hostileText.map(segment), fc.constantFrom('%ff', '%00', '..%2f')),
          async (id, ref) => {
            expectHandled(await call('DELETE', `/persons/${id}`));
            expectHandled(await call('GET', `/requests/${ref || 'x'}`));
          },
        ),
        { numRuns: RUNS },
      );
    });
  });
}
