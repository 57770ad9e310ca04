import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { saveRecords } from '../../records/repository.js';
import { newApplicant } from '../../test/applicant.js';
import { testDbKinds } from '../../test/databases.js';
import { registerCertificate, storedRequest } from '../../test/requests.js';
import { T } from '../texts.js';
import {
  type AuditRow,
  auditSince,
  type ConsoleTestApp,
  consoleTestApp,
  expectConsolePage,
  get,
  lastAuditId,
  post,
  type Session,
  session,
  textOf,
} from './testing.js';

/**
 * A clerk's actions through the console's forms (app.inject, SQLite and PostgreSQL): receive;
 * a status change with a note (the preview stores nothing, `potvrdit=1` stores the history row
 * and the notification); issue with one of the person's own certificates (another person's valid
 * id is refused and nothing changes); a correction with its reason (a history row with
 * correction=1); the resend of a given-up notification. Each is audited with the clerk's
 * identity and no value of the request.
 */

for (const kind of await testDbKinds()) {
  describe(`a clerk's actions in the console (${kind})`, { timeout: 120_000 }, () => {
    let c: ConsoleTestApp;
    let clerk: Session;
    let reference: string;
    let requestId: string;
    /** The person's certificate in force, their expired one, and another person's (valid) one. */
    let current: string;
    const expired = '7302x2052';
    let stranger: string;
    let auditFrom = 0;
    const values = newApplicant({
      first_name: 'Radek',
      last_name: 'Registrovaný',
      birth_number: '850315/0005',
      email: 'radek.registrovany@example.cz',
      send_notifications_email: true,
    });
    /** Every personal value of the request, none of which may reach the audit trail. */
    const personal = [
      'Radek',
      'Registrovan',
      '850315',
      'radek.registrovany',
      values.telephone,
      values.home_street,
      values.document_number,
    ];

    const request = () =>
      c.t.db.kysely
        .selectFrom('requests')
        .select(['status', 'received_at'])
        .where('reference', '=', reference)
        .executeTakeFirstOrThrow();
    const history = () =>
      c.t.db.kysely
        .selectFrom('request_status_history')
        .select(['id', 'status', 'note', 'certificate', 'correction'])
        .where('request_id', '=', requestId)
        .orderBy('id')
        .execute()
        .then((rows) => rows.map((r) => ({ ...r, id: Number(r.id), correction: Number(r.correction) })));
    /** The request's notifications, once the mail queue (kicked by each change) is idle. */
    const notices = async () => {
      await c.app.services.mail.idle();
      const rows = await c.t.db.kysely
        .selectFrom('status_notices')
        .select(['id', 'history_id', 'channel', 'status', 'attempts'])
        .where('request_id', '=', requestId)
        .orderBy('id')
        .execute();
      return rows.map((r) => ({
        ...r,
        id: Number(r.id),
        history_id: Number(r.history_id),
        attempts: Number(r.attempts),
      }));
    };
    /** What this test's requests added to the audit trail since the last call. */
    const newAudit = async (): Promise<AuditRow[]> => {
      const rows = await auditSince(c, auditFrom);
      auditFrom = rows.at(-1)?.id ?? auditFrom;
      return rows;
    };
    const base = () => `/urad/zadost/${reference}`;

    beforeAll(async () => {
      c = await consoleTestApp(kind);
      current = await registerCertificate(
        c.t.db,
        7301,
        { jmeno: 'Radek', prijmeni: 'Registrovaný' },
        '2031-05-06',
      );
      await saveRecords(c.t.db, [
        {
          id: 7302,
          person_id: 7301,
          stav: 'Ano',
          platnost_do: '2020-01-31',
          a1a3_valid_until: null,
          a2_valid_until: null,
          first_name: 'Radek',
          last_name: 'Registrovaný',
        },
      ]);
      stranger = await registerCertificate(c.t.db, 7401, { jmeno: 'Jana', prijmeni: 'Cizí' }, '2032-01-01');
      const r = await storedRequest(c.t.db, values, { personKey: 'person:7301' });
      reference = r.reference;
      requestId = r.id;
      clerk = await session(c, 'test-clerk');
      auditFrom = await lastAuditId(c);
    });
    afterAll(async () => {
      await c?.close();
    });

    it('receives the request: 303 to the page with its message, a history row, audited; again: already', async () => {
      const page = await get(c, clerk, base());
      expectConsolePage(page, 200);
      expect(page.body).toContain(`action="${base()}/prevzit"`);
      const res = await post(c, clerk, `${base()}/prevzit`);
      expect(res.statusCode).toBe(303);
      expect(res.headers.location).toBe(`${base()}?hotovo=received`);
      const done = await get(c, clerk, String(res.headers.location));
      expectConsolePage(done, 200);
      expect(done.body).toContain('Žádost je označena jako přijatá.');
      expect(done.body).not.toContain(`action="${base()}/prevzit"`);
      expect(await request()).toEqual({ status: 'received', received_at: expect.any(String) });
      expect((await history()).map((h) => h.status)).toEqual(['received']);
      const again = await post(c, clerk, `${base()}/prevzit`);
      expect(again.headers.location).toBe(`${base()}?hotovo=already`);
      expect(await history()).toHaveLength(1);
      expect((await newAudit()).filter((a) => a.action !== 'console.view')).toEqual([
        expect.objectContaining({
          actor: 'staff:test-clerk',
          action: 'console.receive',
          target: reference,
          outcome: 'ok',
          detail: 'received',
        }),
        expect.objectContaining({ action: 'console.receive', outcome: 'ok', detail: 'already' }),
      ]);
    });

    it('changes the status with a note: the preview stores nothing; confirmed, the row and its notice', async () => {
      const note = 'Doložte prosím kopii cestovního pasu.';
      const rowsBefore = await history();
      const noticesBefore = await notices();
      const preview = await post(c, clerk, `${base()}/stav`, { status: 'documents_needed', note });
      expectConsolePage(preview, 200);
      expect(preview.body).toContain('Náhled: takto změnu uvidí žadatel');
      expect(preview.body).toContain(`<p>${note}</p>`);
      expect(preview.body).toContain('Žadatel dostane oznámení: 1.');
      expect(preview.body).toContain('name="potvrdit" value="1"');
      expect(preview.body).toContain(`name="note" value="${note}"`);
      expect(await history()).toEqual(rowsBefore);
      expect(await notices()).toEqual(noticesBefore);
      expect(await request()).toMatchObject({ status: 'received' });

      const saved = await post(c, clerk, `${base()}/stav`, {
        status: 'documents_needed',
        note,
        potvrdit: '1',
      });
      expect(saved.statusCode).toBe(303);
      expect(saved.headers.location).toBe(`${base()}?hotovo=status`);
      expect(await request()).toMatchObject({ status: 'documents_needed' });
      const row = (await history()).at(-1);
      expect(row).toMatchObject({ status: 'documents_needed', note, certificate: null, correction: 0 });
      // Queued, and sent at once: the change kicked the mail queue (as the intake API's does).
      const added = (await notices()).slice(noticesBefore.length);
      expect(added).toEqual([
        expect.objectContaining({ history_id: row?.id, channel: 'email', status: 'sent' }),
      ]);
      const page = await get(c, clerk, String(saved.headers.location));
      expect(textOf(page.body)).toContain(note);
      expect(page.body).toContain('Stav žádosti je změněn.');

      // A note over 500 characters, or a status the form does not offer: 400, the form again, nothing stored.
      for (const form of [
        { status: 'in_progress', note: 'x'.repeat(501) } as Record<string, string>,
        { status: 'issued', potvrdit: '1' },
        { status: 'received', potvrdit: '1' },
        { status: 'new', potvrdit: '1' },
        { status: 'nonsense', potvrdit: '1' },
      ]) {
        const res = await post(c, clerk, `${base()}/stav`, form);
        expectConsolePage(res, 400);
        expect(res.body).toContain('Opravte prosím:');
      }
      expect(await history()).toHaveLength(2);
      const audit = (await newAudit()).filter((a) => a.action === 'console.status');
      expect(audit.map((a) => [a.outcome, a.detail])).toEqual([
        ['ok', 'changed documents_needed'],
        ...Array(5).fill(['invalid', null]),
      ]);
    });

    it("issues only with the person's own certificate: another person's valid id is refused and nothing changes", async () => {
      await post(c, clerk, `${base()}/stav`, { status: 'in_progress', potvrdit: '1' });
      const page = await get(c, clerk, base());
      // The form offers the person's two certificates, the valid one first, and nobody else's.
      const offered = [...page.body.matchAll(/name="certificate" value="([^"]*)"/g)].map((m) => m[1]);
      expect(offered).toEqual([current, expired]);
      expect(page.body).not.toContain(stranger);
      const before = { request: await request(), history: await history(), notices: await notices() };
      await newAudit();
      for (const form of [
        { certificate: stranger } as Record<string, string>,
        { certificate: stranger, potvrdit: '1' },
        { certificate: '9999x9999', potvrdit: '1' },
        { certificate: `${current} `, potvrdit: '1' },
        { certificate: '', potvrdit: '1' },
        {},
      ]) {
        const res = await post(c, clerk, `${base()}/vydat`, form);
        expectConsolePage(res, 400);
        expect(textOf(res.body)).toContain(
          form.certificate ? 'Tento doklad nepatří osobě žádosti' : 'Vyberte doklad osoby z registru',
        );
      }
      expect({ request: await request(), history: await history(), notices: await notices() }).toEqual(
        before,
      );
      expect((await newAudit()).map((a) => [a.action, a.outcome, a.detail])).toEqual(
        Array(6).fill(['console.issue', 'invalid', null]),
      );

      // The expired one (a clerk's mistake, put right below): the preview with its check link, then stored.
      const preview = await post(c, clerk, `${base()}/vydat`, { certificate: expired });
      expectConsolePage(preview, 200);
      expect(preview.body).toContain(`http://localhost:8080/check?id=${expired}`);
      expect(await history()).toEqual(before.history);
      const issued = await post(c, clerk, `${base()}/vydat`, { certificate: expired, potvrdit: '1' });
      expect(issued.headers.location).toBe(`${base()}?hotovo=issued`);
      expect(await request()).toMatchObject({ status: 'issued' });
      expect((await history()).at(-1)).toMatchObject({
        status: 'issued',
        certificate: expired,
        correction: 0,
      });
      expect((await newAudit()).map((a) => [a.action, a.target, a.outcome, a.detail])).toEqual([
        ['console.issue', reference, 'ok', 'changed'],
      ]);
      // Decided: the page offers the correction, no more status change or issue.
      const decided = await get(c, clerk, base());
      expect(decided.body).toContain(`action="${base()}/oprava"`);
      expect(decided.body).not.toContain(`action="${base()}/stav"`);
      expect(decided.body).not.toContain(`action="${base()}/vydat"`);
      // Issued again (a form of an older page): nothing changes; the correction puts it right.
      const again = await post(c, clerk, `${base()}/vydat`, { certificate: current, potvrdit: '1' });
      expect(again.headers.location).toBe(`${base()}?hotovo=already`);
      expect((await history()).at(-1)).toMatchObject({ status: 'issued', certificate: expired });
    });

    it('corrects the certificate with a reason: a new history row with correction=1, after its preview', async () => {
      const reason = 'Byl vydán starý doklad; platí doklad nový.';
      const before = await history();
      await newAudit();
      const refused: Array<[Record<string, string>, string]> = [
        [
          { status: 'issued', certificate: stranger, reason, potvrdit: '1' },
          'Tento doklad nepatří osobě žádosti',
        ],
        [{ status: 'issued', certificate: current, reason: '', potvrdit: '1' }, 'Vyplňte důvod opravy'],
        [{ status: 'issued', certificate: current, reason: '   ', potvrdit: '1' }, 'Vyplňte důvod opravy'],
        [{ status: 'new', reason, potvrdit: '1' }, 'Vyberte nový stav'],
      ];
      for (const [form, message] of refused) {
        const res = await post(c, clerk, `${base()}/oprava`, form);
        expectConsolePage(res, 400);
        expect(textOf(res.body)).toContain(message);
      }
      // The same decision again is no correction: 409, and the form says why.
      const same = await post(c, clerk, `${base()}/oprava`, {
        status: 'issued',
        certificate: expired,
        reason,
        potvrdit: '1',
      });
      expectConsolePage(same, 409);
      expect(textOf(same.body)).toContain(T.errors.transition);
      expect(await history()).toEqual(before);

      const preview = await post(c, clerk, `${base()}/oprava`, {
        status: 'issued',
        certificate: current,
        reason,
      });
      expectConsolePage(preview, 200);
      expect(textOf(preview.body)).toContain('Oprava rozhodnutí:');
      expect(preview.body).toContain(`<p>${reason}</p>`);
      expect(preview.body).toContain(`name="reason" value="${reason}"`);
      expect(preview.body).toContain(`http://localhost:8080/check?id=${current}`);
      expect(await history()).toEqual(before);

      const saved = await post(c, clerk, `${base()}/oprava`, {
        status: 'issued',
        certificate: current,
        reason,
        potvrdit: '1',
      });
      expect(saved.headers.location).toBe(`${base()}?hotovo=corrected`);
      const rows = await history();
      expect(rows.slice(0, before.length)).toEqual(before);
      expect(rows.slice(before.length)).toEqual([
        { id: expect.any(Number), status: 'issued', note: reason, certificate: current, correction: 1 },
      ]);
      const page = await get(c, clerk, base());
      expect(textOf(page.body)).toContain(`Oprava rozhodnutí: `);
      expect(textOf(page.body)).toContain(reason);
      // Sent twice (a double click): once.
      const twice = await post(c, clerk, `${base()}/oprava`, {
        status: 'issued',
        certificate: current,
        reason,
        potvrdit: '1',
      });
      expect(twice.headers.location).toBe(`${base()}?hotovo=already`);
      expect(await history()).toHaveLength(rows.length);
      expect(
        (await newAudit()).filter((a) => a.action === 'console.correct').map((a) => [a.outcome, a.detail]),
      ).toEqual([
        ...Array(4).fill(['invalid', null]),
        ['invalid', 'unchanged issued'],
        ['ok', 'corrected issued'],
        ['ok', 'already issued'],
      ]);
    });

    it('resends a given-up notification: back in the queue (attempts from 0) and sent at once', async () => {
      await c.app.services.mail.idle();
      const [first] = await notices();
      if (!first) throw new Error('no notice');
      await c.t.db.kysely
        .updateTable('status_notices')
        .set({ status: 'failed', attempts: 5 })
        .where('id', '=', first.id)
        .execute();
      const page = await get(c, clerk, base());
      const action = `${base()}/oznameni/${first.id}/znovu`;
      expect(page.body).toContain(`action="${action}"`);
      expect(textOf(page.body)).toContain('nepodařilo se odeslat');
      await newAudit();
      const res = await post(c, clerk, action);
      expect(res.statusCode).toBe(303);
      expect(res.headers.location).toBe(`${base()}?hotovo=resent`);
      // Back in the queue (attempts from 0), which the resend kicked: sent at once (to the outbox).
      expect((await notices()).find((n) => n.id === first.id)).toMatchObject({ status: 'sent', attempts: 1 });
      expect(textOf((await get(c, clerk, base())).body)).toContain('odesláno');
      // A second click changes nothing.
      expect((await post(c, clerk, action)).headers.location).toBe(`${base()}?hotovo=already`);
      // Another request's notification, or none, through this request: 404.
      const other = await storedRequest(c.t.db, newApplicant({ last_name: 'Jiná' }));
      await post(c, clerk, `/urad/zadost/${other.reference}/prevzit`);
      await c.app.services.mail.idle();
      const [theirs] = await c.t.db.kysely
        .selectFrom('status_notices')
        .select('id')
        .where('request_id', '=', other.id)
        .execute();
      await c.t.db.kysely
        .updateTable('status_notices')
        .set({ status: 'failed' })
        .where('request_id', '=', other.id)
        .execute();
      for (const id of [String(theirs?.id), '999999', 'abc', '0', '-1', '1e3'])
        expectConsolePage(await post(c, clerk, `${base()}/oznameni/${id}/znovu`), 404);
      expect(
        (
          await c.t.db.kysely
            .selectFrom('status_notices')
            .select('status')
            .where('request_id', '=', other.id)
            .execute()
        ).map((r) => r.status),
      ).toEqual(['failed']);
      expect(
        (await newAudit()).filter((a) => a.action === 'console.resend').map((a) => [a.target, a.outcome]),
      ).toEqual([[reference, 'ok'], [reference, 'ok'], ...Array(6).fill([reference, 'not_found'])]);
    });

    it('every action and look is in the audit trail as staff:test-clerk, with no value of the request', async () => {
      const rows = (await auditSince(c, 0)).filter((r) => r.actor === 'staff:test-clerk');
      const actions = new Set(rows.map((r) => r.action));
      for (const a of [
        'console.view',
        'console.receive',
        'console.status',
        'console.issue',
        'console.correct',
        'console.resend',
      ])
        expect(actions, a).toContain(a);
      const trail = JSON.stringify(await auditSince(c, 0));
      for (const value of [...personal, 'Doložte', 'starý doklad', 'Jiná'])
        expect(trail, value).not.toContain(value as string);
      // Only the reference as the target (or none).
      for (const r of rows)
        expect(r.target === null || /^ROS-\d{4}-\d{6}$/.test(r.target), JSON.stringify(r)).toBe(true);
    });
  });
}
