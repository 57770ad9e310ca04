import type { FastifyInstance, FastifyRequest } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import { hashId } from '../../nia/sessions.js';
import { createTestDb, type TestDb, testDbKinds } from '../../test/databases.js';
import { csrfOk } from './csrf.js';
import { createPending, loadStaff, newCookieValue, purgeExpiredStaffSessions } from './sessions.js';
import { signedInStaff, withConsoleAuth } from './testing.js';

/**
 * A staff session after its sign-in, on SQLite and PostgreSQL: the idle (30 min) and absolute
 * (10 h) ends, the end sliding at most once a minute, the sweep, and sign-out with its CSRF
 * checks (the form's token, Origin, Sec-Fetch-Site).
 */

const MIN = 60_000;
const asRequest = (cookie: string) => ({ headers: { cookie } }) as unknown as FastifyRequest;

for (const kind of await testDbKinds()) {
  describe(`console staff sessions (${kind})`, () => {
    let t: TestDb;
    let app: FastifyInstance;

    const row = (cookie: string) =>
      t.db.kysely
        .selectFrom('console_sessions')
        .selectAll()
        .where('id', '=', hashId(cookie.split('=')[1] as string))
        .executeTakeFirst();
    const setTimes = (cookie: string, times: { created_at?: Date; last_seen_at?: Date; expires_at?: Date }) =>
      t.db.kysely
        .updateTable('console_sessions')
        .set(Object.fromEntries(Object.entries(times).map(([k, v]) => [k, v.toISOString()])))
        .where('id', '=', hashId(cookie.split('=')[1] as string))
        .execute();

    beforeAll(async () => {
      t = await createTestDb(kind);
      const ctx = { config: t.config, db: t.db, version: 'test' };
      app = await buildApp(ctx);
      await withConsoleAuth(app, ctx);
    });
    afterAll(async () => {
      await app?.close();
      await t?.cleanup();
    });

    it('ends after 30 minutes without a request, and the row goes', async () => {
      const { cookie } = await signedInStaff(app, t.db, 'test-clerk');
      const now = Date.now();
      expect(await loadStaff(t.db, asRequest(cookie), new Date(now + 29 * MIN))).not.toBeNull();
      // The 29-minute look moved the end: 30 minutes from then.
      expect(await loadStaff(t.db, asRequest(cookie), new Date(now + 58 * MIN))).not.toBeNull();
      expect(await loadStaff(t.db, asRequest(cookie), new Date(now + 88 * MIN + 1000))).toBeNull();
      expect(await row(cookie)).toBeUndefined();
    });

    it('ends 10 hours after the sign-in however busy, and its end never slides beyond that', async () => {
      const { cookie } = await signedInStaff(app, t.db, 'test-reader');
      const start = Date.now();
      await setTimes(cookie, { created_at: new Date(start - (9 * 60 + 50) * MIN) });
      expect(await loadStaff(t.db, asRequest(cookie), new Date(start + 2 * MIN))).not.toBeNull();
      expect((await row(cookie))?.expires_at).toBe(new Date(start + 10 * MIN).toISOString());
      await setTimes(cookie, {
        created_at: new Date(start - 10 * 60 * MIN - 1000),
        expires_at: new Date(start + 20 * MIN),
      });
      expect(await loadStaff(t.db, asRequest(cookie), new Date(start))).toBeNull();
      expect(await row(cookie)).toBeUndefined();
    });

    it('moves last_seen_at at most once a minute', async () => {
      const { cookie } = await signedInStaff(app, t.db, 'test-admin');
      const first = await row(cookie);
      const seen = Date.parse(first?.last_seen_at as string);
      await loadStaff(t.db, asRequest(cookie), new Date(seen + 59_000));
      expect((await row(cookie))?.last_seen_at).toBe(first?.last_seen_at);
      await loadStaff(t.db, asRequest(cookie), new Date(seen + 61_000));
      const moved = await row(cookie);
      expect(moved?.last_seen_at).toBe(new Date(seen + 61_000).toISOString());
      expect(moved?.expires_at).toBe(new Date(seen + 61_000 + 30 * MIN).toISOString());
    });

    it('is no session for a made-up cookie or a sign-in still under way; the sweep takes the ended ones', async () => {
      expect(await loadStaff(t.db, asRequest('ros_console=not-one-of-ours'))).toBeNull();
      expect(await loadStaff(t.db, asRequest(`ros_console=${'A'.repeat(43)}`))).toBeNull();
      const pending = newCookieValue();
      await createPending(t.db, pending);
      expect(await loadStaff(t.db, asRequest(`ros_console=${pending}`))).toBeNull();
      const { cookie } = await signedInStaff(app, t.db, 'test-clerk');
      const gone = await signedInStaff(app, t.db, 'test-reader');
      await setTimes(gone.cookie, { expires_at: new Date(Date.now() - 1000) });
      await purgeExpiredStaffSessions(t.db, new Date());
      expect(await row(gone.cookie)).toBeUndefined();
      expect(await row(cookie)).toBeDefined();
      // The pending sign-in ends 10 minutes after it began.
      await purgeExpiredStaffSessions(t.db, new Date(Date.now() + 11 * MIN));
      const left = await t.db.kysely
        .selectFrom('console_sessions')
        .select('id')
        .where('id', '=', hashId(pending))
        .executeTakeFirst();
      expect(left).toBeUndefined();
    });

    const signOut = (cookie: string, form: Record<string, string>, headers: Record<string, string> = {}) =>
      app.inject({
        method: 'POST',
        url: '/urad/odhlaseni',
        headers: {
          host: 'localhost:8080',
          'content-type': 'application/x-www-form-urlencoded',
          cookie,
          ...headers,
        },
        payload: new URLSearchParams(form).toString(),
      });

    it('signs out with the session’s token from the console’s own page: row deleted, cookie cleared, audited', async () => {
      const { cookie, csrf } = await signedInStaff(app, t.db, 'test-clerk');
      const res = await signOut(
        cookie,
        { csrf },
        { origin: 'http://localhost:8080', 'sec-fetch-site': 'same-origin' },
      );
      expect(res.statusCode).toBe(303);
      expect(res.headers.location).toBe('/urad/prihlaseni?odhlaseno=1');
      expect(String(res.headers['set-cookie'])).toMatch(
        /^ros_console=; Max-Age=0; Path=\/urad; .*HttpOnly; SameSite=Strict/,
      );
      expect(await row(cookie)).toBeUndefined();
      expect(await loadStaff(t.db, asRequest(cookie))).toBeNull();
      const audits = await t.db.kysely
        .selectFrom('audit_log')
        .select(['action', 'outcome'])
        .where('actor', '=', 'staff:test-clerk')
        .where('action', '=', 'console.signout')
        .execute();
      expect(audits).toEqual([{ action: 'console.signout', outcome: 'ok' }]);
      // Without a session (ended meanwhile) it just goes to the sign-in page.
      expect((await signOut(cookie, { csrf })).headers.location).toBe('/urad/prihlaseni?odhlaseno=1');
    });

    it('refuses a sign-out with a wrong or missing token, a cross-site Origin or Sec-Fetch-Site; the session stays', async () => {
      const { cookie, csrf } = await signedInStaff(app, t.db, 'test-clerk');
      const refused: Array<[Record<string, string>, Record<string, string>]> = [
        [{ csrf: `${csrf.slice(0, -1)}${csrf.endsWith('A') ? 'B' : 'A'}` }, {}],
        [{}, {}],
        [{ csrf: '' }, {}],
        [{ csrf }, { origin: 'https://evil.example' }],
        [{ csrf }, { origin: 'null' }],
        [{ csrf }, { origin: 'http://localhost:8080', 'sec-fetch-site': 'cross-site' }],
        [{ csrf }, { 'sec-fetch-site': 'same-site' }],
      ];
      for (const [form, headers] of refused) {
        const res = await signOut(cookie, form, headers);
        expect([form, headers, res.statusCode]).toEqual([form, headers, 403]);
        expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
        expect(res.body).toContain('<html lang="cs">');
      }
      expect(await loadStaff(t.db, asRequest(cookie))).not.toBeNull();
      // A browser that sends neither Origin nor Sec-Fetch-Site: the token decides.
      expect((await signOut(cookie, { csrf })).statusCode).toBe(303);
    });

    it('csrfOk: the token in constant time, Origin the public origin, Sec-Fetch-Site not cross-site', async () => {
      const { cookie } = await signedInStaff(app, t.db, 'test-reader');
      const staff = await loadStaff(t.db, asRequest(cookie));
      if (!staff) throw new Error('not signed in');
      const req = (headers: Record<string, string>) =>
        ({ headers, server: app }) as unknown as FastifyRequest;
      expect(csrfOk(req({}), staff, staff.csrf)).toBe(true);
      expect(
        csrfOk(req({ origin: 'http://localhost:8080', host: 'localhost:8080' }), staff, staff.csrf),
      ).toBe(true);
      expect(csrfOk(req({ 'sec-fetch-site': 'same-origin' }), staff, staff.csrf)).toBe(true);
      expect(csrfOk(req({}), staff, undefined)).toBe(false);
      expect(csrfOk(req({}), staff, 42)).toBe(false);
      expect(csrfOk(req({}), staff, [staff.csrf])).toBe(false);
      expect(csrfOk(req({}), staff, `${staff.csrf}x`)).toBe(false);
      expect(csrfOk(req({ origin: 'http://127.0.0.1:8080' }), staff, staff.csrf)).toBe(false);
      expect(csrfOk(req({ 'sec-fetch-site': 'cross-site' }), staff, staff.csrf)).toBe(false);
    });
  });
}
