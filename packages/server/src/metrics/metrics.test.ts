import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import type { AppContext } from '../context.js';
import { changeStatus } from '../intake/status.js';
import { agreed, newApplicant } from '../test/applicant.js';
import { solvedToken } from '../test/botcheck.js';
import { createTestDb, type TestDb, testDbKinds } from '../test/databases.js';
import { storedRequest } from '../test/requests.js';
import { seedFormData } from '../test/seed.js';

const TOKEN = 'metrics-token-for-the-tests-0123456789abcdef';

/** The value of one sample line of the exposition text, or undefined when it is absent. */
function sample(text: string, line: string): number | undefined {
  const found = text.split('\n').find((l) => l.startsWith(`${line} `));
  return found === undefined ? undefined : Number(found.slice(line.length + 1));
}

for (const kind of await testDbKinds()) {
  describe(`GET /metrics (${kind})`, () => {
    let t: TestDb;
    let app: FastifyInstance;
    const scrape = async () => {
      const r = await app.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
      expect(r.statusCode).toBe(200);
      expect(r.headers['content-type']).toContain('text/plain');
      return r.body;
    };

    beforeAll(async () => {
      t = await createTestDb(kind, {
        ROS_METRICS_TOKEN: TOKEN,
        ROS_ALTCHA_MAX_NUMBER: '1000',
        ROS_RATE_LIMIT_SEARCH: '100000',
      });
      const ctx: AppContext = { config: t.config, db: t.db, version: 'test' };
      await seedFormData(ctx);
      app = await buildApp(ctx);
      await app.ready();
    });
    afterAll(async () => {
      await app?.close();
      await t?.cleanup();
    });

    it('answers only the bearer of the token, in the one error shape', async () => {
      for (const authorization of [undefined, 'Bearer wrong', `Basic ${TOKEN}`, `Bearer ${TOKEN}x`]) {
        const r = await app.inject({ url: '/metrics', headers: authorization ? { authorization } : {} });
        expect(r.statusCode).toBe(401);
        expect(r.json()).toMatchObject({ error: { code: 'UNAUTHORIZED' } });
        expect(r.headers['www-authenticate']).toBe('Bearer');
      }
    });

    it('times answers by route pattern, never by path', async () => {
      await app.inject({ url: '/api/ros/metadata' });
      await app.inject({ url: '/api/ros/990000001x2070/validity' });
      const text = await scrape();
      expect(text).toMatch(
        /ros_http_request_duration_seconds_count\{method="GET",route="\/api\/ros\/metadata",status="200"\} [1-9]/,
      );
      expect(text).toContain('route="/api/ros/:id/validity"');
      // Not in any label (a sample's value, a duration sum, may hold those digits by chance).
      expect(text).not.toMatch(/\{[^}]*990000001[^}]*\}/);
      // Process metrics, among them the event-loop delay.
      expect(text).toContain('ros_nodejs_eventloop_lag_p99_seconds');
    });

    it('gives the validity index’s age: the time since its last load, read from the index', async () => {
      // Bracketed by the clock before and after the scrape, with the index's load time unchanged
      // in between (it reloads every second; a reload in between is asked again): no duration is
      // assumed, only what the gauge computes from.
      const { validity } = app.services;
      for (let tries = 0; ; tries++) {
        const loadedAt = validity.currentAt;
        const before = Date.now();
        const age = sample(await scrape(), 'ros_validity_index_age_seconds');
        const after = Date.now();
        if (loadedAt === undefined || validity.currentAt !== loadedAt) {
          await new Promise((r) => setTimeout(r, 50));
          if (tries < 100) continue;
          throw new Error('the validity index was not loaded, or reloaded during every scrape');
        }
        expect(age).toBeGreaterThanOrEqual((before - loadedAt) / 1000);
        expect(age).toBeLessThanOrEqual((after - loadedAt) / 1000);
        return;
      }
    });

    it('counts bot-check refusals by code and submissions by channel', async () => {
      const before = await scrape();
      const refused = await app.inject({
        method: 'POST',
        url: '/api/ros',
        headers: { recaptcha: 'not-a-token' },
        payload: {
          ...newApplicant({ email: 'refused@example.cz' }),
          language: 'cs',
          duplicate: false,
          ...agreed(),
        },
      });
      expect(refused.statusCode).toBe(403);
      const code = (refused.json() as { error: { code: string } }).error.code;
      const stored = await app.inject({
        method: 'POST',
        url: '/api/ros',
        headers: { recaptcha: await solvedToken(app) },
        payload: { ...newApplicant(), language: 'cs', duplicate: false, ...agreed() },
      });
      expect(stored.statusCode, stored.body).toBe(201);
      const after = await scrape();
      const failures = `ros_bot_check_failures_total{code="${code}"}`;
      expect((sample(after, failures) ?? 0) - (sample(before, failures) ?? 0)).toBe(1);
      const pdf = 'ros_submissions_total{channel="pdf"}';
      expect((sample(after, pdf) ?? 0) - (sample(before, pdf) ?? 0)).toBe(1);
    });

    it('reads the mail queue of the whole instance group from the database', async () => {
      const text = await scrape();
      expect(sample(text, 'ros_mail_queue{status="failed"}')).toBe(0);
      expect(sample(text, 'ros_mail_queue{status="pending"}')).toBe(0);
      // A status notification that gave up counts too (issue 36: every kind of message).
      const r = await storedRequest(t.db, { send_notifications_email: true });
      await changeStatus(t.db, r.reference, { status: 'received' });
      await t.db.kysely
        .updateTable('status_notices')
        .set({ status: 'failed' })
        .where('request_id', '=', r.id)
        .execute();
      expect(sample(await scrape(), 'ros_mail_queue{status="failed"}')).toBe(1);
    });
  });
}

describe('without ROS_METRICS_TOKEN', () => {
  it('keeps nothing and has no /metrics', async () => {
    const t = await createTestDb('sqlite');
    const ctx: AppContext = { config: t.config, db: t.db, version: 'test' };
    const app = await buildApp(ctx);
    try {
      const r = await app.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
      expect(r.statusCode).toBe(404);
      expect(app.services.metrics).toBeUndefined();
    } finally {
      await app.close();
      await t.cleanup();
    }
  });
});
