import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../app.js';
import type { AppContext } from '../context.js';
import { createTestDb, type TestDb, testDbKinds } from '../test/databases.js';

/**
 * Two instances on one PostgreSQL database must not double a per-address limit (issue 15;
 * ratelimit/stores.ts, instances.ts).
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

/**
 * Issue 39 item 3: two instances let 21 through a limit of 20 (cluster.topology.ts). Not a race of
 * count and insert (this test fires the calls at once from both instances and gets exactly the
 * limit), but the window: the weighted two-window estimate floored the previous window's share, so
 * calls on both sides of a minute's edge got one more through. The exact sliding minute holds it.
 */
describe.runIf(kinds.includes('postgres'))('60 calls at once from two instances (postgres)', () => {
  it('answers exactly the limit (20), whatever the order the database sees them in', async () => {
    const t = await createTestDb('postgres', { ROS_RATE_LIMIT_SEARCH: '20' });
    const apps: FastifyInstance[] = [];
    try {
      for (let i = 0; i < 2; i++) {
        const app = await buildApp({ config: t.config, db: t.db, version: 'test' });
        await app.ready();
        apps.push(app);
      }
      for (const round of [1, 2]) {
        const ip = `198.51.100.${40 + round}`;
        const statuses = await Promise.all(
          Array.from({ length: 60 }, (_, n) =>
            apps[n % 2]?.inject({ method: 'POST', url: '/api/ros/validate', payload: {}, remoteAddress: ip }),
          ),
        );
        expect(statuses.filter((r) => r?.statusCode !== 429)).toHaveLength(20);
      }
    } finally {
      for (const a of apps) await a.close();
      await t.cleanup();
    }
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

/**
 * Issue 21: SQLite's limiter was @fastify/rate-limit's fixed window: 1 call at T0, 19 at +58 s and
 * 20 at +61 s got 39 answers within a minute against a limit of 20. Both databases now count over
 * a sliding minute. A fake clock (Date only: the app's own timers run as usual).
 */
for (const kind of kinds) {
  describe(`a sliding minute, not a fixed window (${kind})`, () => {
    let t: TestDb;
    let app: FastifyInstance;
    beforeAll(async () => {
      t = await createTestDb(kind, { ROS_RATE_LIMIT_SEARCH: '20' });
      app = await buildApp({ config: t.config, db: t.db, version: 'test' });
      await app.ready();
    });
    afterAll(async () => {
      vi.useRealTimers();
      await app?.close();
      await t?.cleanup();
    });

    /** Calls of validate at `at` ms after T0 from one address; how many were answered (not 429). */
    const answered = async (t0: number, at: number, n: number, ip: string) => {
      vi.setSystemTime(t0 + at);
      let ok = 0;
      for (let i = 0; i < n; i++) {
        const r = await app.inject({
          method: 'POST',
          url: '/api/ros/validate',
          payload: {},
          remoteAddress: ip,
        });
        if (r.statusCode !== 429) ok++;
      }
      return ok;
    };

    // The cluster's 21 of 20 (issue 39 item 3): 10 calls just before a minute's edge and 20 just
    // after were 21 answers, the previous minute's share floored (10 x 0.98 counted as 9).
    it('10 calls at :59.5 and 20 at :00.5 of the next minute: 20 answered, not 21', async () => {
      vi.useFakeTimers({ toFake: ['Date'] });
      const t0 = Date.UTC(2026, 10, 26, 13, 0, 59, 500);
      try {
        const first = await answered(t0, 0, 10, '198.51.100.23');
        const second = await answered(t0, 1000, 20, '198.51.100.23');
        expect(first + second).toBe(20);
      } finally {
        vi.useRealTimers();
      }
    });

    // T0 at a minute's start and in the middle of one: the window's edges must not matter.
    for (const [offset, ip] of [
      [0, '198.51.100.21'],
      [30_500, '198.51.100.22'],
    ] as const) {
      it(`1 at T0, 19 at +58 s, 20 at +61 s: at most 21 answered, not 40 (T0 at :${offset / 1000} s)`, async () => {
        vi.useFakeTimers({ toFake: ['Date'] });
        const t0 = Date.UTC(2026, 10, 26, 12, 0, 0) + offset;
        try {
          expect(await answered(t0, 0, 1, ip)).toBe(1);
          expect(await answered(t0, 58_000, 19, ip)).toBe(19);
          // Within the minute before +61 s there are 19 already: one more at most.
          expect(await answered(t0, 61_000, 20, ip)).toBeLessThanOrEqual(1);
          // Long after, the address is answered again.
          expect(await answered(t0, 240_000, 1, ip)).toBe(1);
        } finally {
          vi.useRealTimers();
        }
      });
    }
  });
}
