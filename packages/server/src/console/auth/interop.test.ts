import { Writable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import * as jose from 'jose';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildApp, loggerOptions } from '../../app.js';
import { createTestDb, type TestDb, testDbKinds } from '../../test/databases.js';
import { type Claims, type MockNia, PERSON, startMockNia } from '../../test/mockNia.js';
import { loadStaff } from './sessions.js';
import { browse, Jar, withConsoleAuth } from './testing.js';

/**
 * The console's sign-in against an OpenID provider the project did not write (oauth2-mock-server,
 * RS256, an issuer with a path and a trailing slash; test/mockNia.ts puts a thin front before it),
 * on SQLite and PostgreSQL: the role from a claim the provider adds (ID token or userinfo), from
 * ROS_CONSOLE_SUBJECTS, and the refusals: a foreign key, an algorithm outside the allow-list, a
 * wrong iss (in the token or on the callback), a wrong nonce or audience, the provider down.
 */

class LogSink extends Writable {
  lines: string[] = [];
  override _write(chunk: Buffer, _enc: string, done: () => void) {
    this.lines.push(chunk.toString('utf8'));
    done();
  }
}

const CLIENT = { id: 'urad-konzole-5a1e', secret: 'interop-console-secret-0123456789abcdef' };
const STAFF = { ros_role: 'clerk', name: 'Jana Testová' };

interface Setup {
  t: TestDb;
  app: FastifyInstance;
  mock: MockNia;
  sink: LogSink;
}

async function setUp(kind: 'sqlite' | 'postgres', env: Record<string, string> = {}): Promise<Setup> {
  const mock = await startMockNia(CLIENT);
  const t = await createTestDb(kind, {
    ROS_CONSOLE_ISSUER: mock.issuer,
    ROS_CONSOLE_CLIENT_ID: CLIENT.id,
    ROS_CONSOLE_CLIENT_SECRET: CLIENT.secret,
    ...env,
  });
  const sink = new LogSink();
  const ctx = { config: t.config, db: t.db, version: 'test' };
  const app = await buildApp(ctx, { logger: { ...(loggerOptions('info') as object), stream: sink } });
  await withConsoleAuth(app, ctx);
  return { t, app, mock, sink };
}

async function tearDown(s: Setup | undefined) {
  await s?.app.close();
  await s?.mock.stop();
  await s?.t.cleanup();
}

/** zahajit -> the mock (it signs in at once) -> navrat, changed by `tamper`; the callback's answer. */
async function signIn(s: Setup, tamper?: (callback: URL) => void) {
  const jar = new Jar();
  const start = await browse(s.app, jar, '/urad/prihlaseni/zahajit');
  expect(start.statusCode).toBe(303);
  const auth = String(start.headers.location);
  if (!auth.startsWith(s.mock.issuer)) return { jar, location: auth };
  const back = await fetch(auth, { redirect: 'manual' });
  const callback = new URL(String(back.headers.get('location')));
  expect(`${callback.origin}${callback.pathname}`).toBe('http://localhost:8080/urad/prihlaseni/navrat');
  tamper?.(callback);
  const res = await browse(s.app, jar, callback.href);
  expect(res.statusCode).toBe(303);
  return { jar, location: String(res.headers.location) };
}

const reasons = (s: Setup, from: number) =>
  s.sink.lines
    .slice(from)
    .map((l) => JSON.parse(l) as { msg: string; console?: { reason?: string } })
    .filter((l) => l.msg === 'Console sign-in failed' || l.msg === 'Console sign-in could not start')
    .map((l) => l.console?.reason);

const staffOf = (s: Setup, jar: Jar) =>
  loadStaff(s.t.db, {
    headers: { cookie: `ros_console=${jar.get('ros_console')}` },
  } as unknown as FastifyRequest);

async function expectRole(s: Setup, role: string, name = STAFF.name) {
  const from = s.sink.lines.length;
  const { jar, location } = await signIn(s);
  expect(reasons(s, from)).toEqual([]);
  expect(location).toBe('/urad');
  expect(await staffOf(s, jar)).toMatchObject({
    subject: PERSON.sub,
    role,
    name,
    actor: `staff:${PERSON.sub}`,
  });
}

async function expectRefused(s: Setup, reason: string, code = 'failed', tamper?: (callback: URL) => void) {
  const from = s.sink.lines.length;
  const before = await s.t.db.kysely.selectFrom('console_sessions').select('id').execute();
  const { jar, location } = await signIn(s, tamper);
  expect(location).toBe(`/urad/prihlaseni?chyba=${code}`);
  expect(reasons(s, from)).toEqual([reason]);
  expect(jar.get('ros_console')).toBeUndefined();
  const after = await s.t.db.kysely.selectFrom('console_sessions').select('id').execute();
  expect(after.length).toBe(before.length);
}

const resign = (
  payload: jose.JWTPayload,
  key: jose.CryptoKey | Uint8Array,
  header: jose.JWTHeaderParameters,
) => new jose.SignJWT(payload).setProtectedHeader(header).sign(key);
const withStaff = (c: Claims) => Object.assign(c, STAFF);

for (const kind of await testDbKinds()) {
  describe(`console sign-in interop with oauth2-mock-server (${kind})`, () => {
    let s: Setup;
    beforeAll(async () => {
      s = await setUp(kind);
    });
    afterAll(() => tearDown(s));
    beforeEach(() => {
      s.mock.scenario = {};
      s.app.services.consoleAuth.forHost(undefined).client.refresh();
    });

    it('signs in with the role the provider adds to the ID token (client_secret_basic from discovery)', async () => {
      s.mock.tokenAuths.length = 0;
      s.mock.scenario = { idToken: withStaff };
      await expectRole(s, 'clerk');
      expect(s.mock.tokenAuths).toEqual(['client_secret_basic']);
      // An array: the highest known value; unknown ones are ignored.
      s.mock.scenario = {
        idToken: (c) => Object.assign(c, STAFF, { ros_role: ['reader', 'superuser', 'admin'] }),
      };
      await expectRole(s, 'admin');
    });

    it('takes the role and the name from userinfo when the ID token lacks them', async () => {
      s.mock.scenario = { userinfo: { ros_role: 'reader', given_name: 'Jana', family_name: 'Testová' } };
      await expectRole(s, 'reader');
    });

    it('refuses a subject whose claim holds no known role (no_role), and one with no claim at all', async () => {
      s.mock.scenario = { idToken: (c) => Object.assign(c, STAFF, { ros_role: 'superuser' }) };
      await expectRefused(s, 'no_role', 'no_role');
      s.mock.scenario = { idToken: (c) => Object.assign(c, { name: STAFF.name }), userinfo: {} };
      await expectRefused(s, 'no_role', 'no_role');
      const denied = await s.t.db.kysely
        .selectFrom('audit_log')
        .select(['action', 'outcome', 'detail'])
        .where('actor', '=', `staff:${PERSON.sub}`)
        .where('outcome', '=', 'denied')
        .execute();
      expect(denied).toEqual([
        { action: 'console.signin', outcome: 'denied', detail: 'no_role' },
        { action: 'console.signin', outcome: 'denied', detail: 'no_role' },
      ]);
    });

    it('refuses an ID token signed with a foreign key under the provider’s kid', async () => {
      const other = await jose.generateKeyPair('RS256');
      s.mock.scenario = {
        idToken: withStaff,
        replaceIdToken: (_t, payload) =>
          resign(payload, other.privateKey, { alg: 'RS256', kid: s.mock.signingKey.kid }),
      };
      await expectRefused(s, 'id_token_signature');
    });

    it('refuses an algorithm outside the allow-list: none, HS256 with the client secret, RS384 with the provider’s key', async () => {
      const discovery = (d: Claims) => {
        d.id_token_signing_alg_values_supported = ['RS256', 'RS384', 'HS256', 'none'];
      };
      s.mock.scenario = {
        discovery,
        idToken: withStaff,
        replaceIdToken: async (_t, payload) => new jose.UnsecuredJWT(payload).encode(),
      };
      await expectRefused(s, 'id_token_alg');
      s.mock.scenario = {
        discovery,
        idToken: withStaff,
        replaceIdToken: (_t, payload) =>
          resign(payload, new TextEncoder().encode(CLIENT.secret), { alg: 'HS256' }),
      };
      await expectRefused(s, 'id_token_alg');
      const key = await jose.importJWK(s.mock.signingKey, 'RS384');
      s.mock.scenario = {
        discovery,
        idToken: withStaff,
        replaceIdToken: (_t, payload) => resign(payload, key, { alg: 'RS384', kid: s.mock.signingKey.kid }),
      };
      await expectRefused(s, 'id_token_alg');
    });

    it('refuses a wrong iss (in the ID token or on the callback), a wrong nonce or audience', async () => {
      s.mock.scenario = { idToken: (c) => Object.assign(c, STAFF, { iss: 'http://127.0.0.1:1/nia/' }) };
      await expectRefused(s, 'id_token_iss');
      s.mock.scenario = {
        idToken: withStaff,
        authorizeRedirect: (u) => u.searchParams.set('iss', 'https://evil.example/'),
      };
      await expectRefused(s, 'iss_mismatch');
      s.mock.scenario = { idToken: (c) => Object.assign(c, STAFF, { nonce: 'not-the-one-sent' }) };
      await expectRefused(s, 'id_token_nonce');
      s.mock.scenario = { idToken: (c) => Object.assign(c, STAFF, { aud: 'another-client' }) };
      await expectRefused(s, 'id_token_aud');
      // And after all that, a good one still signs in.
      s.mock.scenario = { idToken: withStaff };
      await expectRole(s, 'clerk');
    });

    it('a cancelled sign-in at the provider (access_denied) is chyba=cancelled', async () => {
      await expectRefused(s, 'cancelled', 'cancelled', (u) => {
        u.searchParams.delete('code');
        u.searchParams.set('error', 'access_denied');
      });
    });

    it('the provider down: chyba=failed at the start, no sign-in row left; the local provider is off', async () => {
      s.mock.scenario = { down: true };
      const from = s.sink.lines.length;
      const { location } = await signIn(s);
      expect(location).toBe('/urad/prihlaseni?chyba=failed');
      expect(reasons(s, from)).toEqual(['discovery_unreachable']);
      const pending = await s.t.db.kysely
        .selectFrom('console_sessions')
        .select('id')
        .where('role', '=', 'pending')
        .execute();
      expect(pending).toEqual([]);
      expect((await s.app.inject('/urad-test/.well-known/openid-configuration')).statusCode).toBe(404);
    });
  });

  describe(`console roles from ROS_CONSOLE_SUBJECTS with oauth2-mock-server (${kind})`, () => {
    let s: Setup;
    beforeAll(async () => {
      s = await setUp(kind, { ROS_CONSOLE_SUBJECTS: `someone-else=admin, ${PERSON.sub}=reader` });
    });
    afterAll(() => tearDown(s));

    it('the list decides, not the claim; a subject not listed gets no role', async () => {
      s.mock.scenario = { idToken: (c) => Object.assign(c, STAFF, { ros_role: 'admin' }) };
      await expectRole(s, 'reader');
      s.mock.scenario = { idToken: (c) => Object.assign(c, STAFF, { sub: 'not-listed' }) };
      await expectRefused(s, 'no_role', 'no_role');
    });
  });
}
