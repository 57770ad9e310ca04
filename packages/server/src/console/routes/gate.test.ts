import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashId } from '../../nia/sessions.js';
import { newApplicant } from '../../test/applicant.js';
import { testDbKinds } from '../../test/databases.js';
import { storedRequest } from '../../test/requests.js';
import { browse, Jar, signInSteps } from '../auth/testing.js';
import { CONSOLE_FORM_LIMIT } from './index.js';
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
} from './testing.js';

/**
 * Who gets what of the console (/urad), through app.inject on SQLite and PostgreSQL: no session
 * (pages go to the sign-in, forms 403), a subject without a role (no session at all), a reader
 * (looks; every action 403 and audited `denied`), the CSRF checks of a clerk's form (token,
 * Origin, Sec-Fetch-Site), the form's size limit, a malformed cursor, the administrator's audit
 * page, and what every page carries (headers, no script, well-formed markup, axe in jsdom).
 */

/** The addresses of the page's POST forms. */
const postForms = (html: string) =>
  [...html.matchAll(/<form\b[^>]*>/g)]
    .map((m) => m[0])
    .filter((f) => /method="post"/.test(f))
    .map((f) => /action="([^"]+)"/.exec(f)?.[1]);

const ACTIONS = ['prevzit', 'stav', 'vydat', 'oprava', 'oznameni/1/znovu'] as const;

for (const kind of await testDbKinds()) {
  describe(`the console's gate (${kind})`, { timeout: 120_000 }, () => {
    let c: ConsoleTestApp;
    let reader: Session;
    let clerk: Session;
    let admin: Session;
    let reference: string;

    const statusOf = async (ref: string) =>
      (
        await c.t.db.kysely
          .selectFrom('requests')
          .select('status')
          .where('reference', '=', ref)
          .executeTakeFirstOrThrow()
      ).status;
    const historyCount = async (ref: string) =>
      (
        await c.t.db.kysely
          .selectFrom('request_status_history')
          .innerJoin('requests', 'requests.id', 'request_status_history.request_id')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('requests.reference', '=', ref)
          .executeTakeFirstOrThrow()
      ).n;

    beforeAll(async () => {
      c = await consoleTestApp(kind);
      reference = (await storedRequest(c.t.db, newApplicant({ last_name: 'Bránová' }))).reference;
      reader = await session(c, 'test-reader');
      clerk = await session(c, 'test-clerk');
      admin = await session(c, 'test-admin');
    });
    afterAll(async () => {
      await c?.close();
    });

    it('without a session: every page goes to the sign-in (303), every form is refused (403), nothing changes', async () => {
      const pages = [
        '/urad',
        '/urad?stav=received',
        '/urad?name=bran',
        `/urad/zadost/${reference}`,
        `/urad/zadost/${reference}/pdf`,
        '/urad/audit',
      ];
      for (const url of pages) {
        const res = await get(c, null, url);
        expect(res.statusCode, url).toBe(303);
        expect(res.headers.location, url).toBe('/urad/prihlaseni');
        expect(res.headers['cache-control'], url).toBe('no-store');
      }
      // A cookie that is no session is none.
      const forged = await get(c, { subject: 'x', cookie: 'ros_console=forged-value', csrf: 'x' }, '/urad');
      expect(forged.statusCode).toBe(303);
      const before = await lastAuditId(c);
      for (const action of ACTIONS) {
        const res = await post(c, null, `/urad/zadost/${reference}/${action}`, {
          csrf: 'x',
          status: 'in_progress',
          potvrdit: '1',
        });
        expectConsolePage(res, 403);
        expect(res.body).toContain('K této stránce nemáte oprávnění');
      }
      expect(await statusOf(reference)).toBe('new');
      expect(await historyCount(reference)).toBe(0);
      // Nobody to audit: no row names a staff member.
      expect(await auditSince(c, before)).toEqual([]);
      // The sign-in page itself is open, and a signed-in clerk is sent on to the queue.
      expectConsolePage(await get(c, null, '/urad/prihlaseni'), 200);
      const again = await get(c, clerk, '/urad/prihlaseni');
      expect(again.statusCode).toBe(303);
      expect(again.headers.location).toBe('/urad');
    });

    it('a subject without a role gets no session: the console stays closed to it', async () => {
      const jar = new Jar();
      const { answer } = await signInSteps(c.app, { subject: 'test-norole', jar });
      expect(answer.statusCode).toBe(303);
      expect(answer.headers.location).toBe('/urad/prihlaseni?chyba=no_role');
      expect(jar.get('ros_console')).toBeUndefined();
      const queue = await browse(c.app, jar, '/urad');
      expect(queue.statusCode).toBe(303);
      expect(queue.headers.location).toBe('/urad/prihlaseni');
      const refused = await browse(c.app, jar, '/urad/prihlaseni?chyba=no_role');
      expectConsolePage(refused, 200);
      expect(refused.body).toContain('Váš účet nemá v konzoli žádnou roli');
      const form = await browse(c.app, jar, `/urad/zadost/${reference}/prevzit`, {
        method: 'POST',
        form: { csrf: 'x' },
      });
      expect(form.statusCode).toBe(403);
      expect(await statusOf(reference)).toBe('new');
      // A sign-in under way is no session, even sent as one.
      const started = new Jar();
      await browse(c.app, started, '/urad/prihlaseni/zahajit');
      const pending = started.get('ros_console_signin');
      expect(pending).toMatch(/^[A-Za-z0-9_-]{43}$/);
      const asSession = await get(c, { subject: 'x', cookie: `ros_console=${pending}`, csrf: 'x' }, '/urad');
      expect(asSession.statusCode).toBe(303);
      // Nor is a session row whose role is none of the console's.
      const odd = await session(c, 'test-reader');
      for (const role of ['', 'pending', 'superuser', 'Admin']) {
        await c.t.db.kysely
          .updateTable('console_sessions')
          .set({ role })
          .where('id', '=', hashId(odd.cookie.split('=')[1] as string))
          .execute();
        expect((await get(c, odd, '/urad')).statusCode, role).toBe(303);
      }
    });

    it('a reader sees the queue and the request; every action is 403, audited denied, and changes nothing', async () => {
      const queue = await get(c, reader, '/urad');
      expectConsolePage(queue, 200);
      expect(queue.body).toContain(`href="/urad/zadost/${reference}"`);
      expect(queue.body).toContain('Žofie Bránová');
      const page = await get(c, reader, `/urad/zadost/${reference}`);
      expectConsolePage(page, 200);
      expect(page.body).toContain('Máte roli čtenáře');
      // The page offers a reader no form but the sign-out.
      expect(postForms(page.body)).toEqual(['/urad/odhlaseni']);
      const before = await lastAuditId(c);
      for (const action of ACTIONS) {
        const res = await post(c, reader, `/urad/zadost/${reference}/${action}`, {
          status: 'in_progress',
          note: 'Zkouška',
          potvrdit: '1',
        });
        expectConsolePage(res, 403);
      }
      expect(await statusOf(reference)).toBe('new');
      expect(await historyCount(reference)).toBe(0);
      expect(await auditSince(c, before)).toEqual(
        ACTIONS.map(() =>
          expect.objectContaining({
            actor: 'staff:test-reader',
            action: 'console.act',
            outcome: 'denied',
            target: null,
            detail: null,
          }),
        ),
      );
      // Nor the audit trail.
      const audit = await get(c, reader, '/urad/audit');
      expectConsolePage(audit, 403);
      // A reader reads the PDF (inline, framed by the console's own page only), audited.
      const from = await lastAuditId(c);
      const pdf = await get(c, reader, `/urad/zadost/${reference}/pdf`);
      expect(pdf.statusCode).toBe(200);
      expect(pdf.headers['content-type']).toBe('application/pdf');
      expect(pdf.headers['content-disposition']).toBe(`inline; filename="${reference}.pdf"`);
      expect(pdf.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'self'");
      expect(pdf.headers['x-frame-options']).toBe('SAMEORIGIN');
      expect(pdf.headers['cache-control']).toBe('no-store');
      expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
      expect(await auditSince(c, from)).toEqual([
        expect.objectContaining({
          actor: 'staff:test-reader',
          action: 'console.pdf',
          target: reference,
          outcome: 'ok',
        }),
      ]);
    });

    it("a clerk's form without the session's token, with another's, or from another site: 400, audited, nothing changed", async () => {
      const url = `/urad/zadost/${reference}/prevzit`;
      const before = await lastAuditId(c);
      const refused = [
        await post(c, clerk, url, { csrf: '' }),
        await post(c, null, url, {}, { cookie: clerk.cookie }),
        // One character other (the last one changed), and one longer.
        await post(c, clerk, url, {
          csrf: `${clerk.csrf.slice(0, -1)}${clerk.csrf.endsWith('A') ? 'B' : 'A'}`,
        }),
        await post(c, clerk, url, { csrf: `${clerk.csrf}A` }),
        await post(c, clerk, url, { csrf: reader.csrf }),
        await post(c, clerk, url, {}, { origin: 'https://evil.example' }),
        await post(c, clerk, url, {}, { origin: 'null' }),
        await post(c, clerk, url, {}, { origin: 'http://localhost:8081' }),
        await post(c, clerk, url, {}, { 'sec-fetch-site': 'cross-site' }),
        await post(c, clerk, url, {}, { 'sec-fetch-site': 'same-site' }),
      ];
      for (const res of refused) {
        expectConsolePage(res, 400);
        expect(res.body).toContain('Požadavek nelze zpracovat');
      }
      expect(await statusOf(reference)).toBe('new');
      const rows = await auditSince(c, before);
      expect(rows).toHaveLength(refused.length);
      expect(rows.every((r) => r.actor === 'staff:test-clerk' && r.action === 'console.csrf')).toBe(true);
      expect(rows.every((r) => r.outcome === 'denied' && r.detail === null)).toBe(true);
      // A browser before Fetch Metadata sends no Sec-Fetch-Site (and may send no Origin): the token decides.
      const old = await post(c, clerk, url, {}, { 'sec-fetch-site': undefined, origin: undefined });
      expect(old.statusCode).toBe(303);
      expect(await statusOf(reference)).toBe('received');
    });

    it('an unknown console address is the console’s 404 page, with the header only when signed in', async () => {
      const signedIn = await get(c, clerk, '/urad/neni-tu');
      expectConsolePage(signedIn, 404);
      expect(signedIn.body).toContain('Přihlášen(a):');
      const stranger = await get(c, null, '/urad/neni-tu');
      expectConsolePage(stranger, 404);
      expect(stranger.body).not.toContain('Přihlášen(a):');
    });

    it('a form over 8 KiB is refused with 413 (not a 500) and stores nothing', async () => {
      const other = (await storedRequest(c.t.db, newApplicant({ last_name: 'Velká' }))).reference;
      await post(c, clerk, `/urad/zadost/${other}/prevzit`);
      const note = 'a'.repeat(CONSOLE_FORM_LIMIT);
      const res = await post(c, clerk, `/urad/zadost/${other}/stav`, {
        status: 'documents_needed',
        note,
        potvrdit: '1',
      });
      // The console's own page (a browser shows it), not the API's JSON error.
      expectConsolePage(res, 413);
      expect(res.body).toContain('Požadavek nelze zpracovat');
      // The clerk is still signed in: the page keeps the console's header.
      expect(res.body).toContain('Přihlášen(a):');
      expect(await statusOf(other)).toBe('received');
      expect(await historyCount(other)).toBe(1);
      // Just under the limit it is read (and the note's own rule refuses it: over 500 characters).
      const under = await post(c, clerk, `/urad/zadost/${other}/stav`, {
        status: 'documents_needed',
        note: 'a'.repeat(CONSOLE_FORM_LIMIT - 200),
      });
      expectConsolePage(under, 400);
      expect(await historyCount(other)).toBe(1);
      // Nor another encoding (a cross-site form may send text/plain or multipart).
      for (const type of ['text/plain', 'multipart/form-data; boundary=x', 'application/json']) {
        const res = await post(c, clerk, `/urad/zadost/${other}/stav`, {}, { 'content-type': type });
        expect(res.statusCode, type).toBeGreaterThanOrEqual(400);
        expect(res.statusCode, type).toBeLessThan(500);
        expectConsolePage(res);
      }
      expect(await historyCount(other)).toBe(1);
    });

    it('a malformed cursor or an unknown request is the request’s fault: 400 and 404 pages', async () => {
      for (const url of [
        '/urad?po=nonsense',
        '/urad?stav=received&po=WyJ4Il0',
        `/urad?po=${'A'.repeat(190)}`,
        '/urad?name=bran&po=%00%01',
      ]) {
        const res = await get(c, clerk, url);
        expectConsolePage(res, 400);
        expect(res.body, url).toContain('Požadavek nelze zpracovat');
      }
      // The console's address with a slash: the queue.
      const slash = await get(c, clerk, '/urad/?stav=received');
      expect(slash.statusCode).toBe(301);
      expect(slash.headers.location).toBe('/urad?stav=received');
      for (const url of ['/urad/zadost/ROS-2099-999999', "/urad/zadost/ROS-2026-1' or 1=1", '/urad/nic']) {
        const res = await get(c, clerk, url);
        expectConsolePage(res, 404);
      }
      const pdf = await get(c, clerk, '/urad/zadost/ROS-2099-999999/pdf');
      expectConsolePage(pdf, 404);
    });

    it('the audit page: 403 for a clerk (audited), the rows for an administrator, filtered by who', async () => {
      const before = await lastAuditId(c);
      expectConsolePage(await get(c, clerk, '/urad/audit'), 403);
      expect(await auditSince(c, before)).toEqual([
        expect.objectContaining({
          actor: 'staff:test-clerk',
          action: 'console.administer',
          outcome: 'denied',
        }),
      ]);
      const all = await get(c, admin, '/urad/audit');
      expectConsolePage(all, 200);
      expect(all.body).toContain('<td>staff:test-reader</td><td>console.act</td>');
      expect(all.body).toContain('<td>console.csrf</td>');
      expect(all.body).toContain('href="/urad/audit" aria-current="page"');
      const mine = await get(c, admin, '/urad/audit?actor=staff%3Atest-clerk');
      expectConsolePage(mine, 200);
      expect(mine.body).not.toContain('<td>staff:test-reader</td>');
      expect(mine.body).toContain('<td>staff:test-clerk</td>');
      const looked = await auditSince(c, before);
      expect(looked.filter((r) => r.action === 'console.audit')).toEqual([
        expect.objectContaining({
          actor: 'staff:test-admin',
          outcome: 'ok',
          detail: expect.stringMatching(/^rows=\d+$/),
        }),
        expect.objectContaining({ actor: 'staff:test-admin', outcome: 'ok' }),
      ]);
      // The navigation offers the audit to the administrator only.
      expect((await get(c, clerk, '/urad')).body).not.toContain('href="/urad/audit"');
      expect((await get(c, admin, '/urad')).body).toContain('href="/urad/audit"');
    });

    it('every page: the console CSP with nothing inline, no script, well-formed markup, axe clean', async () => {
      const ref = (await storedRequest(c.t.db, newApplicant({ last_name: 'Stránková' }))).reference;
      await post(c, clerk, `/urad/zadost/${ref}/prevzit`);
      const preview = await post(c, clerk, `/urad/zadost/${ref}/stav`, {
        status: 'documents_needed',
        note: 'Doložte prosím kopii pasu.',
      });
      const withErrors = await post(c, clerk, `/urad/zadost/${ref}/stav`, {
        status: 'documents_needed',
        note: 'x'.repeat(501),
      });
      const pages: Array<[string, Awaited<ReturnType<typeof get>>, number]> = [
        ['sign-in', await get(c, null, '/urad/prihlaseni'), 200],
        ['sign-in failed', await get(c, null, '/urad/prihlaseni?chyba=failed'), 200],
        ['signed out', await get(c, null, '/urad/prihlaseni?odhlaseno=1'), 200],
        ['queue', await get(c, clerk, '/urad'), 200],
        ['queue tab', await get(c, clerk, '/urad?stav=received'), 200],
        ['search', await get(c, clerk, '/urad?name=str'), 200],
        ['search errors', await get(c, clerk, '/urad?reference=ROS-1&birthDate=31.2.1990'), 400],
        ['request (clerk)', await get(c, clerk, `/urad/zadost/${ref}`), 200],
        ['request (reader)', await get(c, reader, `/urad/zadost/${ref}`), 200],
        ['request done', await get(c, clerk, `/urad/zadost/${ref}?hotovo=received`), 200],
        ['preview', preview, 200],
        ['form errors', withErrors, 400],
        ['audit', await get(c, admin, '/urad/audit'), 200],
        ['forbidden', await get(c, clerk, '/urad/audit'), 403],
        ['not found', await get(c, clerk, '/urad/zadost/ROS-2099-999999'), 404],
        ['bad request', await get(c, clerk, '/urad?po=x'), 400],
      ];
      for (const [name, res, status] of pages) {
        expectConsolePage(res, status);
        expect(await markupProblems(res.body), name).toEqual([]);
        expect(await axeViolations(res.body), name).toEqual([]);
      }
      // The checks see what they are for.
      expect(
        await markupProblems(
          '<!doctype html><html><p id="a" id="c"><div id="a"><a href="#b">x</a></p></html>',
        ),
      ).toEqual(
        expect.arrayContaining([
          expect.stringMatching(/^parse error duplicate-attribute/),
          '<div> inside <p>',
          expect.stringMatching(/^<\/p> closes no open element/),
          'id "a" used twice',
          'reference to a missing id "b"',
          'not exactly one h1',
        ]),
      );
    });
  });
}
