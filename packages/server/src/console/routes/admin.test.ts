import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY } from '../../retention/due.js';
import { purge } from '../../retention/index.js';
import { testDbKinds } from '../../test/databases.js';
import { storedRequest } from '../../test/requests.js';
import {
  auditSince,
  axeViolations,
  type ConsoleTestApp,
  consoleTestApp,
  expectConsolePage,
  get,
  lastAuditId,
  markupProblems,
  post,
  type Session,
  session,
  textOf,
} from './testing.js';

/**
 * The administrator's page /urad/sprava (console/routes/admin.ts), through app.inject on SQLite
 * and PostgreSQL: only administrators; the tokens' table; a token created (CSRF checked) shown
 * once and working against the intake API, never stored or audited in clear; revoked (then 401);
 * the retention purge's count as `purge --dry-run` makes it, and its last run.
 */

const TOKEN = /ros_[A-Za-z0-9_-]{43}/;

for (const kind of await testDbKinds()) {
  describe(`the console's administration page (${kind})`, { timeout: 120_000 }, () => {
    let c: ConsoleTestApp;
    let reader: Session;
    let clerk: Session;
    let admin: Session;

    const intake = (token: string) =>
      c.app.inject({ url: '/api/intake/v1/requests', headers: { authorization: `Bearer ${token}` } });

    beforeAll(async () => {
      c = await consoleTestApp(kind);
      reader = await session(c, 'test-reader');
      clerk = await session(c, 'test-clerk');
      admin = await session(c, 'test-admin');
    });
    afterAll(async () => {
      await c?.close();
    });

    it('a clerk and a reader get 403 (audited denied), for the page and its forms; no link in their navigation', async () => {
      for (const who of [clerk, reader]) {
        const before = await lastAuditId(c);
        const page = await get(c, who, '/urad/sprava');
        expectConsolePage(page, 403);
        const create = await post(c, who, '/urad/sprava/tokeny', { name: 'x1', 'scope_requests:read': '1' });
        expect(create.statusCode).toBe(403);
        expect((await post(c, who, '/urad/sprava/tokeny/x1/zrusit')).statusCode).toBe(403);
        const rows = await auditSince(c, before);
        expect(rows).toEqual([
          expect.objectContaining({
            actor: `staff:${who.subject}`,
            action: 'console.administer',
            outcome: 'denied',
          }),
          expect.objectContaining({ action: 'console.administer', outcome: 'denied' }),
          expect.objectContaining({ action: 'console.administer', outcome: 'denied' }),
        ]);
        expect((await get(c, who, '/urad')).body).not.toContain('href="/urad/sprava"');
      }
      const none = await c.t.db.kysely.selectFrom('intake_tokens').select('name').execute();
      expect(none).toEqual([]);
      expect((await get(c, admin, '/urad')).body).toContain('href="/urad/sprava"');
    });

    it('create: CSRF checked; the token is shown once, works against the intake API, is stored and audited only as its name', async () => {
      let before = await lastAuditId(c);
      const forged = await post(c, admin, '/urad/sprava/tokeny', {
        csrf: 'wrong',
        name: 'backoffice',
        'scope_requests:read': '1',
      });
      expectConsolePage(forged, 400);
      const crossSite = await post(
        c,
        admin,
        '/urad/sprava/tokeny',
        { name: 'backoffice', 'scope_requests:read': '1' },
        { 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' },
      );
      expect(crossSite.statusCode).toBe(400);
      expect(await auditSince(c, before)).toEqual([
        expect.objectContaining({ action: 'console.csrf', outcome: 'denied' }),
        expect.objectContaining({ action: 'console.csrf', outcome: 'denied' }),
      ]);
      expect(await c.t.db.kysely.selectFrom('intake_tokens').select('name').execute()).toEqual([]);

      // Errors: a bad name, no scope; the form comes back with them.
      const bad = await post(c, admin, '/urad/sprava/tokeny', { name: 'bad name' });
      expectConsolePage(bad, 400);
      expect(textOf(bad.body)).toContain('Název tokenu nesplňuje pravidla');
      expect(textOf(bad.body)).toContain('Vyberte alespoň jedno oprávnění');
      expect(await markupProblems(bad.body)).toEqual([]);
      expect(await axeViolations(bad.body)).toEqual([]);

      before = await lastAuditId(c);
      const res = await post(c, admin, '/urad/sprava/tokeny', {
        name: 'backoffice',
        'scope_requests:read': '1',
        'scope_requests:receive': '1',
      });
      expectConsolePage(res, 200);
      expect(res.headers['cache-control']).toBe('no-store');
      const token = TOKEN.exec(res.body)?.[0] as string;
      expect(token).toBeDefined();
      expect(await markupProblems(res.body)).toEqual([]);
      expect(await axeViolations(res.body)).toEqual([]);

      const row = await c.t.db.kysely
        .selectFrom('intake_tokens')
        .selectAll()
        .where('name', '=', 'backoffice')
        .executeTakeFirstOrThrow();
      expect(row.created_by).toBe('staff:test-admin');
      expect(row.scopes).toBe('requests:read requests:receive');
      expect(JSON.stringify(row)).not.toContain(token);
      const audit = await auditSince(c, before);
      expect(audit).toEqual([
        expect.objectContaining({
          actor: 'staff:test-admin',
          action: 'console.token_create',
          target: 'token:backoffice',
          outcome: 'ok',
          detail: 'requests:read requests:receive',
        }),
      ]);
      expect(JSON.stringify(await auditSince(c, 0))).not.toContain(token);

      expect((await intake(token)).statusCode).toBe(200);

      // Never again: the page lists it without the secret, with its last use.
      const page = await get(c, admin, '/urad/sprava');
      expectConsolePage(page, 200);
      expect(page.body).not.toContain(token);
      expect(page.body).not.toMatch(TOKEN);
      const text = textOf(page.body);
      expect(text).toContain('backoffice');
      expect(text).toContain('requests:read, requests:receive');
      expect(text).toContain('staff:test-admin');
      expect(text).not.toContain('Naposledy použit –');

      // The name stays taken.
      const again = await post(c, admin, '/urad/sprava/tokeny', {
        name: 'backoffice',
        'scope_requests:read': '1',
      });
      expectConsolePage(again, 400);
      expect(textOf(again.body)).toContain('Tento název už má jiný token');
      expect(again.body).not.toMatch(TOKEN);
    });

    it('revoke: CSRF checked; the token then gets 401; audited; an unknown name 404', async () => {
      const res = await post(c, admin, '/urad/sprava/tokeny', {
        name: 'short-lived',
        'scope_requests:read': '1',
      });
      const token = TOKEN.exec(res.body)?.[0] as string;
      expect((await intake(token)).statusCode).toBe(200);

      const before = await lastAuditId(c);
      expect((await post(c, admin, '/urad/sprava/tokeny/short-lived/zrusit', { csrf: 'x' })).statusCode).toBe(
        400,
      );
      expect((await intake(token)).statusCode).toBe(200);

      const revoked = await post(c, admin, '/urad/sprava/tokeny/short-lived/zrusit');
      expect(revoked.statusCode).toBe(303);
      expect(revoked.headers.location).toBe('/urad/sprava?hotovo=revoked');
      expect((await intake(token)).statusCode).toBe(401);
      const done = await get(c, admin, '/urad/sprava?hotovo=revoked');
      expectConsolePage(done, 200);
      expect(textOf(done.body)).toContain('Token je zrušen');
      expect(done.body).not.toContain('/urad/sprava/tokeny/short-lived/zrusit');
      expect(done.body).toContain('/urad/sprava/tokeny/backoffice/zrusit');

      const twice = await post(c, admin, '/urad/sprava/tokeny/short-lived/zrusit');
      expect(twice.headers.location).toBe('/urad/sprava?hotovo=already');
      expectConsolePage(await post(c, admin, '/urad/sprava/tokeny/nobody/zrusit'), 404);

      expect((await auditSince(c, before)).filter((r) => /^console\.(csrf|token_)/.test(r.action))).toEqual([
        expect.objectContaining({ action: 'console.csrf', outcome: 'denied' }),
        expect.objectContaining({
          actor: 'staff:test-admin',
          action: 'console.token_revoke',
          target: 'token:short-lived',
          outcome: 'ok',
        }),
        expect.objectContaining({ action: 'console.token_revoke', target: null, outcome: 'not_found' }),
      ]);
    });

    it('retention: the count of the next purge (as purge --dry-run makes it), the settings, the last purge', async () => {
      const count = async () => {
        const page = await get(c, admin, '/urad/sprava');
        expectConsolePage(page, 200);
        const m = /Příští mazání by nyní vymazalo žádostí (\d+)/.exec(textOf(page.body));
        return { n: Number(m?.[1]), page };
      };
      const before = (await count()).n;
      expect(before).toBe((await purge(c.t.db, c.t.config, { dryRun: true })).erased.length);

      const now = Date.now();
      const overdue = await storedRequest(
        c.t.db,
        {},
        { now: new Date(now - (c.t.config.retentionUnreceivedDays + 1) * DAY) },
      );
      await storedRequest(c.t.db, {}, { now: new Date(now - 10 * DAY) });
      const { n, page } = await count();
      expect(n).toBe(before + 1);
      const dry = await purge(c.t.db, c.t.config, { dryRun: true });
      expect(dry.erased.map((d) => d.reference)).toContain(overdue.reference);
      expect(n).toBe(dry.erased.length);
      const text = textOf(page.body);
      expect(text).toContain(`${c.t.config.retentionReceivedDays} dní (ROS_RETENTION_RECEIVED_DAYS)`);
      expect(text).toContain(`${c.t.config.retentionUnreceivedDays} dní (ROS_RETENTION_UNRECEIVED_DAYS)`);
      // Dry runs are not runs.
      expect(text).toContain('Mazání zatím neproběhlo');

      await purge(c.t.db, c.t.config, { actor: 'system' });
      const after = await count();
      expect(after.n).toBe(0);
      expect(textOf(after.page.body)).toMatch(
        /Poslední mazání \d\d\.\d\d\.\d{4} \d\d:\d\d, system \(requests=\d+ /,
      );
    });

    it('the page passes the console page checks (headers, markup, axe), with tokens and without', async () => {
      const page = await get(c, admin, '/urad/sprava');
      expectConsolePage(page, 200);
      expect(page.body).toContain('aria-current="page"');
      expect(await markupProblems(page.body)).toEqual([]);
      expect(await axeViolations(page.body)).toEqual([]);
      const before = await lastAuditId(c);
      await get(c, admin, '/urad/sprava');
      expect(await auditSince(c, before)).toEqual([
        expect.objectContaining({ actor: 'staff:test-admin', action: 'console.admin', outcome: 'ok' }),
      ]);
    });
  });
}
