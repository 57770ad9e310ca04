import { randomBytes } from 'node:crypto';
import { validityCode } from '@ros/domain';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { saveRecords } from './records/repository.js';
import { createTestDb, type TestDb, testDbKinds } from './test/databases.js';

/**
 * Per-address limits behind a reverse proxy (issue 11): a client-written X-Forwarded-For must not
 * make every request look like a new client. Both shapes: a client sending a random header
 * straight to the server, and nginx's `spoofed, real` (it appends the address it saw).
 */

const FUTURE = '2031-05-20';
const TOKEN = `7x${validityCode(FUTURE)}`;
const randomIp = () => [...randomBytes(4)].join('.');
const PROXY = '127.0.0.1';
const CLIENT = '198.51.100.7';

async function count(
  app: FastifyInstance,
  n: number,
  req: () => InjectOptions,
): Promise<{ answered: number; limited: number }> {
  let limited = 0;
  for (let i = 0; i < n; i++) {
    const res = await app.inject(req());
    if (res.statusCode === 429) limited++;
  }
  return { answered: n - limited, limited };
}

for (const kind of await testDbKinds()) {
  for (const trust of [PROXY, 'true', '1']) {
    describe(`ROS_TRUST_PROXY=${trust}: spoofed X-Forwarded-For (${kind})`, () => {
      let t: TestDb;
      let app: FastifyInstance;
      beforeAll(async () => {
        t = await createTestDb(kind, {
          ROS_TRUST_PROXY: trust,
          ROS_RATE_LIMIT_VALIDITY: '60',
          ROS_RATE_LIMIT_SEARCH: '20',
        });
        await saveRecords(t.db, [
          {
            id: 7,
            person_id: null,
            stav: 'Ano',
            platnost_do: FUTURE,
            a1a3_valid_until: null,
            a2_valid_until: null,
            first_name: 'Jiřina',
            last_name: 'Dvořáková',
          },
        ]);
        app = await buildApp({ config: t.config, db: t.db, version: 'test' });
      });
      afterAll(async () => {
        await app?.close();
        await t?.cleanup();
      });

      // `xff` is called for every request: a new spoofed address each time.
      const validity = (remoteAddress: string, xff: () => string) => () => ({
        method: 'GET' as const,
        url: `/api/ros/${TOKEN}/validity`,
        remoteAddress,
        headers: { 'x-forwarded-for': xff() },
      });
      const validate = (remoteAddress: string, xff: () => string) => () => ({
        method: 'POST' as const,
        url: '/api/ros/validate',
        remoteAddress,
        headers: { 'x-forwarded-for': xff(), 'content-type': 'application/json' },
        payload: '{}',
      });

      it('the validity check (limit 60): nginx shape `spoofed, real` is counted per real client', async () => {
        const r = await count(
          app,
          300,
          validity(PROXY, () => `${randomIp()}, ${CLIENT}`),
        );
        expect(r.answered).toBeLessThanOrEqual(61);
        expect(r.limited).toBeGreaterThanOrEqual(239);
        // Another real client behind the same proxy has its own count.
        const other = await app.inject(validity(PROXY, () => `${randomIp()}, 198.51.100.8`)());
        expect(other.statusCode).toBe(200);
      });

      it('validate (limit 20): nginx shape `spoofed, real` is counted per real client', async () => {
        const r = await count(
          app,
          100,
          validate(PROXY, () => `${randomIp()}, 198.51.100.9`),
        );
        expect(r.answered).toBeLessThanOrEqual(20);
      });

      if (trust === PROXY) {
        // A client that reaches the server directly is not a trusted proxy: its header is ignored.
        it('the validity check: a direct client with random headers is one client', async () => {
          const r = await count(app, 300, validity('203.0.113.5', randomIp));
          expect(r.answered).toBeLessThanOrEqual(61);
        });
        it('validate: a direct client with random headers is one client', async () => {
          const r = await count(app, 100, validate('203.0.113.6', randomIp));
          expect(r.answered).toBeLessThanOrEqual(20);
        });
      }
    });
  }
}

describe('ROS_TRUST_PROXY values', () => {
  it('takes addresses, CIDR ranges, proxy-addr names and hop counts; refuses the rest', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ ROS_TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ ROS_TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ ROS_TRUST_PROXY: '10.0.0.5, 10.1.0.0/16,loopback,::1' }).trustProxy).toEqual([
      '10.0.0.5',
      '10.1.0.0/16',
      'loopback',
      '::1',
    ]);
    // Outside production `true` means the one proxy in front, never "believe every entry".
    expect(loadConfig({ ROS_TRUST_PROXY: 'true' }).trustProxy).toBe(1);
    expect(() => loadConfig({ ROS_TRUST_PROXY: 'proxy.example' })).toThrow(/ROS_TRUST_PROXY/);
    expect(() => loadConfig({ ROS_TRUST_PROXY: '10.0.0.0/33' })).toThrow(/ROS_TRUST_PROXY/);
  });

  it('refuses the ambiguous `true` in production', () => {
    try {
      loadConfig({
        NODE_ENV: 'production',
        ROS_TRUST_PROXY: 'true',
        ROS_USE_EID: 'NO',
        ROS_PUBLIC_URL: 'https://ros.example.cz',
        ROS_ALTCHA_HMAC_KEY: randomBytes(32).toString('hex'),
      });
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      expect((err as ConfigError).problems).toEqual([
        expect.stringMatching(/^ROS_TRUST_PROXY=true is ambiguous/),
      ]);
    }
  });

  it('a hop count takes the address the nearest proxy saw, not the leftmost', async () => {
    const t = await createTestDb('sqlite', { ROS_TRUST_PROXY: '2' });
    const app = await buildApp({ config: t.config, db: t.db, version: 'test' });
    app.get('/ip', async (req) => ({ ip: req.ip }));
    try {
      const res = await app.inject({
        method: 'GET',
        url: '/ip',
        remoteAddress: '10.0.0.2',
        headers: { 'x-forwarded-for': `${randomIp()}, ${CLIENT}, 10.0.0.1` },
      });
      expect(res.json().ip).toBe(CLIENT);
    } finally {
      await app.close();
      await t.cleanup();
    }
  });
});
