import { Writable } from 'node:stream';
import { parseValidityAnswer, validityCode } from '@ros/domain';
import type { FastifyInstance } from 'fastify';
import type { KyselyPlugin } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, loggerOptions } from '../app.js';
import { registerToday } from '../records/records.js';
import { type RecordInput, revokeRecord, saveRecords } from '../records/repository.js';
import { createTestDb, type TestDb, testDbKinds } from '../test/databases.js';

function isoPlusDays(days: number): string {
  const [y, m, d] = registerToday().split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

const FUTURE = isoPlusDays(200);
const PAST = isoPlusDays(-3);

const base = { person_id: null, stav: 'Ano' as const, a1a3_valid_until: null, a2_valid_until: null };
const RECORDS: RecordInput[] = [
  {
    ...base,
    id: 101,
    first_name: 'Jiřina',
    last_name: 'Dvořáková',
    platnost_do: FUTURE,
    a1a3_valid_until: FUTURE,
    a2_valid_until: isoPlusDays(100),
  },
  { ...base, id: 102, first_name: 'Petr', last_name: 'Černý', platnost_do: FUTURE, a1a3_valid_until: FUTURE },
  { ...base, id: 103, first_name: 'Al', last_name: 'Bo', platnost_do: FUTURE },
  { ...base, id: 104, first_name: 'Tomáš', last_name: 'Svoboda', platnost_do: PAST, a1a3_valid_until: PAST },
  { ...base, id: 105, first_name: 'Marie', last_name: 'Procházková', platnost_do: FUTURE },
  { ...base, id: 106, first_name: 'Eva', last_name: 'Malá', platnost_do: FUTURE, stav: 'Ne' },
  { ...base, id: 107, first_name: 'Dnes', last_name: 'Končí', platnost_do: isoPlusDays(0) },
];

const token = (id: number) => {
  const r = RECORDS.find((x) => x.id === id);
  if (!r) throw new Error(`no test record ${id}`);
  return `${id}x${validityCode(r.platnost_do)}`;
};
const czech = (iso: string) => iso.split('-').reverse().join('.');

for (const kind of await testDbKinds()) {
  describe(`GET /api/ros/{id}/validity (${kind})`, () => {
    let t: TestDb;
    let app: FastifyInstance;
    let queries = 0;
    const counter: KyselyPlugin = {
      transformQuery: (args) => args.node,
      transformResult: async (args) => {
        queries++;
        return args.result;
      },
    };

    beforeAll(async () => {
      // No look for changes during these tests: each check must cost no query at all.
      t = await createTestDb(kind, { ROS_RATE_LIMIT_VALIDITY: '100000', ROS_VALIDITY_REFRESH_MS: '600000' });
      await saveRecords(t.db, RECORDS);
      await revokeRecord(t.db, 105);
      app = await buildApp({
        config: t.config,
        // Every query through this Kysely is counted.
        db: { ...t.db, sqlite: undefined, kysely: t.db.kysely.withPlugin(counter) },
        version: 'test',
      });
    });
    afterAll(async () => {
      await app?.close();
      await t?.cleanup();
    });

    const get = (id: string, remoteAddress?: string) =>
      app.inject({ method: 'GET', url: `/api/ros/${encodeURIComponent(id)}/validity`, remoteAddress });

    it('answers a valid certificate with both categories in the spec shape', async () => {
      const res = await get(token(101));
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.headers['cache-control']).toBe('no-store');
      const body = res.json();
      expect(body).toEqual({
        data: { stav: 'Ano', platnost_do: czech(FUTURE), jmeno: 'Jiř', prijmeni: 'Dvo' },
        a1a3: { valid_until: czech(FUTURE) },
        a2: { valid_until: czech(isoPlusDays(100)) },
      });
      expect(parseValidityAnswer(body)).toEqual(body);
    });

    it('leaves out the categories a certificate does not hold', async () => {
      const one = (await get(token(102))).json();
      expect(one).toEqual({
        data: { stav: 'Ano', platnost_do: czech(FUTURE), jmeno: 'Pet', prijmeni: 'Čer' },
        a1a3: { valid_until: czech(FUTURE) },
      });
      const none = (await get(token(103))).json();
      expect(none).toEqual({
        data: { stav: 'Ano', platnost_do: czech(FUTURE), jmeno: 'Al', prijmeni: 'Bo' },
      });
      expect(parseValidityAnswer(none)).toEqual(none);
    });

    it('sends only the first three letters of each name', async () => {
      const text = (await get(token(101))).body;
      expect(text).not.toContain('Jiřina');
      expect(text).not.toContain('Dvořáková');
    });

    it("answers stav 'Ne' for an expired, a revoked and a register-invalid certificate, without categories", async () => {
      for (const [id, date] of [
        [104, PAST],
        [105, FUTURE],
        [106, FUTURE],
      ] as const) {
        const res = await get(token(id));
        expect(res.statusCode).toBe(200);
        const body = res.json();
        expect(body.data.stav).toBe('Ne');
        expect(body.data.platnost_do).toBe(czech(date));
        expect(body.a1a3).toBeUndefined();
        expect(body.a2).toBeUndefined();
      }
    });

    it('keeps a certificate valid through its last day', async () => {
      expect((await get(token(107))).json().data.stav).toBe('Ano');
    });

    it('accepts leading zeros in both parts', async () => {
      const [id, code] = token(103).split('x');
      const res = await get(`000${id}x00${code}`);
      expect(res.statusCode).toBe(200);
      expect(res.json().data.jmeno).toBe('Al');
    });

    const notFoundBody = { error: { code: 'NOT_FOUND', message: 'Not found' } };
    const code101 = validityCode(FUTURE) as number;

    it('gives the same 404 for a wrong code, an unknown id and a malformed id', async () => {
      const ids = [
        `101x${code101 + 1}`,
        `101x${code101 - 1}`,
        '101x0',
        `101x${'9'.repeat(18)}`,
        `999999x${code101}`,
        `0x${code101}`,
        `9007199254740993x${code101}`,
        '1x',
        'x1',
        'x',
        '1x2x3',
        '-1x5',
        '1e3x2',
        '1.0x2',
        ' 1x2',
        '1X2',
        `101 x${code101}`,
        '١x٢',
        '１０１x２',
        `101x${code101}/`,
        'null',
        '%00',
      ];
      for (const id of ids) {
        const res = await get(id);
        expect(res.statusCode, id).toBe(404);
        expect(res.json(), id).toEqual(notFoundBody);
        expect(res.headers['content-type'], id).toMatch(/^application\/json/);
      }
    });

    it('answers 400-digit ids with 404 too', async () => {
      for (const id of [
        `${'1'.repeat(400)}x${'2'.repeat(400)}`,
        `1x${'2'.repeat(400)}`,
        `${'1'.repeat(400)}x5`,
      ]) {
        const res = await get(id);
        expect(res.statusCode).toBe(404);
        expect(res.json().error.code).toBe('NOT_FOUND');
      }
    });

    it('does the same work for every answer: no database query, one lookup in memory', async () => {
      for (const id of [`101x${code101 + 1}`, `424242x${code101}`, '1x2x3', '١x٢', token(101)]) {
        queries = 0;
        await get(id);
        expect(queries, id).toBe(0);
      }
    });

    it('a certificate revoked while the server runs is answered as not in force', async () => {
      const fresh = await buildApp({
        config: { ...t.config, validityRefreshMs: 20 },
        db: t.db,
        version: 'test',
      });
      try {
        const check = async () =>
          (await fresh.inject({ method: 'GET', url: `/api/ros/${token(102)}/validity` })).json().data.stav;
        expect(await check()).toBe('Ano');
        await revokeRecord(t.db, 102);
        await expect.poll(check, { timeout: 5000 }).toBe('Ne');
      } finally {
        await fresh.close();
      }
    });

    it('logs the route, never the token of a check', async () => {
      const lines: string[] = [];
      const sink = new Writable({
        write(chunk: Buffer, _enc, done) {
          lines.push(chunk.toString('utf8'));
          done();
        },
      });
      const logged = await buildApp(
        { config: t.config, db: t.db, version: 'test' },
        { logger: { ...(loggerOptions('info') as object), stream: sink } },
      );
      try {
        const good = token(101);
        expect(
          (await logged.inject({ method: 'GET', url: `/api/ros/${good}/validity?x=1` })).statusCode,
        ).toBe(200);
        expect((await logged.inject({ method: 'GET', url: '/api/ros/77x2099/validity' })).statusCode).toBe(
          404,
        );
        const text = lines.join('');
        expect(text).toContain('"path":"/api/ros/:id/validity"');
        expect(text).not.toContain(good);
        expect(text).not.toContain('77x2099');
      } finally {
        await logged.close();
      }
    });

    it('never answers a 500 for odd input', async () => {
      for (const raw of ['%ff', '%', '..', '%2e%2e', 'a'.repeat(99)]) {
        const res = await app.inject({ method: 'GET', url: `/api/ros/${raw}/validity` });
        expect(res.statusCode, raw).toBeGreaterThanOrEqual(400);
        expect(res.statusCode, raw).toBeLessThan(500);
      }
    });
  });

  describe(`validity rate limit (${kind})`, () => {
    let t: TestDb;
    let app: FastifyInstance;
    beforeAll(async () => {
      t = await createTestDb(kind, { ROS_RATE_LIMIT_VALIDITY: '3' });
      await saveRecords(t.db, RECORDS);
      app = await buildApp({ config: t.config, db: t.db, version: 'test' });
    });
    afterAll(async () => {
      await app?.close();
      await t?.cleanup();
    });

    it('answers 429 with Retry-After after the configured number per minute, per client address', async () => {
      const get = (id: string, remoteAddress: string) =>
        app.inject({ method: 'GET', url: `/api/ros/${id}/validity`, remoteAddress });
      // Found and not found both count, so enumeration is throttled too.
      expect((await get(token(101), '10.0.0.1')).statusCode).toBe(200);
      expect((await get('1x2', '10.0.0.1')).statusCode).toBe(404);
      expect((await get(token(102), '10.0.0.1')).statusCode).toBe(200);
      const limited = await get(token(101), '10.0.0.1');
      expect(limited.statusCode).toBe(429);
      expect(limited.json().error.code).toBe('RATE_LIMITED');
      const retryAfter = Number(limited.headers['retry-after']);
      expect(retryAfter).toBeGreaterThan(0);
      // A hit is remembered for 60 to 61 s (one-second slots, ratelimit/limiter.ts).
      expect(retryAfter).toBeLessThanOrEqual(61);
      // Another address still gets through.
      expect((await get(token(101), '10.0.0.2')).statusCode).toBe(200);
    });
  });
}
