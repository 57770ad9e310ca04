import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { APP_PATHS } from '@ros/domain';
import type { FastifyInstance } from 'fastify';
import type { KyselyPlugin } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from './app.js';
import { API_SECURITY_HEADERS } from './http/apiHeaders.js';
import { createToken } from './intake/tokens.js';
import { saveRecords } from './records/repository.js';
import { createTestDb, type TestDb, testDbKinds } from './test/databases.js';

/**
 * Every answer of the server, also those no route makes (issue 11): the one error shape with
 * documented codes and security headers; pages and assets with the right cache headers, for GET
 * and HEAD alike; 404 for paths that are not pages; readiness until the validity index is read.
 */

const INDEX = '<!doctype html><html><head><title>ROS</title></head><body><div id="root"></div></body></html>';
const ASSET = 'assets/index-AbCdEf12.js';

function fakeWebDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'ros-web-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'index.html'), INDEX);
  writeFileSync(join(dir, ASSET), 'console.log(1)\n//# sourceMappingURL=index-AbCdEf12.js.map\n');
  writeFileSync(join(dir, `${ASSET}.map`), '{"version":3,"sourcesContent":["secret source"]}');
  writeFileSync(join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  return dir;
}

function expectErrorShape(res: { headers: Record<string, unknown>; body: string }, code: string) {
  expect(JSON.parse(res.body)).toEqual({ error: { code, message: expect.any(String) } });
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  expect(res.headers['x-content-type-options']).toBe('nosniff');
  expect(String(res.headers['content-security-policy'])).toMatch(/frame-ancestors 'none'/);
}

for (const kind of await testDbKinds()) {
  describe(`answers outside the routes (${kind})`, () => {
    let t: TestDb;
    let app: FastifyInstance;
    let webDir: string;
    let port: number;
    beforeAll(async () => {
      webDir = fakeWebDir();
      t = await createTestDb(kind, { ROS_WEB_DIR: webDir, ROS_SOURCE_MAPS: 'false' });
      app = await buildApp({ config: t.config, db: t.db, version: 'test' });
      await app.listen({ port: 0, host: '127.0.0.1' });
      port = (app.server.address() as { port: number }).port;
    });
    afterAll(async () => {
      await app?.close();
      await t?.cleanup();
      rmSync(webDir, { recursive: true, force: true });
    });

    it('a malformed URL (/%zz): 400 BAD_URL in the one shape, with security headers, no echo', async () => {
      for (const url of ['/%zz', '/api/ros/%zz/validity']) {
        const res = await app.inject({ method: 'GET', url });
        expect(res.statusCode, url).toBe(400);
        expectErrorShape(res, 'BAD_URL');
        expect(res.body).not.toContain('%zz');
      }
    });

    it('a raw non-ASCII path: 400 BAD_REQUEST in the one shape, with security headers', async () => {
      const raw = await new Promise<string>((resolve, reject) => {
        const s = connect(port, '127.0.0.1', () => {
          s.write(
            Buffer.concat([
              Buffer.from('GET /'),
              Buffer.from([0xc3, 0xa9]),
              Buffer.from(' HTTP/1.1\r\nHost: x\r\n\r\n'),
            ]),
          );
        });
        let out = '';
        s.on('data', (d) => {
          out += d.toString('latin1');
        });
        s.on('end', () => resolve(out));
        s.on('error', reject);
      });
      const [head = '', body = ''] = raw.split('\r\n\r\n');
      expect(head).toMatch(/^HTTP\/1\.1 400 /);
      expect(head.toLowerCase()).toContain('x-content-type-options: nosniff');
      expect(head.toLowerCase()).toContain("content-security-policy: default-src 'none'");
      expect(JSON.parse(body)).toEqual({ error: { code: 'BAD_REQUEST', message: expect.any(String) } });
    });

    it('invalid JSON, too large bodies and unsupported media types: documented codes', async () => {
      const post = (payload: string, type = 'application/json') =>
        app.inject({ method: 'POST', url: '/api/ros/validate', payload, headers: { 'content-type': type } });
      const invalid = await post('{"a":');
      expect(invalid.statusCode).toBe(400);
      expectErrorShape(invalid, 'INVALID_JSON');
      const large = await post(`{"a":"${'x'.repeat(64 * 1024)}"}`);
      expect(large.statusCode).toBe(413);
      expectErrorShape(large, 'PAYLOAD_TOO_LARGE');
      const media = await post('a=b', 'application/x-www-form-urlencoded');
      expect(media.statusCode).toBe(415);
      expectErrorShape(media, 'UNSUPPORTED_MEDIA_TYPE');
      expect(media.body).not.toContain('x-www-form-urlencoded');
    });

    it('every body that is not JSON gets 415 UNSUPPORTED_MEDIA_TYPE, on every call that takes one', async () => {
      const urls = [
        ['POST', '/api/ros/validate'],
        ['POST', '/api/ros/search'],
        ['POST', '/api/ros/search-birth-number'],
        ['POST', '/api/ros'],
        ['PUT', '/api/intake/v1/persons/1'],
      ] as const;
      // The intake API checks the token first (no answer says more to a caller without one).
      const authorization = `Bearer ${await createToken(t.db, 'media', ['persons:write'], 'test')}`;
      for (const [method, url] of urls) {
        for (const type of [
          'text/plain',
          'text/plain; charset=utf-8',
          'application/xml',
          'application/octet-stream',
        ]) {
          const headers = { 'content-type': type, authorization };
          const res = await app.inject({ method, url, payload: '{"a":1}', headers });
          expect(res.statusCode, `${method} ${url} ${type}`).toBe(415);
          expectErrorShape(res, 'UNSUPPORTED_MEDIA_TYPE');
        }
      }
    });

    it('answers every page path with the app: 200 for its pages, 404 for others, GET and HEAD alike', async () => {
      for (const path of APP_PATHS) {
        for (const method of ['GET', 'HEAD'] as const) {
          const res = await app.inject({ method, url: path });
          expect(res.statusCode, `${method} ${path}`).toBe(path === '/not-found' ? 404 : 200);
          expect(res.headers['content-type'], path).toMatch(/^text\/html/);
          // The form's pages stay out of the back/forward cache (issue 28).
          expect(res.headers['cache-control'], path).toBe(path.endsWith('/form') ? 'no-store' : 'no-cache');
          if (method === 'GET') expect(res.body).toBe(INDEX);
        }
      }
      expect((await app.inject({ method: 'GET', url: '/form?lang=en' })).statusCode).toBe(200);
      for (const path of ['/nothing-here', '/form/extra', '/wp-admin']) {
        for (const method of ['GET', 'HEAD'] as const) {
          const res = await app.inject({ method, url: path });
          expect(res.statusCode, `${method} ${path}`).toBe(404);
          expect(res.headers['content-type']).toMatch(/^text\/html/);
          if (method === 'GET') expect(res.body).toBe(INDEX);
        }
      }
      // A missing file is a JSON 404 in the one shape.
      const missing = await app.inject({ method: 'GET', url: '/assets/none-12345678.js' });
      expect(missing.statusCode).toBe(404);
      expectErrorShape(missing, 'NOT_FOUND');
    });

    it('caches hashed assets for good and revalidates the rest, for GET and HEAD', async () => {
      for (const method of ['GET', 'HEAD'] as const) {
        const asset = await app.inject({ method, url: `/${ASSET}` });
        expect(asset.statusCode).toBe(200);
        expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
        const icon = await app.inject({ method, url: '/favicon.svg' });
        expect(icon.statusCode).toBe(200);
        expect(icon.headers['cache-control']).toBe('no-cache');
        const index = await app.inject({ method, url: '/index.html' });
        expect(index.headers['cache-control']).toBe('no-cache');
      }
    });

    it('does not serve source maps when ROS_SOURCE_MAPS is off (the production default)', async () => {
      const res = await app.inject({ method: 'GET', url: `/${ASSET}.map` });
      expect(res.statusCode).toBe(404);
      expect(res.body).not.toContain('secret source');
    });

    it('sends a strict CSP and a Permissions-Policy with the pages', async () => {
      const res = await app.inject({ method: 'GET', url: '/form' });
      const csp = String(res.headers['content-security-policy']);
      expect(csp).not.toContain('unsafe-inline');
      expect(csp).not.toContain('google');
      expect(csp).not.toContain('gstatic');
      expect(csp).toContain("object-src 'none'");
      expect(csp).toContain("base-uri 'none'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toMatch(/style-src 'self'(;|$)/);
      expect(res.headers['permissions-policy']).toMatch(/camera=\(\)/);
      expect(res.headers['permissions-policy']).toMatch(/geolocation=\(\)/);
    });

    it('unknown API-less paths without a web app answer in the one shape too', async () => {
      const t2 = await createTestDb(kind);
      const api = await buildApp({ config: t2.config, db: t2.db, version: 'test' });
      try {
        const res = await api.inject({ method: 'GET', url: '/nothing' });
        expect(res.statusCode).toBe(404);
        expectErrorShape(res, 'NOT_FOUND');
      } finally {
        await api.close();
        await t2.cleanup();
      }
    });
  });

  describe(`readiness and the validity index (${kind})`, () => {
    it('reads the certificates only when the app is ready: work done after building it is seen', async () => {
      // As main.ts: build the app, then start-up work (demo data) writes certificates, then listen.
      const t = await createTestDb(kind, { ROS_VALIDITY_REFRESH_MS: '600000' });
      const app = await buildApp({ config: t.config, db: t.db, version: 'test' });
      try {
        await saveRecords(t.db, [
          {
            id: 5,
            person_id: null,
            stav: 'Ano',
            platnost_do: '2031-05-20',
            a1a3_valid_until: null,
            a2_valid_until: null,
            first_name: 'Petr',
            last_name: 'Černý',
          },
        ]);
        // 2031-05-20: 20 + 5 + 2031 = 2056. Before, this said 404 until the index looked again.
        const res = await app.inject({ method: 'GET', url: '/api/ros/5x2056/validity' });
        expect(res.statusCode).toBe(200);
      } finally {
        await app.close();
        await t.cleanup();
      }
    });

    it('answers /readyz 503 until the index is read; a check meanwhile waits instead of saying "unknown"', async () => {
      const t = await createTestDb(kind, { ROS_VALIDITY_REFRESH_MS: '600000' });
      await saveRecords(t.db, [
        {
          id: 5,
          person_id: null,
          stav: 'Ano',
          platnost_do: '2031-05-20',
          a1a3_valid_until: null,
          a2_valid_until: null,
          first_name: 'Petr',
          last_name: 'Černý',
        },
      ]);
      // Hold every query's result until released: the index's first read stays in flight.
      let release: () => void = () => {};
      const gate = new Promise<void>((r) => {
        release = r;
      });
      const held: KyselyPlugin = {
        transformQuery: (a) => a.node,
        transformResult: async (a) => {
          await gate;
          return a.result;
        },
      };
      const db = { ...t.db, kysely: t.db.kysely.withPlugin(held) };
      const app = await buildApp({ config: t.config, db, version: 'test' });
      try {
        await app.ready();
        const starting = await app.inject({ method: 'GET', url: '/readyz' });
        expect(starting.statusCode).toBe(503);
        expect(starting.json()).toEqual({ status: 'starting', waiting: ['validity index'] });
        expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
        const check = app.inject({ method: 'GET', url: '/api/ros/5x2056/validity' });
        await new Promise((r) => setTimeout(r, 50));
        release();
        expect((await check).statusCode).toBe(200);
        const ready = await app.inject({ method: 'GET', url: '/readyz' });
        expect(ready.statusCode).toBe(200);
        expect(ready.json()).toEqual({ status: 'ready' });
      } finally {
        release();
        await app.close();
        await t.cleanup();
      }
    });
  });
}

describe('the test provider path in production (issue 33, item 11)', () => {
  it('answers /nia-test/* 404 with the security headers every other answer has', async () => {
    const secret = () => randomBytes(32).toString('hex');
    const webDir = fakeWebDir();
    const t = await createTestDb('sqlite', {
      NODE_ENV: 'production',
      ROS_PUBLIC_URL: 'https://ros.example.cz',
      ROS_ALTCHA_HMAC_KEY: secret(),
      ROS_STATUS_KEY: secret(),
      ROS_USE_EID: 'NO',
      ROS_WEB_DIR: webDir,
    });
    const app = await buildApp({ config: t.config, db: t.db, version: 'test' });
    try {
      expect(t.config).toMatchObject({ production: true, niaTestProvider: false });
      const reference = await app.inject({ method: 'GET', url: '/api/ros/nothing-here' });
      expect(reference.statusCode).toBe(404);
      const headersOf = (h: Record<string, unknown>) =>
        Object.fromEntries(Object.keys(API_SECURITY_HEADERS).map((k) => [k, h[k]]));
      expect(headersOf(reference.headers)).toEqual(API_SECURITY_HEADERS);
      for (const [method, url] of [
        ['GET', '/nia-test'],
        ['GET', '/nia-test/.well-known/openid-configuration'],
        ['GET', '/nia-test/interaction/abc'],
        ['POST', '/nia-test/token'],
        ['HEAD', '/nia-test/jwks'],
      ] as const) {
        const res = await app.inject({ method, url });
        expect(res.statusCode, url).toBe(404);
        expect(headersOf(res.headers), `${method} ${url}`).toEqual(API_SECURITY_HEADERS);
        if (method !== 'HEAD') expectErrorShape(res, 'NOT_FOUND');
      }
    } finally {
      await app.close();
      await t.cleanup();
      rmSync(webDir, { recursive: true, force: true });
    }
  });
});
