import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it } from 'vitest';
import { ConfigError, LOCAL_NIA_CLIENT_SECRET, loadConfig, startWarnings } from './config.js';
import { startup } from './startup.js';
import { createTestDb } from './test/databases.js';

/** A production set-up that passes: every secret given, NIA named. */
const PROD = {
  NODE_ENV: 'production',
  ROS_PUBLIC_URL: 'https://ros.example.cz',
  ROS_ALTCHA_HMAC_KEY: 'a-long-random-production-key-0123456789',
  ROS_NIA_ISSUER: 'https://nia.example.cz',
  ROS_NIA_CLIENT_ID: 'ros',
  ROS_NIA_CLIENT_SECRET: 'a-real-client-secret',
};

function problems(env: Record<string, string | undefined>): string[] {
  try {
    loadConfig(env);
    return [];
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
}

describe('production defaults (NODE_ENV=production)', () => {
  it('switches the test aids off unless asked for: NIA test provider, demo data, source maps', () => {
    const c = loadConfig(PROD);
    expect(c).toMatchObject({ production: true, niaTestProvider: false, demoData: false, sourceMaps: false });
    expect(startWarnings(c)).toEqual([]);
  });

  it('a plain start (no NODE_ENV) stays the full demo', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({ production: false, niaTestProvider: true, demoData: true, sourceMaps: true });
    expect(startWarnings(c)).toEqual([]);
  });

  it('never runs the test provider beside a real NIA issuer, in any environment', () => {
    expect(
      loadConfig({
        ROS_NIA_ISSUER: 'https://nia.example.cz',
        ROS_NIA_CLIENT_ID: 'x',
        ROS_NIA_CLIENT_SECRET: 'y',
      }),
    ).toMatchObject({ niaTestProvider: false });
    expect(problems({ ROS_NIA_ISSUER: 'https://nia.example.cz', ROS_NIA_TEST_PROVIDER: 'true' })).toEqual([
      expect.stringMatching(/^ROS_NIA_TEST_PROVIDER=true cannot run beside a real NIA/),
    ]);
  });

  it('refuses missing or default secrets, one line each', () => {
    const p = problems({ NODE_ENV: 'production' });
    // The ALTCHA key (on by default) and the real NIA (sign-in is on by default).
    expect(p).toHaveLength(2);
    expect(p[0]).toMatch(/ROS_NIA_ISSUER/);
    expect(p[1]).toMatch(/^ROS_ALTCHA_HMAC_KEY is required in production/);
    expect(problems({ ...PROD, ROS_NIA_CLIENT_SECRET: LOCAL_NIA_CLIENT_SECRET })).toEqual([
      expect.stringMatching(/^ROS_NIA_CLIENT_SECRET is the built-in local test secret/),
    ]);
    expect(problems({ ...PROD, ROS_NIA_CLIENT_SECRET: undefined })).toEqual([
      expect.stringMatching(/ROS_NIA_ISSUER needs ROS_NIA_CLIENT_ID and ROS_NIA_CLIENT_SECRET/),
    ]);
    // reCAPTCHA instead of ALTCHA: its own secret is required, the ALTCHA key is not.
    expect(problems({ ...PROD, ROS_ALTCHA_HMAC_KEY: undefined, ROS_BOT_CHECK: 'recaptcha' })).toEqual([
      expect.stringMatching(/ROS_RECAPTCHA_SECRET/),
    ]);
    // Without NIA sign-in (ROS_USE_EID=NO) no NIA settings are needed.
    expect(
      problems({ NODE_ENV: 'production', ROS_USE_EID: 'NO', ROS_ALTCHA_HMAC_KEY: PROD.ROS_ALTCHA_HMAC_KEY }),
    ).toEqual([]);
  });

  it('logs a loud warning at every start when a test aid is switched on in production', async () => {
    const t = await createTestDb('sqlite', {
      NODE_ENV: 'production',
      ROS_USE_EID: 'NO',
      ROS_ALTCHA_HMAC_KEY: PROD.ROS_ALTCHA_HMAC_KEY,
      ROS_NIA_TEST_PROVIDER: 'true',
      ROS_DEMO_DATA: 'true',
    });
    const warned: string[] = [];
    const log = {
      warn: (m: unknown) => warned.push(String(m)),
      info: () => {},
      error: () => {},
      debug: () => {},
      child: () => log,
    } as unknown as FastifyBaseLogger;
    try {
      await startup({ config: t.config, db: t.db, version: 'test' }, log);
      await startup({ config: t.config, db: t.db, version: 'test' }, log);
      const loud = warned.filter((w) => w.startsWith('SECURITY WARNING'));
      expect(loud).toHaveLength(4);
      expect(loud.filter((w) => w.includes('ROS_NIA_TEST_PROVIDER=true'))).toHaveLength(2);
      expect(loud.filter((w) => w.includes('ROS_DEMO_DATA=true'))).toHaveLength(2);
    } finally {
      await t.cleanup();
    }
  });
});
