import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from './app.js';
import type { AppContext } from './context.js';
import { createTestDb, type TestDb, testDbKinds } from './test/databases.js';

/**
 * Two instances on one PostgreSQL database must not double a per-address limit (issue 15).
 * Both apps share the database as two processes would; requests alternate between them as a
 * round-robin proxy sends them.
 */
const kinds = await testDbKinds();

describe.runIf(kinds.includes('postgres'))('limits shared by two instances (postgres)', () => {
  let t: TestDb;
  const apps: FastifyInstance[] = [];

  beforeAll(async () => {
    t = await createTestDb('postgres', { ROS_RATE_LIMIT_SEARCH: '10', ROS_RATE_LIMIT_VALIDITY: '20' });
    for (let i = 0; i < 2; i++) {
      const app = await buildApp({ config: t.config, db: t.db, version: 'test' });
      await app.ready();
      apps.push(app);
    }
    // Both beat, then beat again so that each counts the other (a beat runs every few seconds).
    for (const a of apps) await a.services.instances.beat();
    for (const a of apps) await a.services.instances.beat();
  });
  afterAll(async () => {
    for (const a of apps) await a.close();
    await t?.cleanup();
  });

  it('counts the instances that beat', () => {
    expect(apps.map((a) => a.services.instances.live())).toEqual([2, 2]);
  });

  it('validate: the limit holds over both instances, not twice over', async () => {
    const statuses: number[] = [];
    for (let n = 0; n < 20; n++) {
      const r = await apps[n % 2]?.inject({ method: 'POST', url: '/api/ros/validate', payload: {} });
      statuses.push(r?.statusCode ?? 0);
    }
    expect(statuses.filter((s) => s === 429)).toHaveLength(10);
    expect(statuses.slice(0, 10)).not.toContain(429);
  });

  it('the validity check: each instance allows its share, the group about the limit', async () => {
    const statuses: number[] = [];
    for (let n = 0; n < 40; n++) {
      const r = await apps[n % 2]?.inject({ url: '/api/ros/990000001x2070/validity' });
      statuses.push(r?.statusCode ?? 0);
    }
    expect(statuses.filter((s) => s !== 429)).toHaveLength(20);
  });
});

describe('on SQLite (one process)', () => {
  it('one instance, limits in memory', async () => {
    const t = await createTestDb('sqlite', { ROS_RATE_LIMIT_SEARCH: '3' });
    const ctx: AppContext = { config: t.config, db: t.db, version: 'test' };
    const app = await buildApp(ctx);
    try {
      await app.ready();
      expect(app.services.instances.live()).toBe(1);
      const statuses: number[] = [];
      for (let n = 0; n < 5; n++) {
        statuses.push(
          (await app.inject({ method: 'POST', url: '/api/ros/validate', payload: {} })).statusCode,
        );
      }
      expect(statuses.filter((s) => s === 429)).toHaveLength(2);
    } finally {
      await app.close();
      await t.cleanup();
    }
  });
});
