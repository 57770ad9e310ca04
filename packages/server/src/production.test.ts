import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it } from 'vitest';
import {
  ALTCHA_MIN_WORK,
  ConfigError,
  LOCAL_NIA_CLIENT_SECRET,
  loadConfig,
  secretWeakness,
  startWarnings,
} from './config/config.js';
import {
  estimateEntropyBits,
  hashToken,
  readPublishedList,
  scanRepository,
  writePublishedList,
} from './config/secrets.js';
import { startup } from './startup.js';
import { createTestDb } from './test/databases.js';

/** A random secret: a literal one would be in this file, so published (and refused). */
const random = () => randomBytes(32).toString('hex');

/** A production set-up that passes: every secret given, NIA named. */
const PROD = {
  NODE_ENV: 'production',
  ROS_PUBLIC_URL: 'https://ros.example.cz',
  ROS_ALTCHA_HMAC_KEY: random(),
  ROS_STATUS_KEY: random(),
  ROS_NIA_ISSUER: 'https://nia.example.cz',
  ROS_NIA_CLIENT_ID: 'ros',
  ROS_NIA_CLIENT_SECRET: random(),
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

describe('the SMS gateway and the status key in production (issue 26)', () => {
  it('refuses ROS_SMS_URL without ROS_SMS_TOKEN, or over plain http', () => {
    expect(problems({ ...PROD, ROS_SMS_URL: 'https://sms.example.cz/send' })).toEqual([
      'ROS_SMS_URL needs ROS_SMS_TOKEN in production (the bearer token the SMS gateway issued)',
    ]);
    expect(problems({ ...PROD, ROS_SMS_URL: 'http://sms.example.cz/send', ROS_SMS_TOKEN: random() })).toEqual(
      ['ROS_SMS_URL must be an https:// address in production'],
    );
    expect(
      problems({ ...PROD, ROS_SMS_URL: 'https://sms.example.cz/send', ROS_SMS_TOKEN: random() }),
    ).toEqual([]);
    // Outside production the local stub of the tests needs neither.
    expect(problems({ ROS_SMS_URL: 'http://127.0.0.1:9/sms' })).toEqual([]);
  });

  it('checks ROS_STATUS_KEY like the other keys (and a guessable one is refused)', () => {
    expect(problems({ ...PROD, ROS_STATUS_KEY: random() })).toEqual([]);
    expect(problems({ ...PROD, ROS_STATUS_KEY: 'a'.repeat(40) })).toEqual([
      expect.stringMatching(/^ROS_STATUS_KEY is too easy to guess/),
    ]);
    expect(problems({ ROS_STATUS_KEY: 'short' })).toEqual([
      'ROS_STATUS_KEY must be at least 32 characters (unset it to keep a random key in the database)',
    ]);
  });
});

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

  it('a NIA session of seconds is for tests only: refused in production (issue 27)', () => {
    expect(loadConfig({ ROS_SESSION_MINUTES: '0.5' })).toMatchObject({
      sessionMinutes: 0.5,
      sessionMaxMinutes: 120,
    });
    expect(loadConfig(PROD)).toMatchObject({ sessionMinutes: 30, sessionMaxMinutes: 120 });
    expect(problems({ ...PROD, ROS_SESSION_MINUTES: '0.5' })).toEqual([
      expect.stringMatching(/^ROS_SESSION_MINUTES="0.5" must be a number from 1 to 1440/),
    ]);
    expect(problems({ ROS_SESSION_MINUTES: '0.33' })).toEqual([
      expect.stringMatching(/whole number of seconds/),
    ]);
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
    // The ALTCHA key (on by default), the real NIA (sign-in is on by default), the public URL, the status key.
    expect(p).toHaveLength(4);
    expect(p[0]).toMatch(/ROS_NIA_ISSUER/);
    expect(p[1]).toMatch(/^ROS_ALTCHA_HMAC_KEY is required in production/);
    expect(p[2]).toMatch(/^ROS_PUBLIC_URL \(unset\) must be the portal's https:\/\/ address/);
    expect(p[3]).toMatch(/^ROS_STATUS_KEY is required in production/);
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
      problems({
        NODE_ENV: 'production',
        ROS_USE_EID: 'NO',
        ROS_PUBLIC_URL: PROD.ROS_PUBLIC_URL,
        ROS_ALTCHA_HMAC_KEY: PROD.ROS_ALTCHA_HMAC_KEY,
        ROS_STATUS_KEY: PROD.ROS_STATUS_KEY,
      }),
    ).toEqual([]);
  });

  it('logs a loud warning at every start when a test aid is switched on in production', async () => {
    const t = await createTestDb('sqlite', {
      NODE_ENV: 'production',
      ROS_USE_EID: 'NO',
      ROS_PUBLIC_URL: PROD.ROS_PUBLIC_URL,
      ROS_ALTCHA_HMAC_KEY: PROD.ROS_ALTCHA_HMAC_KEY,
      ROS_STATUS_KEY: PROD.ROS_STATUS_KEY,
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

describe('production refuses weak secrets and unsafe addresses (issue 21), one line each', () => {
  it('passes the set-up with random secrets', () => {
    expect(problems(PROD)).toEqual([]);
  });

  it('a key with too little entropy: 32 × "a", a repeated pattern, a run', () => {
    for (const key of ['a'.repeat(32), 'ab'.repeat(20), '0123456789abcdef'.repeat(2)]) {
      expect(problems({ ...PROD, ROS_ALTCHA_HMAC_KEY: key })).toEqual([
        expect.stringMatching(/^ROS_ALTCHA_HMAC_KEY is too easy to guess \(about \d+ bits estimated/),
      ]);
    }
    expect(problems({ ...PROD, ROS_METRICS_TOKEN: 'z'.repeat(40) })).toEqual([
      expect.stringMatching(/^ROS_METRICS_TOKEN is too easy to guess/),
    ]);
    // The line names the setting, never the value.
    expect(problems({ ...PROD, ROS_ALTCHA_HMAC_KEY: 'q'.repeat(32) }).join()).not.toContain('qqqq');
  });

  it('the estimate: made-up keys score low, random ones high', () => {
    expect(estimateEntropyBits('a'.repeat(32))).toBeLessThan(10);
    expect(estimateEntropyBits('abcdefghijklmnopqrstuvwxyz012345')).toBeLessThan(128);
    // The documented way (openssl rand -hex 32), and base64 of as many bytes.
    for (let i = 0; i < 50; i++) {
      expect(estimateEntropyBits(randomBytes(32).toString('hex'))).toBeGreaterThanOrEqual(128);
      expect(estimateEntropyBits(randomBytes(32).toString('base64'))).toBeGreaterThanOrEqual(128);
    }
  });

  it("a secret published in the repository: the bench's ALTCHA key, a test's secret", () => {
    // Both literals are in files of this repository (this one at least): anyone can read them.
    expect(problems({ ...PROD, ROS_ALTCHA_HMAC_KEY: 'bench-only-altcha-hmac-key-0123456789abcdef' })).toEqual(
      [expect.stringMatching(/^ROS_ALTCHA_HMAC_KEY appears in this repository's files/)],
    );
    expect(problems({ ...PROD, ROS_NIA_CLIENT_SECRET: 'a-real-client-secret' })).toEqual([
      expect.stringMatching(/^ROS_NIA_CLIENT_SECRET appears in this repository's files/),
    ]);
    expect(problems({ ...PROD, ROS_SMTP_URL: 'smtp://ros:a-real-client-secret@mail.example.cz' })).toEqual([
      expect.stringMatching(/^the password in ROS_SMTP_URL appears in this repository's files/),
    ]);
  });

  it('the list of published tokens is built from the files and read without them', () => {
    const root = mkdtempSync(join(tmpdir(), 'ros-published-'));
    try {
      mkdirSync(join(root, 'bench'));
      writeFileSync(
        join(root, 'bench/lib.mjs'),
        "env: { KEY: 'only-in-this-file-1f2e3d4c5b6a' },\nx = a=b;c:only-after-a-colon-77\n",
      );
      const list = join(root, 'published-secrets.txt');
      const found = scanRepository(root).size;
      expect(writePublishedList(root, list)).toBe(found);
      rmSync(join(root, 'bench'), { recursive: true });
      const read = readPublishedList(list);
      expect(read?.has(hashToken('only-in-this-file-1f2e3d4c5b6a'))).toBe(true);
      expect(read?.has(hashToken('only-after-a-colon-77'))).toBe(true);
      expect(read?.has(hashToken(random()))).toBe(false);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('a NIA client secret that is too short', () => {
    expect(problems({ ...PROD, ROS_NIA_CLIENT_SECRET: 'x' })).toEqual([
      expect.stringMatching(/^ROS_NIA_CLIENT_SECRET is too short \(1 characters\)/),
    ]);
  });

  it('http:// public and issuer addresses', () => {
    expect(problems({ ...PROD, ROS_PUBLIC_URL: 'http://ros.example.cz' })).toEqual([
      expect.stringMatching(
        /^ROS_PUBLIC_URL="http:\/\/ros.example.cz" must be the portal's https:\/\/ address/,
      ),
    ]);
    expect(problems({ ...PROD, ROS_NIA_ISSUER: 'http://nia.example.cz' })).toEqual([
      'ROS_NIA_ISSUER="http://nia.example.cz" must be an https:// URL in production',
    ]);
  });

  it('ROS_TRUST_PROXY: a hop count, and `true` without suggesting one', () => {
    expect(problems({ ...PROD, ROS_TRUST_PROXY: '1' })).toEqual([
      expect.stringMatching(/^ROS_TRUST_PROXY=1 is a hop count, refused in production: name the proxies/),
    ]);
    const t = problems({ ...PROD, ROS_TRUST_PROXY: 'true' });
    expect(t).toEqual([expect.stringMatching(/^ROS_TRUST_PROXY=true is ambiguous in production/)]);
    expect(t[0]).not.toMatch(/count|=1\b/);
    expect(problems({ ...PROD, ROS_TRUST_PROXY: '10.0.0.5,10.0.1.0/24' })).toEqual([]);
  });

  it('ROS_TRUST_PROXY=0.0.0.0/0 (or ::/0): one clear line, in production and outside it', () => {
    for (const env of [PROD, {}]) {
      for (const range of ['0.0.0.0/0', '::/0']) {
        expect(problems({ ...env, ROS_TRUST_PROXY: range })).toEqual([
          `ROS_TRUST_PROXY="${range}": "${range}" would trust every address: name the proxies' addresses or CIDR ranges (ROS_TRUST_PROXY=10.0.0.5,10.0.1.0/24)`,
        ]);
      }
    }
  });
});

/**
 * Issue 33 item 3: weak secrets that still started production, each one. Every made-up value is
 * also judged without the repository's list (it is in this file, so published): the estimator alone
 * refuses it.
 */
describe('weak secrets refused in production (issue 33 item 3)', () => {
  const BENCH_KEY = 'bench-only-altcha-hmac-key-0123456789abcdef';

  it('the published bench key upper-cased or with "!" appended', () => {
    for (const key of [BENCH_KEY.toUpperCase(), `${BENCH_KEY}!`, `x${BENCH_KEY.toUpperCase()}!`]) {
      expect(problems({ ...PROD, ROS_ALTCHA_HMAC_KEY: key })).toEqual([
        expect.stringMatching(/^ROS_ALTCHA_HMAC_KEY appears in this repository's files/),
      ]);
    }
  });

  it.each([
    'ros-production-altcha-key-2026-prague',
    'qwertyuiopasdfghjklzxcvbnm123456',
    'Password1!Password2!Password3!Password4!',
    'changeme1changeme2changeme3changeme4',
  ])('made-up key %s', (key) => {
    expect(secretWeakness(key, 'key')).toMatch(/^is (made up|too easy to guess)/);
    expect(problems({ ...PROD, ROS_ALTCHA_HMAC_KEY: key })).toEqual([
      expect.stringMatching(/^ROS_ALTCHA_HMAC_KEY /),
    ]);
    expect(problems({ ...PROD, ROS_STATUS_KEY: key })).toEqual([expect.stringMatching(/^ROS_STATUS_KEY /)]);
  });

  it('digests of the empty string and of common values', () => {
    const digests = [
      createHash('sha256').update('').digest('hex'),
      createHash('sha256').update('').digest('hex').toUpperCase(),
      createHash('sha512').update('').digest('base64'),
      createHash('sha256').update('password').digest('hex'),
    ];
    for (const digest of digests) {
      expect(secretWeakness(digest, 'key')).toMatch(/^is the digest of an empty or common value/);
      expect(problems({ ...PROD, ROS_STATUS_KEY: digest })).toEqual([
        expect.stringMatching(/^ROS_STATUS_KEY is the digest/),
      ]);
    }
  });

  it('one key for two purposes: ROS_STATUS_KEY equal to the ALTCHA key', () => {
    expect(problems({ ...PROD, ROS_STATUS_KEY: PROD.ROS_ALTCHA_HMAC_KEY })).toEqual([
      'ROS_STATUS_KEY is the same value as ROS_ALTCHA_HMAC_KEY: each purpose needs a secret of its own',
    ]);
    expect(problems({ ...PROD, ROS_METRICS_TOKEN: PROD.ROS_NIA_CLIENT_SECRET })).toEqual([
      expect.stringMatching(/^ROS_NIA_CLIENT_SECRET is the same value as ROS_METRICS_TOKEN/),
    ]);
  });

  it('ROS_STATUS_KEY unset', () => {
    expect(problems({ ...PROD, ROS_STATUS_KEY: undefined })).toEqual([
      expect.stringMatching(/^ROS_STATUS_KEY is required in production/),
    ]);
  });

  it('NIA secret secretsecretsecret1, SMTP password "password"', () => {
    expect(secretWeakness('secretsecretsecret1', 'issued')).toMatch(/^is too easy to guess/);
    expect(problems({ ...PROD, ROS_NIA_CLIENT_SECRET: 'secretsecretsecret1' })).toEqual([
      // (Written in this file, so also published: either line.)
      expect.stringMatching(/^ROS_NIA_CLIENT_SECRET (is too easy to guess|appears in this repository)/),
    ]);
    expect(problems({ ...PROD, ROS_SMTP_URL: 'smtp://ros:password@mail.example.cz:587' })).toEqual([
      expect.stringMatching(/^the password in ROS_SMTP_URL is too easy to guess/),
    ]);
    expect(problems({ ...PROD, ROS_SMTP_URL: `smtp://ros:${random()}@mail.example.cz:587` })).toEqual([]);
  });

  it('ROS_ALTCHA_MAX_NUMBER=1000: a proof of work that costs nothing', () => {
    expect(problems({ ...PROD, ROS_ALTCHA_MAX_NUMBER: '1000' })).toEqual([
      expect.stringMatching(/^ROS_ALTCHA_MAX_NUMBER=1000 makes a proof of work that costs nothing/),
    ]);
    expect(problems({ ...PROD, ROS_ALTCHA_MAX_NUMBER: String(ALTCHA_MIN_WORK) })).toEqual([]);
    // Outside production the tests' small work stays.
    expect(problems({ ROS_ALTCHA_MAX_NUMBER: '1000' })).toEqual([]);
  });

  it('a http:// reCAPTCHA verify URL (the secret in clear)', () => {
    const recaptcha = {
      ...PROD,
      ROS_ALTCHA_HMAC_KEY: undefined,
      ROS_BOT_CHECK: 'recaptcha',
      ROS_RECAPTCHA_SITE_KEY: 'site-key',
      ROS_RECAPTCHA_SECRET: random(),
    };
    expect(problems(recaptcha)).toEqual([]);
    expect(
      problems({ ...recaptcha, ROS_RECAPTCHA_VERIFY_URL: 'http://www.google.com/recaptcha/api/siteverify' }),
    ).toEqual([
      'ROS_RECAPTCHA_VERIFY_URL must be an https:// address in production (the reCAPTCHA secret is sent to it)',
    ]);
  });

  it('generated keys pass: hex, base64 and base64url of 32 random bytes', () => {
    for (let i = 0; i < 5; i++) {
      const bytes = randomBytes(32);
      for (const key of [bytes.toString('hex'), bytes.toString('base64'), bytes.toString('base64url')]) {
        expect(secretWeakness(key, 'key')).toBeUndefined();
      }
    }
  });
});
