import { describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { createTestDb, testDbKinds } from '../test/databases.js';

for (const kind of await testDbKinds()) {
  describe(`GET /api/ros/metadata (${kind})`, () => {
    async function metadata(env: Record<string, string>) {
      const t = await createTestDb(kind, env);
      const app = await buildApp({ config: t.config, db: t.db, version: '1.2.3' });
      try {
        const res = await app.inject({ method: 'GET', url: '/api/ros/metadata' });
        return { res, body: res.json() as Record<string, unknown> };
      } finally {
        await app.close();
        await t.cleanup();
      }
    }

    it('answers version, use_eid, recaptchaSiteKey and botCheckProvider, never cached', async () => {
      const { res, body } = await metadata({});
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(body).toEqual({
        version: '1.2.3',
        // The spec's default: the home page offers NIA sign-in.
        use_eid: 'YES',
        recaptchaSiteKey: '',
        botCheckProvider: 'altcha',
      });
    });

    it('follows ROS_USE_EID', async () => {
      expect((await metadata({ ROS_USE_EID: 'YES' })).body.use_eid).toBe('YES');
      expect((await metadata({ ROS_USE_EID: 'NO' })).body.use_eid).toBe('NO');
    });

    it('publishes the reCAPTCHA site key (and never the secret) with the recaptcha provider', async () => {
      const { res, body } = await metadata({
        ROS_BOT_CHECK: 'recaptcha',
        ROS_RECAPTCHA_SITE_KEY: 'site-key-123',
        ROS_RECAPTCHA_SECRET: 'very-secret-value',
      });
      expect(body).toMatchObject({ recaptchaSiteKey: 'site-key-123', botCheckProvider: 'recaptcha' });
      expect(res.body).not.toContain('very-secret-value');
    });

    it('keeps the site key out with altcha even when one is configured', async () => {
      const { body } = await metadata({ ROS_RECAPTCHA_SITE_KEY: 'left-over-key' });
      expect(body).toMatchObject({ recaptchaSiteKey: '', botCheckProvider: 'altcha' });
    });
  });
}
