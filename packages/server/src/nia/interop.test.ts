import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import * as jose from 'jose';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { buildApp, loggerOptions } from '../app.js';
import { loadConfig } from '../config/config.js';
import { createTestDb, type TestDb, testDbKinds } from '../test/databases.js';
import {
  type Claims,
  EIDAS_CLAIMS,
  LOA_SUBSTANTIAL,
  type MockNia,
  mockPrivateKey,
  PERSON,
  STANDARD_CLAIMS,
  startMockNia,
  writeTestKeys,
} from '../test/mockNia.js';

/**
 * NIA sign-in against an OpenID provider the project did not write (oauth2-mock-server, RS256,
 * its issuer with a path and a trailing slash), end to end over HTTP like a browser: every
 * case of issue 23. A failure ends at the form with sso=failed, one log line with its reason
 * word, no session row, and nothing personal in the log.
 */

class LogSink extends Writable {
  lines: string[] = [];
  override _write(chunk: Buffer, _enc: string, done: () => void) {
    this.lines.push(chunk.toString('utf8'));
    done();
  }
}

// GUID-shaped, as NIA issues them: oauth2-mock-server reads HTTP Basic's id literally, so the
// hyphens must go out as they are (RFC 6749 Appendix B; nia/clientAuth.ts).
const CLIENT = {
  id: '6f1c9e0a-3b7d-4c52-9e8f-0a1b2c3d4e5f',
  secret: 'interop-client-secret-0123456789abcdef',
};
const now = () => Math.floor(Date.now() / 1000);

interface Portal {
  t: TestDb;
  app: FastifyInstance;
  base: string;
  mock: MockNia;
  sink: LogSink;
  keysDir: string;
}

async function startPortal(kind: 'sqlite' | 'postgres', env: Record<string, string>): Promise<Portal> {
  const keysDir = mkdtempSync(join(tmpdir(), 'ros-nia-keys-'));
  const keys = writeTestKeys(keysDir);
  const mock = await startMockNia(CLIENT);
  const t = await createTestDb(kind, {
    ROS_NIA_TEST_PROVIDER: 'false',
    ROS_NIA_ISSUER: mock.issuer,
    ROS_NIA_CLIENT_ID: CLIENT.id,
    ROS_NIA_CLIENT_SECRET: CLIENT.secret,
    ROS_NIA_DECRYPTION_KEY_FILE: `${keys.rsa},${keys.ec}`,
    ROS_NIA_TIMEOUT_SECONDS: '2',
    ROS_RATE_LIMIT_SEARCH: '100000',
    ...Object.fromEntries(Object.entries(env).map(([k, v]) => [k, v.replace('$SIGNING', keys.signing)])),
  });
  const sink = new LogSink();
  const app = await buildApp(
    { config: t.config, db: t.db, version: 'test' },
    { logger: { ...(loggerOptions('info') as object), stream: sink } },
  );
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no address');
  const base = `http://127.0.0.1:${address.port}`;
  t.config.publicUrl = base;
  mock.portalJwks = `${base}/api/ros/sso-jwks`;
  return { t, app, base, mock, sink, keysDir };
}

async function stopPortal(p: Portal | undefined) {
  await p?.app.close();
  await p?.mock.stop();
  await p?.t.cleanup();
  if (p) rmSync(p.keysDir, { recursive: true, force: true });
}

/** A browser's one cookie (the portal sets only ros_session). */
class Browser {
  cookie: string | undefined;
  async get(url: string, headers: Record<string, string> = {}): Promise<Response> {
    const res = await fetch(url, {
      redirect: 'manual',
      headers: { ...headers, ...(this.cookie ? { cookie: this.cookie } : {}) },
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const value = pair.slice(pair.indexOf('=') + 1);
      this.cookie = value === '' || /max-age=0/i.test(line) ? undefined : pair;
    }
    return res;
  }
}

function location(res: Response, base: string): string {
  const l = res.headers.get('location');
  if (!l) throw new Error(`no redirect (${res.status})`);
  return new URL(l, base).href;
}

/** sso-redirect -> the provider -> back to the callback (changed by `tamper`); the final redirect. */
async function signIn(
  p: Portal,
  opts: {
    from?: string;
    browser?: Browser;
    tamper?: (callback: URL) => void;
    beforeCallback?: () => void;
  } = {},
) {
  const browser = opts.browser ?? new Browser();
  const start = await browser.get(`${p.base}/api/ros/sso-redirect?from=${opts.from ?? 'form'}`);
  expect(start.status).toBe(302);
  const auth = location(start, p.base);
  if (!auth.startsWith(p.mock.issuer)) return { browser, target: auth };
  const back = await fetch(auth, { redirect: 'manual' });
  const callback = new URL(location(back, p.base));
  expect(callback.href.startsWith(`${p.base}/api/ros/sso-callback?`)).toBe(true);
  opts.tamper?.(callback);
  opts.beforeCallback?.();
  const res = await browser.get(callback.href);
  expect(res.status).toBe(302);
  return { browser, target: location(res, p.base) };
}

const failedLines = (p: Portal, from: number) =>
  p.sink.lines
    .slice(from)
    .map((l) => JSON.parse(l) as { msg: string; nia?: { reason?: string } })
    .filter((l) => l.msg === 'NIA sign-in failed');

async function pendingRows(p: Portal): Promise<number> {
  const rows = await p.t.db.kysely
    .selectFrom('sso_sessions')
    .select('id')
    .where('status', '=', 'pending')
    .execute();
  return rows.length;
}

async function sessionOf(p: Portal, browser: Browser) {
  const res = await browser.get(`${p.base}/api/ros/sso-session`);
  return { status: res.status, body: (await res.json()) as { nia?: Claims } };
}

/** Signs in expecting a failure with `reason`: the form with sso=failed, one log line, no session left. */
async function expectFailure(p: Portal, reason: string, opts: Parameters<typeof signIn>[1] = {}) {
  const from = p.sink.lines.length;
  const pendingBefore = await pendingRows(p);
  const { browser, target } = await signIn(p, opts);
  expect(target).toBe(`${p.base}/form?sso=failed`);
  const lines = failedLines(p, from);
  expect(lines.map((l) => l.nia?.reason)).toEqual([reason]);
  expect(browser.cookie).toBeUndefined();
  expect(await pendingRows(p)).toBe(pendingBefore);
  expect((await sessionOf(p, browser)).status).toBe(401);
}

/** Signs in expecting success: the form with eid=nia and the mock's person in the session. */
async function expectSuccess(p: Portal, opts: Parameters<typeof signIn>[1] = {}) {
  const from = p.sink.lines.length;
  const { browser, target } = await signIn(p, opts);
  expect(failedLines(p, from).map((l) => l.nia?.reason)).toEqual([]);
  expect(target).toBe(`${p.base}/form?eid=nia`);
  const s = await sessionOf(p, browser);
  expect(s.status).toBe(200);
  expect(s.body.nia).toEqual({
    complete: true,
    first_name: PERSON.given,
    last_name: PERSON.family,
    birth_date: PERSON.birth,
  });
  return browser;
}

const foreignKey = () => jose.generateKeyPair('RS256');
const resign = async (
  payload: jose.JWTPayload,
  key: jose.CryptoKey | Uint8Array,
  header: jose.JWTHeaderParameters,
) => new jose.SignJWT(payload).setProtectedHeader(header).sign(key);

/** The portal's public encryption key of type `kty` from /api/ros/sso-jwks. */
async function portalEncKey(p: Portal, kty: 'RSA' | 'EC', alg: string) {
  const jwks = (await (await fetch(`${p.base}/api/ros/sso-jwks`)).json()) as { keys: jose.JWK[] };
  const jwk = jwks.keys.find((k) => k.kty === kty && k.use === 'enc');
  if (!jwk) throw new Error(`no ${kty} enc key published`);
  return { key: await jose.importJWK(jwk, alg), kid: jwk.kid as string };
}

const encryptTo = async (p: Portal, jws: string, kty: 'RSA' | 'EC', alg: string, enc: string) => {
  const { key, kid } = await portalEncKey(p, kty, alg);
  return new jose.CompactEncrypt(new TextEncoder().encode(jws))
    .setProtectedHeader({ alg, enc, kid, cty: 'JWT' })
    .encrypt(key);
};

for (const kind of await testDbKinds()) {
  describe(`NIA interop with oauth2-mock-server (${kind})`, () => {
    let p: Portal;
    beforeAll(async () => {
      p = await startPortal(kind, {});
    });
    afterAll(() => stopPortal(p));
    beforeEach(() => {
      p.mock.scenario = {};
      // Every case starts from fresh discovery and keys, as after a restart.
      p.app.services.nia.forHost(undefined).client.refresh();
    });

    it('signs in with the eIDAS claim names (userinfo), with client_secret_basic from discovery', async () => {
      p.mock.tokenAuths.length = 0;
      await expectSuccess(p);
      expect(p.mock.tokenAuths).toEqual(['client_secret_basic']);
    });

    it('signs in with the standard OpenID claim names', async () => {
      p.mock.scenario = { userinfo: STANDARD_CLAIMS };
      await expectSuccess(p);
    });

    it('uses client_secret_post when the provider offers only that, and basic when only basic', async () => {
      p.mock.tokenAuths.length = 0;
      p.mock.scenario = {
        discovery: (d) => {
          d.token_endpoint_auth_methods_supported = ['client_secret_post'];
        },
        tokenAuth: 'client_secret_post',
      };
      await expectSuccess(p);
      p.mock.scenario = {
        discovery: (d) => {
          d.token_endpoint_auth_methods_supported = ['client_secret_basic'];
        },
        tokenAuth: 'client_secret_basic',
      };
      p.app.services.nia.forHost(undefined).client.refresh();
      await expectSuccess(p);
      expect(p.mock.tokenAuths).toEqual(['client_secret_post', 'client_secret_basic']);
    });

    it('takes the claims from the ID token when the provider has no userinfo endpoint', async () => {
      p.mock.scenario = {
        discovery: (d) => {
          delete d.userinfo_endpoint;
        },
        idToken: (c) => Object.assign(c, STANDARD_CLAIMS),
      };
      await expectSuccess(p);
    });

    it('refuses userinfo about another subject', async () => {
      p.mock.scenario = { userinfo: { ...EIDAS_CLAIMS, sub: 'someone-else' } };
      // The mock's userinfo answer is built with sub first: the scenario's wins.
      await expectFailure(p, 'userinfo_sub_mismatch');
    });

    it('refuses an ID token signed with a foreign key (same kid)', async () => {
      const other = await foreignKey();
      p.mock.scenario = {
        replaceIdToken: async (_s, payload) =>
          resign(payload, other.privateKey, { alg: 'RS256', kid: p.mock.signingKey.kid }),
      };
      await expectFailure(p, 'id_token_signature');
    });

    it('refuses alg none and HS256 with the client secret even when discovery lists them', async () => {
      const discovery = (d: Claims) => {
        d.id_token_signing_alg_values_supported = ['RS256', 'HS256', 'none'];
      };
      p.mock.scenario = {
        discovery,
        replaceIdToken: async (_s, payload) => new jose.UnsecuredJWT(payload).encode(),
      };
      await expectFailure(p, 'id_token_alg');
      p.mock.scenario = {
        discovery,
        replaceIdToken: async (_s, payload) =>
          resign(payload, new TextEncoder().encode(CLIENT.secret), { alg: 'HS256' }),
      };
      await expectFailure(p, 'id_token_alg');
    });

    it('refuses a wrong iss or aud; an extra aud only with azp naming this client', async () => {
      p.mock.scenario = { idToken: (c) => Object.assign(c, { iss: 'http://127.0.0.1:1/nia/' }) };
      await expectFailure(p, 'id_token_iss');
      p.mock.scenario = { idToken: (c) => Object.assign(c, { aud: 'another-client' }) };
      await expectFailure(p, 'id_token_aud');
      p.mock.scenario = { idToken: (c) => Object.assign(c, { aud: [CLIENT.id, 'another-client'] }) };
      await expectFailure(p, 'id_token_aud');
      p.mock.scenario = {
        idToken: (c) => Object.assign(c, { aud: [CLIENT.id, 'another-client'], azp: 'another-client' }),
      };
      await expectFailure(p, 'id_token_azp');
      p.mock.scenario = {
        idToken: (c) => Object.assign(c, { aud: [CLIENT.id, 'another-client'], azp: CLIENT.id }),
      };
      await expectSuccess(p);
    });

    it('refuses an expired ID token; tolerates 60 s of clock difference either way, not more', async () => {
      p.mock.scenario = {
        idToken: (c) => Object.assign(c, { iat: now() - 7200, nbf: now() - 7200, exp: now() - 3600 }),
      };
      await expectFailure(p, 'id_token_exp');
      // The portal's clock 30 s ahead of the provider's: the token looks just expired.
      p.mock.scenario = {
        idToken: (c) => Object.assign(c, { iat: now() - 330, nbf: now() - 330, exp: now() - 30 }),
      };
      await expectSuccess(p);
      // The portal's clock 30 s behind: the token looks issued in the future.
      p.mock.scenario = { idToken: (c) => Object.assign(c, { iat: now() + 30, nbf: now() + 30 }) };
      await expectSuccess(p);
      p.mock.scenario = { idToken: (c) => Object.assign(c, { iat: now() - 10, nbf: now() + 120 }) };
      await expectFailure(p, 'id_token_nbf');
      p.mock.scenario = { idToken: (c) => Object.assign(c, { iat: now() + 120, nbf: now() - 10 }) };
      await expectFailure(p, 'id_token_iat');
    });

    it('refuses a missing or wrong nonce', async () => {
      p.mock.scenario = {
        idToken: (c) => {
          delete c.nonce;
        },
      };
      await expectFailure(p, 'id_token_nonce');
      p.mock.scenario = { idToken: (c) => Object.assign(c, { nonce: 'not-the-one-sent' }) };
      await expectFailure(p, 'id_token_nonce');
    });

    it('refuses a low or missing acr and accepts a higher one', async () => {
      p.mock.scenario = { idToken: (c) => Object.assign(c, { acr: 'http://eidas.europa.eu/LoA/low' }) };
      await expectFailure(p, 'acr_too_low');
      p.mock.scenario = {
        idToken: (c) => {
          delete c.acr;
        },
      };
      await expectFailure(p, 'acr_missing');
      p.mock.scenario = { idToken: (c) => Object.assign(c, { acr: 'http://eidas.europa.eu/LoA/high' }) };
      await expectSuccess(p);
    });

    it('decrypts an encrypted ID token (RSA-OAEP-256, RSA-OAEP, ECDH-ES) and refuses one for another key', async () => {
      const cases: Array<[kty: 'RSA' | 'EC', alg: string, enc: string]> = [
        ['RSA', 'RSA-OAEP-256', 'A256GCM'],
        ['RSA', 'RSA-OAEP', 'A128CBC-HS256'],
        ['EC', 'ECDH-ES', 'A128GCM'],
        ['EC', 'ECDH-ES', 'A256CBC-HS512'],
      ];
      for (const [kty, alg, enc] of cases) {
        p.mock.scenario = { replaceIdToken: (signed) => encryptTo(p, signed, kty, alg, enc) };
        await expectSuccess(p);
      }
      const stranger = await jose.generateKeyPair('RSA-OAEP-256');
      p.mock.scenario = {
        replaceIdToken: (signed) =>
          new jose.CompactEncrypt(new TextEncoder().encode(signed))
            .setProtectedHeader({ alg: 'RSA-OAEP-256', enc: 'A256GCM', cty: 'JWT' })
            .encrypt(stranger.publicKey),
      };
      await expectFailure(p, 'decryption_failed');
      // Encrypted, but signed with a foreign key inside: still refused.
      const other = await foreignKey();
      p.mock.scenario = {
        replaceIdToken: async (_s, payload) =>
          encryptTo(
            p,
            await resign(payload, other.privateKey, { alg: 'RS256', kid: p.mock.signingKey.kid }),
            'RSA',
            'RSA-OAEP-256',
            'A256GCM',
          ),
      };
      await expectFailure(p, 'id_token_signature');
    });

    it('reads an encrypted userinfo answer (a signed JWT inside a JWE)', async () => {
      const key = await mockPrivateKey(p.mock);
      p.mock.scenario = {
        discovery: (d) => {
          d.userinfo_signing_alg_values_supported = ['RS256'];
          d.userinfo_encryption_alg_values_supported = ['RSA-OAEP-256'];
        },
        userinfoJwt: async (claims) =>
          encryptTo(
            p,
            await resign({ ...claims, iss: p.mock.issuer, aud: CLIENT.id }, key, {
              alg: 'RS256',
              kid: p.mock.signingKey.kid,
            }),
            'RSA',
            'RSA-OAEP-256',
            'A256GCM',
          ),
      };
      await expectSuccess(p);
    });

    it('checks a signed userinfo answer (application/jwt) like an ID token: key, alg, iss, aud', async () => {
      const key = await mockPrivateKey(p.mock);
      const kid = p.mock.signingKey.kid;
      const signedBy =
        (k: jose.CryptoKey | Uint8Array, header: jose.JWTHeaderParameters, extra: Claims = {}) =>
        async (claims: Claims) =>
          resign({ ...claims, iss: p.mock.issuer, aud: CLIENT.id, ...extra }, k, header);
      // Signed with the provider's key (in its JWKS): the claims come from the verified JWT.
      p.mock.scenario = { userinfoJwt: signedBy(key, { alg: 'RS256', kid }) };
      await expectSuccess(p);
      p.mock.scenario = {
        userinfo: STANDARD_CLAIMS,
        userinfoJwt: signedBy(key, { alg: 'RS256', kid }),
      };
      await expectSuccess(p);
      // A foreign key under the provider's kid, and one under a kid the provider never published.
      const other = await foreignKey();
      p.mock.scenario = { userinfoJwt: signedBy(other.privateKey, { alg: 'RS256', kid }) };
      await expectFailure(p, 'userinfo_signature');
      p.mock.scenario = { userinfoJwt: signedBy(other.privateKey, { alg: 'RS256', kid: 'stranger' }) };
      await expectFailure(p, 'userinfo_key_unknown');
      // Unsigned (alg none), even when discovery lists it; HS256 with the client secret (not allowed).
      p.mock.scenario = {
        discovery: (d) => {
          d.userinfo_signing_alg_values_supported = ['RS256', 'none', 'HS256'];
        },
        userinfoJwt: async (claims) =>
          new jose.UnsecuredJWT({ ...claims, iss: p.mock.issuer, aud: CLIENT.id }).encode(),
      };
      await expectFailure(p, 'userinfo_alg');
      p.mock.scenario = {
        discovery: (d) => {
          d.userinfo_signing_alg_values_supported = ['RS256', 'none', 'HS256'];
        },
        userinfoJwt: signedBy(new TextEncoder().encode(CLIENT.secret), { alg: 'HS256' }),
      };
      await expectFailure(p, 'userinfo_alg');
      // Another issuer, another audience, no audience.
      p.mock.scenario = {
        userinfoJwt: signedBy(key, { alg: 'RS256', kid }, { iss: 'http://127.0.0.1:1/nia/' }),
      };
      await expectFailure(p, 'userinfo_iss');
      p.mock.scenario = { userinfoJwt: signedBy(key, { alg: 'RS256', kid }, { aud: 'another-client' }) };
      await expectFailure(p, 'userinfo_aud');
      p.mock.scenario = { userinfoJwt: signedBy(key, { alg: 'RS256', kid }, { aud: undefined }) };
      await expectFailure(p, 'userinfo_aud');
    });

    it('ignores a callback whose state is not the pending one: the real callback still signs in (issue 33 item 8)', async () => {
      for (const forge of [
        (u: URL) => u.searchParams.set('state', 'y'),
        (u: URL) => u.searchParams.delete('state'),
        (u: URL) => {
          u.search = '?error=access_denied&state=y';
        },
      ]) {
        const browser = new Browser();
        const start = await browser.get(`${p.base}/api/ros/sso-redirect?from=form`);
        const back = await fetch(location(start, p.base), { redirect: 'manual' });
        const callback = new URL(location(back, p.base));
        const pending = browser.cookie;
        const pendingBefore = await pendingRows(p);
        const tokens = p.mock.tokenAuths.length;
        // A cross-site link (a top-level GET carries the Lax cookie) with a made-up state.
        const from = p.sink.lines.length;
        const forged = new URL(callback);
        forge(forged);
        const res = await browser.get(forged.href, { 'sec-fetch-site': 'cross-site' });
        expect(location(res, p.base)).toBe(`${p.base}/form?sso=failed`);
        expect(failedLines(p, from).map((l) => l.nia?.reason)).toEqual(['state_mismatch']);
        expect(browser.cookie).toBe(pending);
        expect(await pendingRows(p)).toBe(pendingBefore);
        expect(p.mock.tokenAuths.length).toBe(tokens);
        // The real callback finishes the sign-in.
        const done = await browser.get(callback.href);
        expect(location(done, p.base)).toBe(`${p.base}/form?eid=nia`);
        expect((await sessionOf(p, browser)).status).toBe(200);
        expect(p.mock.tokenAuths.length).toBe(tokens + 1);
      }
    });

    it('the same callback 5 times at once: one token exchange, all five on the signed-in form with one session (issue 33 item 8)', async () => {
      const browser = new Browser();
      const start = await browser.get(`${p.base}/api/ros/sso-redirect?from=form-en`);
      const back = await fetch(location(start, p.base), { redirect: 'manual' });
      const callback = location(back, p.base);
      const tokens = p.mock.tokenAuths.length;
      const from = p.sink.lines.length;
      const answers = await Promise.all(
        Array.from({ length: 5 }, () =>
          fetch(callback, { redirect: 'manual', headers: { cookie: browser.cookie as string } }),
        ),
      );
      expect(answers.map((r) => location(r, p.base))).toEqual(
        Array(5).fill(`${p.base}/form?eid=nia&lang=en`),
      );
      const cookies = answers.map((r) => r.headers.getSetCookie()[0]?.split(';')[0]);
      expect(new Set(cookies).size).toBe(1);
      expect(cookies[0]).not.toBe(browser.cookie);
      expect(p.mock.tokenAuths.length).toBe(tokens + 1);
      expect(failedLines(p, from)).toEqual([]);
      const succeeded = p.sink.lines.slice(from).filter((l) => l.includes('NIA sign-in succeeded'));
      expect(succeeded).toHaveLength(1);
      browser.cookie = cookies[0];
      expect((await sessionOf(p, browser)).status).toBe(200);
      // The finished sign-in's row holds no readable session id.
      const rows = await p.t.db.kysely.selectFrom('sso_sessions').select(['status', 'data']).execute();
      const finished = rows.filter((r) => r.status === 'finished');
      expect(finished.length).toBeGreaterThan(0);
      const newId = (cookies[0] as string).split('=')[1] as string;
      for (const r of finished) expect(r.data).not.toContain(newId);
    });

    it('the same callback 3 times at once when the exchange fails: one token request, all three on sso=failed', async () => {
      const browser = new Browser();
      const start = await browser.get(`${p.base}/api/ros/sso-redirect?from=form`);
      const back = await fetch(location(start, p.base), { redirect: 'manual' });
      const callback = location(back, p.base);
      p.mock.scenario = { tokenAuth: 'client_secret_post' };
      const tokens = p.mock.tokenAuths.length;
      const from = p.sink.lines.length;
      const answers = await Promise.all(
        Array.from({ length: 3 }, () =>
          fetch(callback, { redirect: 'manual', headers: { cookie: browser.cookie as string } }),
        ),
      );
      expect(answers.map((r) => location(r, p.base))).toEqual(Array(3).fill(`${p.base}/form?sso=failed`));
      expect(p.mock.tokenAuths.length).toBe(tokens + 1);
      const reasons = failedLines(p, from).map((l) => l.nia?.reason);
      expect(reasons).toHaveLength(3);
      expect(reasons.filter((r) => r === 'token_invalid_client')).toHaveLength(1);
      // A duplicate that came after the failed sign-in's row was gone finds no sign-in at all.
      for (const r of reasons.filter((r) => r !== 'token_invalid_client'))
        expect(['repeated_callback', 'no_pending_sign_in']).toContain(r);
      expect(await pendingRows(p)).toBe(0);
    });

    it("checks RFC 9207's iss: right, wrong, absent while the provider says it sends it", async () => {
      const discovery = (d: Claims) => {
        d.authorization_response_iss_parameter_supported = true;
      };
      p.mock.scenario = { discovery, authorizeRedirect: (u) => u.searchParams.set('iss', p.mock.issuer) };
      await expectSuccess(p);
      p.app.services.nia.forHost(undefined).client.refresh();
      p.mock.scenario = {
        discovery,
        authorizeRedirect: (u) => u.searchParams.set('iss', 'http://evil.example/'),
      };
      await expectFailure(p, 'iss_mismatch');
      p.mock.scenario = { discovery };
      await expectFailure(p, 'iss_missing');
    });

    it('fails cleanly when the provider is down at the token exchange and at discovery, and recovers', async () => {
      await expectFailure(p, 'token_unreachable', {
        beforeCallback: () => Object.assign(p.mock.scenario, { down: true }),
      });
      // Stale after the failure: the next sign-in asks discovery again, still down.
      const from = p.sink.lines.length;
      const browser = new Browser();
      const start = await browser.get(`${p.base}/api/ros/sso-redirect?from=duplicate-en`);
      expect(location(start, p.base)).toBe(`${p.base}/duplicate/form?sso=failed&lang=en`);
      expect(failedLines(p, from)).toEqual([]);
      const couldNotStart = p.sink.lines
        .slice(from)
        .map((l) => JSON.parse(l) as { msg: string; nia?: { reason?: string } })
        .filter((l) => l.msg === 'NIA sign-in could not start');
      expect(couldNotStart.map((l) => l.nia?.reason)).toEqual(['discovery_unreachable']);
      expect(await pendingRows(p)).toBe(0);
      // The provider is back: the next sign-in works without a restart.
      p.mock.scenario.down = false;
      await expectSuccess(p);
    });

    it('gives up on a token endpoint that never answers (ROS_NIA_TIMEOUT_SECONDS)', async () => {
      p.mock.scenario = { hangToken: true };
      await expectFailure(p, 'token_timeout');
    });

    it('a callback that belongs to no sign-in of this browser leaves its session alone', async () => {
      const browser = await expectSuccess(p);
      const replay = `${p.base}/api/ros/sso-callback?code=stolen&state=forged`;
      const from = p.sink.lines.length;
      const res = await browser.get(replay);
      // Back to the form it signed in from, still signed in.
      expect(location(res, p.base)).toBe(`${p.base}/form?eid=nia`);
      expect(failedLines(p, from).map((l) => l.nia?.reason)).toEqual(['no_pending_sign_in']);
      expect((await sessionOf(p, browser)).status).toBe(200);
      // A stranger's browser goes to the form with sso=failed.
      const stranger = new Browser();
      expect(location(await stranger.get(replay), p.base)).toBe(`${p.base}/form?sso=failed`);
    });

    it("a cross-site link to sso-redirect or sso-logout keeps the active session; the portal's own page restarts", async () => {
      const browser = await expectSuccess(p);
      const signedIn = browser.cookie;
      const auths = p.mock.tokenAuths.length;
      const endSessions = p.mock.endSessions.length;
      for (const path of ['sso-redirect?from=form-en', 'sso-logout']) {
        const res = await browser.get(`${p.base}/api/ros/${path}`, { 'sec-fetch-site': 'cross-site' });
        expect(location(res, p.base)).toBe(`${p.base}/form?eid=nia`);
        expect(browser.cookie).toBe(signedIn);
        expect((await sessionOf(p, browser)).status).toBe(200);
      }
      expect(p.mock.endSessions).toHaveLength(endSessions);
      // From the portal's own page: a new sign-in at the provider.
      const restart = await browser.get(`${p.base}/api/ros/sso-redirect?from=form`, {
        'sec-fetch-site': 'same-origin',
      });
      expect(location(restart, p.base).startsWith(p.mock.issuer)).toBe(true);
      expect(browser.cookie).not.toBe(signedIn);
      expect((await sessionOf(p, browser)).status).toBe(401);
      expect(p.mock.tokenAuths.length).toBe(auths);
    });

    it('signs out at the provider (end_session_endpoint) with the ID token as hint', async () => {
      const browser = await expectSuccess(p);
      const res = await browser.get(`${p.base}/api/ros/sso-logout`);
      const atNia = new URL(location(res, p.base));
      expect(atNia.href.startsWith(`${p.mock.issuer}endsession`)).toBe(true);
      expect(atNia.searchParams.get('post_logout_redirect_uri')).toBe(`${p.base}/`);
      expect(atNia.searchParams.get('client_id')).toBe(CLIENT.id);
      expect(atNia.searchParams.get('id_token_hint')?.split('.')).toHaveLength(3);
      expect(browser.cookie).toBeUndefined();
      expect((await sessionOf(p, browser)).status).toBe(401);
      const back = await fetch(atNia, { redirect: 'manual' });
      expect(location(back, p.base)).toBe(`${p.base}/`);
      // After a submit (no session here any more): NIA is asked with the client id alone.
      const after = new URL(
        location(await new Browser().get(`${p.base}/api/ros/sso-logout?lang=en`), p.base),
      );
      expect(after.href.startsWith(`${p.mock.issuer}endsession`)).toBe(true);
      expect(after.searchParams.has('id_token_hint')).toBe(false);
      expect(after.searchParams.get('ui_locales')).toBe('en');
      // A provider without end_session_endpoint: straight home.
      p.mock.scenario = {
        discovery: (d) => {
          delete d.end_session_endpoint;
        },
      };
      p.app.services.nia.forHost(undefined).client.refresh();
      expect(location(await new Browser().get(`${p.base}/api/ros/sso-logout?lang=en`), p.base)).toBe(
        `${p.base}/?lang=en`,
      );
    });

    it('publishes its public keys for NIA at /api/ros/sso-jwks, never the private parts', async () => {
      const res = await fetch(`${p.base}/api/ros/sso-jwks`);
      expect(res.status).toBe(200);
      const { keys } = (await res.json()) as { keys: jose.JWK[] };
      expect(keys.map((k) => [k.kty, k.use])).toEqual([
        ['RSA', 'enc'],
        ['EC', 'enc'],
      ]);
      for (const k of keys) {
        expect(k.d).toBeUndefined();
        expect(k.kid).toBe(await jose.calculateJwkThumbprint(k));
      }
    });

    it('follows key rotation at the provider: an unknown kid re-fetches the JWKS, at most once a minute', async () => {
      const rotated = await jose.generateKeyPair('RS256', { extractable: true });
      const kid = 'rotated-2027';
      p.mock.scenario = {
        replaceIdToken: async (_s, payload) => resign(payload, rotated.privateKey, { alg: 'RS256', kid }),
      };
      // The clock moves on instead of the test waiting: a minute since the last JWKS fetch.
      vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 61_000 });
      try {
        // Not published yet: the unknown kid fetches the JWKS once, and is refused.
        const fetches = p.mock.jwksFetches;
        await expectFailure(p, 'id_token_key_unknown');
        expect(p.mock.jwksFetches - fetches).toBe(1);
        // The provider publishes the new key; within the minute the portal does not look again.
        await p.mock.addKey({ ...(await jose.exportJWK(rotated.publicKey)), kid, alg: 'RS256' });
        await expectFailure(p, 'id_token_key_unknown');
        expect(p.mock.jwksFetches - fetches).toBe(1);
        // A minute later it does, finds the new key, and the sign-in works without a restart.
        vi.setSystemTime(Date.now() + 61_000);
        await expectSuccess(p);
        expect(p.mock.jwksFetches - fetches).toBe(2);
      } finally {
        vi.useRealTimers();
      }
    });

    it('never logs personal data or tokens', () => {
      const all = p.sink.lines.join('\n');
      expect(all).toContain('NIA sign-in failed');
      for (const word of [PERSON.sub, PERSON.given, PERSON.family, PERSON.birth, 'eyJ', CLIENT.secret]) {
        expect(all).not.toContain(word);
      }
    });
  });

  describe(`NIA interop: private_key_jwt, HS256 allowed, own claim names, no acr (${kind})`, () => {
    let p: Portal;
    beforeAll(async () => {
      p = await startPortal(kind, {
        ROS_NIA_TOKEN_AUTH: 'private_key_jwt',
        ROS_NIA_SIGNING_KEY_FILE: '$SIGNING',
        ROS_NIA_ID_TOKEN_ALGS: 'RS256,HS256',
        ROS_NIA_ACR: '',
        ROS_NIA_CLAIMS:
          'given_name=jmeno,family_name=prijmeni,birthdate=datum_narozeni,person_identifier=pid',
      });
    });
    afterAll(() => stopPortal(p));
    beforeEach(() => {
      p.mock.scenario = { tokenAuth: 'private_key_jwt' };
      p.app.services.nia.forHost(undefined).client.refresh();
    });

    it('authenticates with private_key_jwt, its key published at /api/ros/sso-jwks', async () => {
      p.mock.tokenAuths.length = 0;
      await expectSuccess(p);
      expect(p.mock.tokenAuths).toEqual(['private_key_jwt']);
      const { keys } = (await (await fetch(`${p.base}/api/ros/sso-jwks`)).json()) as { keys: jose.JWK[] };
      expect(keys.filter((k) => k.use === 'sig').map((k) => k.alg)).toEqual(['RS256']);
    });

    it('maps other claim names (ROS_NIA_CLAIMS) and takes the person identifier from the configured claim', async () => {
      p.mock.scenario.userinfo = {
        jmeno: PERSON.given,
        prijmeni: PERSON.family,
        datum_narozeni: PERSON.birth,
        pid: 'pseudonym-42',
      };
      const browser = await expectSuccess(p);
      const row = await p.t.db.kysely
        .selectFrom('sso_sessions')
        .select('data')
        .where('status', '=', 'active')
        .orderBy('created_at', 'desc')
        .executeTakeFirstOrThrow();
      expect(JSON.parse(row.data).person_identifier).toBe('pseudonym-42');
      expect(browser.cookie).toBeDefined();
    });

    it('accepts HS256 with the client secret when explicitly allowed, never with a wrong secret', async () => {
      const discovery = (d: Claims) => {
        d.id_token_signing_alg_values_supported = ['RS256', 'HS256'];
      };
      p.mock.scenario = {
        tokenAuth: 'private_key_jwt',
        discovery,
        replaceIdToken: async (_s, payload) =>
          resign(payload, new TextEncoder().encode(CLIENT.secret), { alg: 'HS256' }),
      };
      await expectSuccess(p);
      p.mock.scenario.replaceIdToken = async (_s, payload) =>
        resign(payload, new TextEncoder().encode('a-wrong-secret-of-some-length-000'), { alg: 'HS256' });
      await expectFailure(p, 'id_token_signature');
    });

    it('accepts a missing acr when ROS_NIA_ACR is empty, and asks for no level', async () => {
      p.mock.scenario.idToken = (c) => {
        delete c.acr;
      };
      const res = await new Browser().get(`${p.base}/api/ros/sso-redirect?from=form`);
      expect(new URL(location(res, p.base)).searchParams.has('acr_values')).toBe(false);
      await expectSuccess(p);
    });

    it('fails with invalid_client when the provider refuses the client assertion', async () => {
      p.mock.scenario = { tokenAuth: 'client_secret_basic' };
      await expectFailure(p, 'token_invalid_client');
    });
  });
}

describe('NIA settings (issue 23)', () => {
  const base = { ROS_NIA_TEST_PROVIDER: 'false', ROS_NIA_CLIENT_ID: 'c', ROS_NIA_CLIENT_SECRET: 's' };
  it('keeps the issuer exactly as configured, trailing slash included', () => {
    expect(loadConfig({ ...base, ROS_NIA_ISSUER: 'https://nia.example/oidc/' }).niaIssuer).toBe(
      'https://nia.example/oidc/',
    );
    expect(loadConfig({ ...base, ROS_NIA_ISSUER: 'https://nia.example' }).niaIssuer).toBe(
      'https://nia.example',
    );
  });

  it('has the documented defaults', () => {
    expect(loadConfig({ ...base, ROS_NIA_ISSUER: 'https://nia.example' })).toMatchObject({
      niaIdTokenAlgs: ['RS256', 'PS256', 'ES256'],
      niaClockToleranceSeconds: 60,
      niaTimeoutSeconds: 10,
      niaTokenAuth: '',
      niaAcr: LOA_SUBSTANTIAL,
      niaClaims: {},
      niaDecryptionKeyFiles: [],
      niaSigningKeyFiles: [],
    });
  });

  it('says what is wrong with each bad NIA setting, one line each', () => {
    const env = {
      ...base,
      ROS_NIA_ISSUER: 'https://nia.example',
      ROS_NIA_ID_TOKEN_ALGS: 'RS256,none',
      ROS_NIA_CLOCK_TOLERANCE_SECONDS: 'soon',
      ROS_NIA_TOKEN_AUTH: 'tls_client_auth',
      ROS_NIA_DECRYPTION_KEY_FILE: '/nonexistent/key.pem',
      ROS_NIA_CLAIMS: 'nickname=x',
    };
    try {
      loadConfig(env);
      expect.unreachable();
    } catch (err) {
      const problems = (err as { problems: string[] }).problems;
      expect(problems.filter((l) => l.startsWith('ROS_NIA_ID_TOKEN_ALGS'))).toHaveLength(1);
      expect(problems.filter((l) => l.startsWith('ROS_NIA_CLOCK_TOLERANCE_SECONDS'))).toHaveLength(1);
      expect(problems.filter((l) => l.startsWith('ROS_NIA_TOKEN_AUTH'))).toHaveLength(1);
      expect(problems.filter((l) => l.startsWith('ROS_NIA_DECRYPTION_KEY_FILE'))).toHaveLength(1);
      expect(problems.filter((l) => l.startsWith('ROS_NIA_CLAIMS'))).toHaveLength(1);
    }
  });

  it('in production: an https issuer and no HS* algorithms', () => {
    const prod = {
      ...base,
      NODE_ENV: 'production',
      ROS_ALTCHA_HMAC_KEY: 'k'.repeat(40),
      ROS_NIA_ISSUER: 'http://nia.example/',
      ROS_NIA_ID_TOKEN_ALGS: 'RS256,HS256',
    };
    expect(() => loadConfig(prod)).toThrow(
      /ROS_NIA_ISSUER="http:\/\/nia.example\/" must be an https:\/\/ URL/,
    );
    expect(() => loadConfig(prod)).toThrow(/ROS_NIA_ID_TOKEN_ALGS lists an HS\* algorithm/);
  });
});
