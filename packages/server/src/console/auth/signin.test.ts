import { Writable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, loggerOptions } from '../../app.js';
import { createTestDb, type TestDb, testDbKinds } from '../../test/databases.js';
import { loadStaff } from './sessions.js';
import { browse, Jar, signInSteps, withConsoleAuth } from './testing.js';

/**
 * The whole staff sign-in through the local provider (/urad-test) with app.inject, on SQLite and
 * PostgreSQL: each role, the refusal of a subject without one, a cancelled sign-in, a forged and a
 * replayed callback, an expired sign-in, a provider on another site, and the console switched off.
 */

class LogSink extends Writable {
  lines: string[] = [];
  override _write(chunk: Buffer, _enc: string, done: () => void) {
    this.lines.push(chunk.toString('utf8'));
    done();
  }
}

const asRequest = (cookie: string) => ({ headers: { cookie } }) as unknown as FastifyRequest;

for (const kind of await testDbKinds()) {
  describe(`console staff sign-in through the local provider (${kind})`, () => {
    let t: TestDb;
    let app: FastifyInstance;
    const sink = new LogSink();

    const sessions = () =>
      t.db.kysely.selectFrom('console_sessions').selectAll().where('role', '!=', 'pending').execute();
    const pending = () =>
      t.db.kysely.selectFrom('console_sessions').selectAll().where('role', '=', 'pending').execute();
    const audits = (actor: string) =>
      t.db.kysely.selectFrom('audit_log').selectAll().where('actor', '=', actor).orderBy('id').execute();

    beforeAll(async () => {
      t = await createTestDb(kind);
      const ctx = { config: t.config, db: t.db, version: 'test' };
      app = await buildApp(ctx, { logger: { ...(loggerOptions('info') as object), stream: sink } });
      await withConsoleAuth(app, ctx);
    });
    afterAll(async () => {
      await app?.close();
      await t?.cleanup();
    });

    it('signs in each role: PKCE S256, state, nonce, prompt=login; a Strict cookie on /urad; one audit row', async () => {
      const cases = [
        ['test-reader', 'reader', 'Alena Čtenářová'],
        ['test-clerk', 'clerk', 'Karel Úředník'],
        // Its claim is an array (clerk, admin): the highest wins.
        ['test-admin', 'admin', 'Marie Správcová'],
      ] as const;
      for (const [subject, role, name] of cases) {
        const { jar, authorize, answer } = await signInSteps(app, { subject });
        const auth = new URL(authorize);
        expect(auth.pathname).toBe('/urad-test/auth');
        expect(auth.searchParams.get('code_challenge_method')).toBe('S256');
        expect(auth.searchParams.get('state')).toMatch(/^[A-Za-z0-9_-]{43}$/);
        expect(auth.searchParams.get('nonce')).toMatch(/^[A-Za-z0-9_-]{43}$/);
        expect(auth.searchParams.get('prompt')).toBe('login');
        expect(auth.searchParams.get('redirect_uri')).toBe('http://localhost:8080/urad/prihlaseni/navrat');
        expect(answer.statusCode).toBe(303);
        expect(answer.headers.location).toBe('/urad');
        expect(answer.headers['cache-control']).toBe('no-store');
        const set = ([] as string[]).concat(answer.headers['set-cookie'] as string | string[]);
        const line = set.find((l) => l.startsWith('ros_console='));
        expect(line).toMatch(
          /^ros_console=[A-Za-z0-9_-]{43}; Max-Age=36000; Path=\/urad; HttpOnly; SameSite=Strict$/,
        );
        // The sign-in's own cookie is cleared.
        expect(set.some((l) => /^ros_console_signin=; Max-Age=0; Path=\/urad\/prihlaseni/.test(l))).toBe(
          true,
        );
        const staff = await loadStaff(t.db, asRequest(`ros_console=${jar.get('ros_console')}`));
        expect(staff).toMatchObject({ subject, name, role, actor: `staff:${subject}` });
        expect(staff?.csrf).toMatch(/^[A-Za-z0-9_-]{43}$/);
        expect(
          (await audits(`staff:${subject}`)).map((a) => [a.action, a.outcome, a.detail, a.target]),
        ).toEqual([['console.signin', 'ok', `role=${role}`, null]]);
      }
      expect(await pending()).toEqual([]);
    });

    it('refuses a subject without a role: no session, chyba=no_role, a denied audit row without the name', async () => {
      const before = (await sessions()).length;
      const { jar, answer } = await signInSteps(app, { subject: 'test-norole' });
      expect(answer.statusCode).toBe(303);
      expect(answer.headers.location).toBe('/urad/prihlaseni?chyba=no_role');
      expect(jar.get('ros_console')).toBeUndefined();
      expect((await sessions()).length).toBe(before);
      const rows = await audits('staff:test-norole');
      expect(rows.map((a) => [a.action, a.outcome, a.detail])).toEqual([
        ['console.signin', 'denied', 'no_role'],
      ]);
      expect(JSON.stringify(rows)).not.toContain('Bezrole');
    });

    it('a cancelled sign-in goes back with chyba=cancelled and leaves nothing behind', async () => {
      const before = (await sessions()).length;
      const { jar, answer } = await signInSteps(app, { subject: 'test-clerk', cancel: true });
      expect(answer.headers.location).toBe('/urad/prihlaseni?chyba=cancelled');
      expect(jar.get('ros_console')).toBeUndefined();
      expect(jar.get('ros_console_signin')).toBeUndefined();
      expect((await sessions()).length).toBe(before);
      expect(await pending()).toEqual([]);
    });

    it('ignores a forged state (the real callback still signs in) and takes a callback once', async () => {
      const jar = new Jar();
      let real = '';
      let pendingValue = '';
      const { answer } = await signInSteps(app, {
        subject: 'test-clerk',
        jar,
        tamper: (u) => {
          real = u.href;
          pendingValue = jar.get('ros_console_signin') as string;
          u.searchParams.set('state', 'forged-state-of-someone-elses-link');
        },
      });
      expect(answer.headers.location).toBe('/urad/prihlaseni?chyba=failed');
      expect(jar.get('ros_console')).toBeUndefined();
      expect(jar.get('ros_console_signin')).toBe(pendingValue);
      const ok = await browse(app, jar, real);
      expect(ok.headers.location).toBe('/urad');
      const staffCookie = jar.get('ros_console');
      expect(staffCookie).toBeTruthy();
      const count = (await sessions()).length;
      // Replayed with the sign-in's cookie (copied before it was cleared): taken already.
      const replay = await app.inject({
        url: new URL(real).pathname + new URL(real).search,
        headers: { host: 'localhost:8080', cookie: `ros_console_signin=${pendingValue}` },
      });
      expect(replay.headers.location).toBe('/urad/prihlaseni?chyba=expired');
      // Replayed by a browser with no sign-in under way: expired, nothing made.
      expect((await browse(app, new Jar(), real)).headers.location).toBe('/urad/prihlaseni?chyba=expired');
      expect((await sessions()).length).toBe(count);
      // The same browser again (Back, a double click): still signed in, the same session.
      expect((await browse(app, jar, real)).headers.location).toBe('/urad');
      expect(jar.get('ros_console')).toBe(staffCookie);
    });

    it('five copies of one callback at once: one session, the others expired', async () => {
      const jar = new Jar();
      let real = '';
      await signInSteps(app, {
        subject: 'test-reader',
        jar,
        tamper: (u) => {
          real = u.href;
          u.searchParams.set('state', 'not-this-one');
        },
      });
      const before = (await sessions()).length;
      const cookie = jar.header('/urad/prihlaseni/navrat');
      const url = new URL(real);
      const answers = await Promise.all(
        Array.from({ length: 5 }, () =>
          app.inject({ url: url.pathname + url.search, headers: { host: 'localhost:8080', cookie } }),
        ),
      );
      const locations = answers.map((a) => a.headers.location).sort();
      expect(locations).toEqual(['/urad', ...Array(4).fill('/urad/prihlaseni?chyba=expired')]);
      expect((await sessions()).length).toBe(before + 1);
    });

    it('a sign-in left longer than 10 minutes ends with chyba=expired', async () => {
      const { answer } = await signInSteps(app, {
        subject: 'test-clerk',
        tamper: async () => {
          await t.db.kysely
            .updateTable('console_sessions')
            .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
            .where('role', '=', 'pending')
            .execute();
        },
      });
      expect(answer.headers.location).toBe('/urad/prihlaseni?chyba=expired');
    });

    it('a new sign-in in the same browser replaces its session', async () => {
      const jar = new Jar();
      await signInSteps(app, { subject: 'test-reader', jar });
      const first = jar.get('ros_console') as string;
      await signInSteps(app, { subject: 'test-admin', jar });
      const second = jar.get('ros_console') as string;
      expect(second).not.toBe(first);
      expect(await loadStaff(t.db, asRequest(`ros_console=${first}`))).toBeNull();
      expect((await loadStaff(t.db, asRequest(`ros_console=${second}`)))?.role).toBe('admin');
    });

    it('after a provider on another site, a page of ours goes on to /urad (the Strict cookie is not sent on its redirect)', async () => {
      const { answer } = await signInSteps(app, {
        subject: 'test-clerk',
        callbackHeaders: { 'sec-fetch-site': 'cross-site' },
      });
      expect(answer.statusCode).toBe(200);
      expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(answer.headers['content-security-policy']).toContain("default-src 'none'");
      expect(answer.body).toContain('<meta http-equiv="refresh" content="0;url=/urad">');
      expect(answer.body).toContain('<a href="/urad">');
      expect(String(answer.headers['set-cookie'])).toMatch(/ros_console=[A-Za-z0-9_-]{43};/);
    });

    it('in development follows the loopback address the browser used (ROS_PUBLIC_URL unset)', async () => {
      const { jar, authorize, callback, answer } = await signInSteps(app, {
        subject: 'test-clerk',
        host: '127.0.0.1:8080',
      });
      expect(authorize.startsWith('http://127.0.0.1:8080/urad-test/auth?')).toBe(true);
      expect(new URL(authorize).searchParams.get('redirect_uri')).toBe(
        'http://127.0.0.1:8080/urad/prihlaseni/navrat',
      );
      expect(callback.searchParams.get('iss')).toBe('http://127.0.0.1:8080/urad-test');
      expect(answer.headers.location).toBe('/urad');
      expect((await loadStaff(t.db, asRequest(`ros_console=${jar.get('ros_console')}`)))?.role).toBe('clerk');
    });

    it('logs a reason word, never a name or a subject', async () => {
      const text = sink.lines.join('\n');
      expect(text).toContain('"reason":"state_mismatch"');
      expect(text).toContain('"reason":"no_role"');
      expect(text).toContain('"reason":"cancelled"');
      for (const word of ['test-clerk', 'test-norole', 'Karel', 'Úředník', 'Bezrole', 'Správcová']) {
        expect(text).not.toContain(word);
      }
    });
  });
}

describe('the console switched off (ROS_CONSOLE=off)', () => {
  it('answers 404 on the sign-in routes and the local provider', async () => {
    const t = await createTestDb('sqlite', { ROS_CONSOLE: 'off' });
    const ctx = { config: t.config, db: t.db, version: 'test' };
    const app = await buildApp(ctx);
    try {
      await withConsoleAuth(app, ctx);
      for (const [method, url] of [
        ['GET', '/urad/prihlaseni/zahajit'],
        ['GET', '/urad/prihlaseni/navrat?code=x&state=y'],
        ['POST', '/urad/odhlaseni'],
        ['GET', '/urad-test/.well-known/openid-configuration'],
        ['GET', '/urad-test'],
      ] as const) {
        const res = await app.inject({ method, url });
        expect([url, res.statusCode]).toEqual([url, 404]);
        expect(res.json()).toEqual({ error: { code: 'NOT_FOUND', message: 'Not found' } });
      }
    } finally {
      await app.close();
      await t.cleanup();
    }
  });
});
