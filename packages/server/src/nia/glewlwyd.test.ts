import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, loggerOptions } from '../app.js';
import { createTestDb, type TestDb, testDbKinds } from '../test/databases.js';
import { GLW_CLIENT, GLW_USER, type Glewlwyd, glewlwydInstalled, startGlewlwyd } from '../test/glewlwyd.js';

/**
 * NIA sign-in against Debian's glewlwyd (docs/nia.md "Interop tests"): a second OpenID provider
 * nobody here wrote, in C, with its own discovery, RS256 keys, client authentication, PKCE,
 * userinfo and end_session. Runs when the package is installed (`apt-get install glewlwyd`);
 * skipped otherwise.
 */

class LogSink extends Writable {
  lines: string[] = [];
  override _write(chunk: Buffer, _enc: string, done: () => void) {
    this.lines.push(chunk.toString('utf8'));
    done();
  }
}

class Browser {
  cookie: string | undefined;
  async get(url: string): Promise<Response> {
    const res = await fetch(url, { redirect: 'manual', headers: this.cookie ? { cookie: this.cookie } : {} });
    for (const line of res.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const value = pair.slice(pair.indexOf('=') + 1);
      this.cookie = value === '' || /max-age=0/i.test(line) ? undefined : pair;
    }
    return res;
  }
}

const location = (res: Response, base: string) => new URL(res.headers.get('location') ?? '', base).href;

for (const kind of await testDbKinds()) {
  describe.skipIf(!glewlwydInstalled())(`NIA interop with glewlwyd (${kind})`, () => {
    let dir: string;
    let glw: Glewlwyd;
    let t: TestDb;
    let app: FastifyInstance;
    let base: string;
    const sink = new LogSink();

    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'ros-glewlwyd-'));
      glw = await startGlewlwyd(dir);
      t = await createTestDb(kind, {
        ROS_NIA_TEST_PROVIDER: 'false',
        ROS_NIA_ISSUER: glw.issuer,
        ROS_NIA_CLIENT_ID: GLW_CLIENT.id,
        ROS_NIA_CLIENT_SECRET: GLW_CLIENT.secret,
        // glewlwyd has no scopes "profile" and "email"; its claims come with openid.
        ROS_NIA_SCOPE: 'openid',
        ROS_NIA_TIMEOUT_SECONDS: '5',
        ROS_RATE_LIMIT_SEARCH: '100000',
      });
      app = await buildApp(
        { config: t.config, db: t.db, version: 'test' },
        { logger: { ...(loggerOptions('info') as object), stream: sink } },
      );
      await app.listen({ port: 0, host: '127.0.0.1' });
      const address = app.server.address();
      if (!address || typeof address === 'string') throw new Error('no address');
      base = `http://127.0.0.1:${address.port}`;
      t.config.publicUrl = base;
      await glw.addClient(base);
    }, 60000);

    afterAll(async () => {
      await app?.close();
      await glw?.stop();
      await t?.cleanup();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    async function signIn() {
      const browser = new Browser();
      const start = await browser.get(`${base}/api/ros/sso-redirect?from=form`);
      const auth = location(start, base);
      expect(auth.startsWith(`${glw.issuer}/auth?`)).toBe(true);
      const back = await glw.authorize(auth);
      expect(back.startsWith(`${base}/api/ros/sso-callback?`)).toBe(true);
      const end = await browser.get(back);
      return { browser, target: location(end, base) };
    }

    const failures = (from: number) =>
      sink.lines
        .slice(from)
        .map((l) => JSON.parse(l) as { msg: string; nia?: { reason?: string } })
        .filter((l) => l.msg === 'NIA sign-in failed')
        .map((l) => l.nia?.reason);

    it('refuses its ID token by default: glewlwyd states no level of assurance (acr_missing)', async () => {
      const from = sink.lines.length;
      const { browser, target } = await signIn();
      expect(target).toBe(`${base}/form?sso=failed`);
      expect(failures(from)).toEqual(['acr_missing']);
      expect(browser.cookie).toBeUndefined();
    });

    it('signs in with ROS_NIA_ACR empty: RS256 ID token, client_secret_basic, PKCE, the standard claims', async () => {
      t.config.niaAcr = '';
      const from = sink.lines.length;
      const { browser, target } = await signIn();
      expect(failures(from), glw.log()).toEqual([]);
      expect(target).toBe(`${base}/form?eid=nia`);
      const session = await browser.get(`${base}/api/ros/sso-session`);
      expect(session.status).toBe(200);
      expect(((await session.json()) as { nia: unknown }).nia).toEqual({
        complete: true,
        first_name: GLW_USER.given_name,
        last_name: GLW_USER.family_name,
        birth_date: GLW_USER.birthdate,
      });
      // Sign-out at glewlwyd's end_session_endpoint with the ID token as hint.
      const out = new URL(location(await browser.get(`${base}/api/ros/sso-logout`), base));
      expect(out.href.startsWith(`${glw.issuer}/end_session?`)).toBe(true);
      expect(out.searchParams.get('id_token_hint')?.split('.')).toHaveLength(3);
      expect(out.searchParams.get('post_logout_redirect_uri')).toBe(`${base}/`);
      expect((await browser.get(`${base}/api/ros/sso-session`)).status).toBe(401);
    });

    it('never logs the person or a token', () => {
      const log = sink.lines.join('\n');
      for (const secret of [GLW_USER.given_name, GLW_USER.family_name, GLW_USER.birthdate, GLW_CLIENT.secret])
        expect(log).not.toContain(secret);
      expect(log).not.toMatch(/eyJ[\w-]+\.eyJ/);
    });
  });
}
