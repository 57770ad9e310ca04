import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, startWarnings } from '../../config/config.js';
import { LOCAL_CONSOLE_CLIENT_SECRET } from '../config.js';

/** The console's sign-in settings (console/config.ts): defaults, and what production refuses. */

const random = () => randomBytes(32).toString('hex');

/** A production set-up that passes without the console (it is off there by default). */
const PROD = {
  NODE_ENV: 'production',
  ROS_PUBLIC_URL: 'https://ros.example.cz',
  ROS_ALTCHA_HMAC_KEY: random(),
  ROS_STATUS_KEY: random(),
  ROS_NIA_ISSUER: 'https://nia.example.cz',
  ROS_NIA_CLIENT_ID: 'ros',
  ROS_NIA_CLIENT_SECRET: random(),
};
const CONSOLE = {
  ROS_CONSOLE: 'on',
  ROS_CONSOLE_ISSUER: 'https://idp.urad.example.cz/realms/staff',
  ROS_CONSOLE_CLIENT_ID: 'ros-console',
  ROS_CONSOLE_CLIENT_SECRET: random(),
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

describe('the console’s settings', () => {
  it('a plain start has the console with the local staff provider, the ros_role claim and no subject list', () => {
    expect(loadConfig({})).toMatchObject({
      consoleEnabled: true,
      consoleTestProvider: true,
      consoleIssuer: '',
      consoleClientId: 'ros-console',
      consoleClientSecret: LOCAL_CONSOLE_CLIENT_SECRET,
      consoleScope: 'openid profile',
      consoleRoleClaim: 'ros_role',
      consoleSubjects: null,
    });
    expect(loadConfig({ ROS_CONSOLE: 'off' })).toMatchObject({
      consoleEnabled: false,
      consoleTestProvider: false,
    });
    expect(problems({ ROS_CONSOLE: 'maybe' })).toEqual(['ROS_CONSOLE="maybe" must be on or off']);
  });

  it('reads the subject list and the role claim, and refuses malformed ones', () => {
    const c = loadConfig({
      ROS_CONSOLE_SUBJECTS: 'a1=clerk, b2=admin,',
      ROS_CONSOLE_ROLE_CLAIM: 'realm_access.roles',
    });
    expect([...(c.consoleSubjects ?? [])]).toEqual([
      ['a1', 'clerk'],
      ['b2', 'admin'],
    ]);
    expect(c.consoleRoleClaim).toBe('realm_access.roles');
    expect(problems({ ROS_CONSOLE_SUBJECTS: 'a1=superuser' })).toEqual([
      expect.stringMatching(/^ROS_CONSOLE_SUBJECTS: every entry must be subject=role/),
    ]);
    expect(problems({ ROS_CONSOLE_SUBJECTS: 'a1' })).toHaveLength(1);
    expect(problems({ ROS_CONSOLE_ROLE_CLAIM: 'a,b' })).toEqual([
      expect.stringMatching(/^ROS_CONSOLE_ROLE_CLAIM=/),
    ]);
    expect(problems({ ROS_CONSOLE_SCOPE: 'profile' })).toEqual([
      'ROS_CONSOLE_SCOPE="profile" must include openid',
    ]);
  });

  it('never runs the local provider beside the authority’s, in any environment', () => {
    expect(loadConfig({ ...CONSOLE })).toMatchObject({
      consoleTestProvider: false,
      consoleIssuer: CONSOLE.ROS_CONSOLE_ISSUER,
    });
    expect(problems({ ...CONSOLE, ROS_CONSOLE_TEST_PROVIDER: 'on' })).toEqual([
      expect.stringMatching(/^ROS_CONSOLE_TEST_PROVIDER=on cannot run beside/),
    ]);
    expect(problems({ ROS_CONSOLE_ISSUER: 'ftp://idp.example.cz' })).toEqual([
      expect.stringMatching(/^ROS_CONSOLE_ISSUER must be an http\(s\) URL/),
      // Without the local provider the client id and secret are needed.
      expect.stringMatching(/^ROS_CONSOLE_CLIENT_ID is required/),
      expect.stringMatching(/^ROS_CONSOLE_CLIENT_SECRET is required/),
    ]);
    expect(problems({ ROS_CONSOLE_TEST_PROVIDER: 'off' })).toEqual([
      expect.stringMatching(/^ROS_CONSOLE_ISSUER is required with ROS_CONSOLE_TEST_PROVIDER=off/),
      expect.stringMatching(/^ROS_CONSOLE_CLIENT_ID is required with ROS_CONSOLE_TEST_PROVIDER=off/),
      expect.stringMatching(/^ROS_CONSOLE_CLIENT_SECRET is required with ROS_CONSOLE_TEST_PROVIDER=off/),
    ]);
  });
});

describe('the console in production', () => {
  it('is off by default, and says nothing', () => {
    const c = loadConfig(PROD);
    expect(c).toMatchObject({ consoleEnabled: false, consoleTestProvider: false });
    expect(startWarnings(c)).toEqual([]);
  });

  it('ROS_CONSOLE=on without the provider settings: refused, one line each', () => {
    expect(problems({ ...PROD, ROS_CONSOLE: 'on' })).toEqual([
      "ROS_CONSOLE_ISSUER is required in production with ROS_CONSOLE=on (or ROS_CONSOLE=off): the OpenID issuer of the authority's identity provider",
      'ROS_CONSOLE_CLIENT_ID is required in production with ROS_CONSOLE=on (or ROS_CONSOLE=off): the client id the provider issued to the console',
      'ROS_CONSOLE_CLIENT_SECRET is required in production with ROS_CONSOLE=on (or ROS_CONSOLE=off): the client secret the provider issued to the console',
    ]);
    expect(problems({ ...PROD, ...CONSOLE, ROS_CONSOLE_CLIENT_SECRET: undefined })).toEqual([
      expect.stringMatching(/^ROS_CONSOLE_CLIENT_SECRET is required in production/),
    ]);
    expect(problems({ ...PROD, ...CONSOLE })).toEqual([]);
  });

  it('refuses an http:// issuer, the local test secret, and a weak, published or shared secret', () => {
    expect(problems({ ...PROD, ...CONSOLE, ROS_CONSOLE_ISSUER: 'http://idp.urad.example.cz' })).toEqual([
      'ROS_CONSOLE_ISSUER="http://idp.urad.example.cz" must be an https:// URL in production',
    ]);
    expect(problems({ ...PROD, ...CONSOLE, ROS_CONSOLE_CLIENT_SECRET: LOCAL_CONSOLE_CLIENT_SECRET })).toEqual(
      [
        'ROS_CONSOLE_CLIENT_SECRET is the built-in local test secret: production needs the one the provider issued',
      ],
    );
    expect(problems({ ...PROD, ...CONSOLE, ROS_CONSOLE_CLIENT_SECRET: 'short' })).toEqual([
      expect.stringMatching(/^ROS_CONSOLE_CLIENT_SECRET is too short/),
    ]);
    // Guessable (a literal here is also in the repository's files: either line refuses it).
    expect(problems({ ...PROD, ...CONSOLE, ROS_CONSOLE_CLIENT_SECRET: 'a'.repeat(24) })).toEqual([
      expect.stringMatching(/^ROS_CONSOLE_CLIENT_SECRET is too easy to guess/),
    ]);
    // The interop test's secret is in this repository.
    expect(
      problems({ ...PROD, ...CONSOLE, ROS_CONSOLE_CLIENT_SECRET: 'interop-console-secret-0123456789abcdef' }),
    ).toEqual([expect.stringMatching(/^ROS_CONSOLE_CLIENT_SECRET appears in this repository's files/)]);
    expect(problems({ ...PROD, ...CONSOLE, ROS_CONSOLE_CLIENT_SECRET: PROD.ROS_NIA_CLIENT_SECRET })).toEqual([
      'ROS_CONSOLE_CLIENT_SECRET is the same value as ROS_NIA_CLIENT_SECRET: each purpose needs a secret of its own',
    ]);
  });

  it('runs the local staff provider only when asked for, with a SECURITY WARNING at every start', () => {
    const c = loadConfig({ ...PROD, ROS_CONSOLE: 'on', ROS_CONSOLE_TEST_PROVIDER: 'on' });
    expect(c).toMatchObject({ consoleEnabled: true, consoleTestProvider: true });
    expect(startWarnings(c)).toEqual([
      expect.stringMatching(/^SECURITY WARNING: the local staff test provider/),
    ]);
  });
});
