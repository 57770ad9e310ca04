import { Writable } from 'node:stream';
import { validityCode } from '@ros/domain';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, loggerOptions } from './app.js';
import { registerToday } from './records/records.js';
import { type RecordInput, saveRecords } from './records/repository.js';
import { createTestDb, type TestDb, testDbKinds } from './test/databases.js';

/**
 * The fast path (validityFastPath.ts) answers plain GETs of the validity check before Fastify.
 * These tests run a listening server and compare each answer over HTTP with the Fastify route's
 * answer for the same request (`inject`, which never goes through the fast path): same status,
 * body and headers. Fastify's request log tells which of the two answered over HTTP.
 */

function isoPlusDays(days: number): string {
  const [y, m, d] = registerToday().split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

const FUTURE = isoPlusDays(120);
const base = { person_id: null, a1a3_valid_until: null, a2_valid_until: null };
const RECORDS: RecordInput[] = [
  {
    ...base,
    id: 201,
    stav: 'Ano',
    first_name: 'Žaneta',
    last_name: 'Šťastná',
    platnost_do: FUTURE,
    a1a3_valid_until: FUTURE,
  },
  { ...base, id: 202, stav: 'Ne', first_name: 'Ota', last_name: 'Nový', platnost_do: isoPlusDays(-1) },
];
const CODE = validityCode(FUTURE) as number;
const GOOD = `201x${CODE}`;

/** Headers that differ between two answers by nature (time, connection handling). */
const VOLATILE = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);
function comparable(headers: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers))
    if (!VOLATILE.has(k.toLowerCase())) out[k.toLowerCase()] = String(v);
  return out;
}

class LogSink extends Writable {
  lines: string[] = [];
  override _write(chunk: Buffer, _enc: string, done: () => void) {
    this.lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    done();
  }
  /** Request log lines Fastify wrote (one per request it handled). */
  requests(): number {
    return this.lines.filter((l) => l.includes('"incoming request"')).length;
  }
}

for (const kind of await testDbKinds()) {
  describe(`validity fast path (${kind})`, () => {
    let t: TestDb;
    let app: FastifyInstance;
    let url: string;
    const sink = new LogSink();

    beforeAll(async () => {
      t = await createTestDb(kind, { ROS_RATE_LIMIT_VALIDITY: '100000', ROS_VALIDITY_REFRESH_MS: '600000' });
      await saveRecords(t.db, RECORDS);
      app = await buildApp(
        { config: t.config, db: t.db, version: 'test' },
        { logger: { ...(loggerOptions('info') as object), stream: sink } },
      );
      url = await app.listen({ port: 0, host: '127.0.0.1' });
    });
    afterAll(async () => {
      await app?.close();
      await t?.cleanup();
    });

    async function both(path: string, method: 'GET' | 'HEAD' = 'GET') {
      const before = sink.requests();
      const res = await fetch(`${url}${path}`, { method });
      const http = {
        status: res.status,
        headers: comparable(Object.fromEntries(res.headers)),
        body: await res.text(),
        viaFastify: sink.requests() > before,
      };
      const inj = await app.inject({ method, url: path });
      return { http, inject: { status: inj.statusCode, headers: comparable(inj.headers), body: inj.body } };
    }

    it('answers plain GETs itself, exactly as the Fastify route does', async () => {
      const ids = [
        GOOD,
        `00201x00${CODE}`,
        `202x${validityCode(isoPlusDays(-1))}`,
        `201x${CODE + 1}`,
        '999999x2070',
        '1x',
        'x1',
        '1x2x3',
        '-1x5',
        '1e3x2',
        '١x٢',
        'null',
        `${'1'.repeat(50)}x${'2'.repeat(49)}`,
      ];
      for (const id of ids) {
        for (const path of [`/api/ros/${encodeURI(id)}/validity`, `/api/ros/${encodeURI(id)}/validity?x=1`]) {
          if (path.includes('%')) continue; // percent-encoded ids are Fastify's (below)
          const { http, inject } = await both(path);
          expect(http.viaFastify, path).toBe(false);
          expect(http.status, path).toBe(inject.status);
          expect(http.body, path).toBe(inject.body);
          expect(http.headers, path).toEqual(inject.headers);
        }
      }
      const ok = await both(`/api/ros/${GOOD}/validity`);
      expect(ok.http.status).toBe(200);
      expect(JSON.parse(ok.http.body).data).toEqual({
        stav: 'Ano',
        platnost_do: FUTURE.split('-').reverse().join('.'),
        jmeno: 'Žan',
        prijmeni: 'Šťa',
      });
      expect(ok.http.headers['cache-control']).toBe('no-store');
      expect(ok.http.headers['x-content-type-options']).toBe('nosniff');
      expect(Number(ok.http.headers['content-length'])).toBe(Buffer.byteLength(ok.http.body));
    });

    it('passes the rest on to Fastify, which answers them the same way', async () => {
      const cases: Array<[string, 'GET' | 'HEAD']> = [
        [`/api/ros/${GOOD}/validity`, 'HEAD'],
        [`/api/ros/${encodeURIComponent('١x٢')}/validity`, 'GET'],
        [`/api/ros/201%78${CODE}/validity`, 'GET'],
        [`/api/ros/${'1'.repeat(101)}x1/validity`, 'GET'],
        ['/api/ros//validity', 'GET'],
        [`/api/ros/${GOOD}/validity/`, 'GET'],
        [`/api/ros/a/${GOOD}/validity`, 'GET'],
        ['/api/ros/validity', 'GET'],
      ];
      for (const [path, method] of cases) {
        const { http, inject } = await both(path, method);
        expect(http.viaFastify, path).toBe(true);
        expect(http.status, path).toBe(inject.status);
        expect(http.status, path).toBeLessThan(500);
        if (method === 'GET') expect(http.body, path).toBe(inject.body);
      }
      // A percent-encoded token is decoded by Fastify and found.
      expect((await both(`/api/ros/201%78${CODE}/validity`)).http.status).toBe(200);
    });

    it('writes no log line for a check it answers (the token is a key to a certificate)', async () => {
      const before = sink.lines.length;
      expect((await fetch(`${url}/api/ros/${GOOD}/validity`)).status).toBe(200);
      expect((await fetch(`${url}/api/ros/1x2/validity`)).status).toBe(404);
      expect(sink.lines.length).toBe(before);
    });
  });

  describe(`validity fast path rate limit (${kind})`, () => {
    let t: TestDb;
    let app: FastifyInstance;
    let url: string;
    beforeAll(async () => {
      t = await createTestDb(kind, { ROS_RATE_LIMIT_VALIDITY: '3', ROS_TRUST_PROXY: 'true' });
      await saveRecords(t.db, RECORDS);
      app = await buildApp({ config: t.config, db: t.db, version: 'test' });
      url = await app.listen({ port: 0, host: '127.0.0.1' });
    });
    afterAll(async () => {
      await app?.close();
      await t?.cleanup();
    });

    it('counts per client address (X-Forwarded-For behind a trusted proxy), shared with the Fastify route', async () => {
      const get = (ip: string, id = GOOD) =>
        fetch(`${url}/api/ros/${id}/validity`, { headers: { 'x-forwarded-for': ip } });
      expect((await get('10.1.0.1')).status).toBe(200);
      expect((await get('10.1.0.1', '1x2')).status).toBe(404);
      // The route (inject) counts into the same budget of that address.
      const viaRoute = await app.inject({
        method: 'GET',
        url: `/api/ros/${GOOD}/validity`,
        headers: { 'x-forwarded-for': '10.1.0.1' },
      });
      expect(viaRoute.statusCode).toBe(200);
      const limited = await get('10.1.0.1');
      expect(limited.status).toBe(429);
      expect(((await limited.json()) as { error: { code: string } }).error.code).toBe('RATE_LIMITED');
      const retryAfter = Number(limited.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(limited.headers.get('cache-control')).toBe('no-store');
      // The route answers the same 429 for that address.
      const routeLimited = await app.inject({
        method: 'GET',
        url: `/api/ros/${GOOD}/validity`,
        headers: { 'x-forwarded-for': '10.1.0.1' },
      });
      expect(routeLimited.statusCode).toBe(429);
      expect(routeLimited.body).toBe(
        JSON.stringify({ error: { code: 'RATE_LIMITED', message: 'Too many requests: try again later' } }),
      );
      // Another address has its own budget.
      expect((await get('10.1.0.2')).status).toBe(200);
    });
  });
}
