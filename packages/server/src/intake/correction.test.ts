import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { run as requests } from '../cli/requests.js';
import type { AppContext } from '../context.js';
import { saveRecords } from '../records/repository.js';
import { purge } from '../retention/index.js';
import { createTestDb, type TestDb, testDbKinds } from '../test/databases.js';
import { registerCertificate, storedRequest } from '../test/requests.js';
import { CERTIFICATE_MISMATCH_MESSAGE } from './certificate.js';
import { checkCorrection, correctDecision } from './correction.js';
import { changeStatus } from './status.js';
import { createToken } from './tokens.js';

/**
 * Issue 38: a wrong decision can be put right. Only a decided request (issued, refused,
 * withdrawn) is corrected, to any status but new, or to issued with another certificate of the
 * request's person; the reason is required and follows a status note's rules; the correction is
 * a history row marked as such, written with the request's new status and its notifications;
 * the status page shows it. The same through `ros-admin requests correct`.
 */
for (const kind of await testDbKinds()) {
  describe(`correcting a decision (${kind})`, { timeout: 60_000 }, () => {
    let t: TestDb;
    let ctx: AppContext;
    let app: FastifyInstance;
    let token: string;
    let readToken: string;
    beforeAll(async () => {
      t = await createTestDb(kind, { ROS_RATE_LIMIT_STATUS: '1000' });
      ctx = { config: t.config, db: t.db, version: 'test' };
      app = await buildApp(ctx);
      await app.ready();
      token = (await createToken(t.db, 'clerk', ['requests:status', 'requests:read'], 'test')) as string;
      readToken = (await createToken(t.db, 'reader', ['requests:read'], 'test')) as string;
    });
    afterAll(async () => {
      await app?.close();
      await t?.cleanup();
    });

    const correct = (reference: string, body: unknown, bearer = token) =>
      app.inject({
        method: 'POST',
        url: `/api/intake/v1/requests/${reference}/correction`,
        headers: { authorization: `Bearer ${bearer}` },
        payload: body as object,
      });
    const setStatus = async (reference: string, ...statuses: string[]) => {
      for (const status of statuses)
        expect((await changeStatus(t.db, reference, { status } as never)).outcome, status).toBe('changed');
    };
    const stateOf = async (reference: string) => {
      const row = await t.db.kysely
        .selectFrom('requests')
        .select(['id', 'status', 'received_at'])
        .where('reference', '=', reference)
        .executeTakeFirstOrThrow();
      const history = await t.db.kysely
        .selectFrom('request_status_history')
        .select(['id', 'status', 'note', 'certificate', 'correction'])
        .where('request_id', '=', row.id)
        .orderBy('id')
        .execute();
      const notices = await t.db.kysely
        .selectFrom('status_notices')
        .select(['history_id', 'channel'])
        .where('request_id', '=', row.id)
        .orderBy('id')
        .execute();
      return { status: row.status, receivedAt: row.received_at, history, notices };
    };
    const look = async (id: string, reference: string) =>
      (
        await app.inject({
          method: 'POST',
          url: '/api/ros/status',
          payload: { reference, code: await app.services.accessCodes.codeFor(id) },
        })
      ).json();
    /** A second certificate of register person `personId` (record `id`): its validity-check id. */
    const secondCertificate = async (personId: number, id: number) => {
      await saveRecords(t.db, [
        {
          id,
          person_id: personId,
          stav: 'Ano',
          platnost_do: '2031-01-02',
          a1a3_valid_until: null,
          a2_valid_until: null,
          first_name: 'Radek',
          last_name: 'Registrovaný',
        },
      ]);
      return `${id}x${2031 + 1 + 2}`;
    };

    it('puts a wrong certificate right: issued again with the right one, a correction row with the reason', async () => {
      const wrong = await registerCertificate(t.db, 7101);
      const right = await secondCertificate(7101, 7199);
      const r = await storedRequest(t.db, { send_notifications_email: true }, { personKey: 'person:7101' });
      await setStatus(r.reference, 'received', 'in_progress');
      expect((await changeStatus(t.db, r.reference, { status: 'issued', certificate: wrong })).outcome).toBe(
        'changed',
      );
      // Before issue 38 the only way was the status call: "issued already; nothing changed".
      expect((await changeStatus(t.db, r.reference, { status: 'issued', certificate: right })).outcome).toBe(
        'already',
      );
      const before = await stateOf(r.reference);
      const res = await correct(r.reference, {
        status: 'issued',
        certificate: right,
        reason: '  Omlouváme se, uvedli jsme jiný doklad.  ',
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({
        reference: r.reference,
        status: 'issued',
        changed: true,
        notifications: 1,
      });
      const after = await stateOf(r.reference);
      expect(after.status).toBe('issued');
      expect(after.history).toHaveLength(before.history.length + 1);
      const row = after.history.at(-1);
      expect(row).toMatchObject({
        status: 'issued',
        certificate: right,
        note: 'Omlouváme se, uvedli jsme jiný doklad.',
        correction: 1,
      });
      // The earlier rows stay as they were.
      expect(after.history.slice(0, -1)).toEqual(before.history);
      // Its notification, queued in the same transaction, for the correction's row.
      expect(after.notices.at(-1)).toEqual({ history_id: row?.id, channel: 'email' });
      // The applicant's page links the right certificate and shows the correction with its reason.
      const page = await look(r.id, r.reference);
      expect(page.certificate).toBe(right);
      expect(page.events.at(-1)).toEqual({
        status: 'issued',
        at: expect.any(String),
        note: 'Omlouváme se, uvedli jsme jiný doklad.',
        correction: true,
      });
      expect(page.events.slice(0, -1).every((e: { correction: boolean }) => e.correction === false)).toBe(
        true,
      );
      // The intake detail's history says so too.
      const detail = await app.inject({
        method: 'GET',
        url: `/api/intake/v1/requests/${r.reference}`,
        headers: { authorization: `Bearer ${token}` },
      });
      expect(detail.json().history.at(-1)).toMatchObject({ certificate: right, correction: true });
      // The same correction again (a retry) changes nothing.
      const again = await correct(r.reference, {
        status: 'issued',
        certificate: right,
        reason: 'Omlouváme se, uvedli jsme jiný doklad.',
      });
      expect(again.statusCode).toBe(200);
      expect(again.json()).toMatchObject({ changed: false, notifications: 0 });
      expect((await stateOf(r.reference)).history).toHaveLength(after.history.length);
      // The same certificate with another reason is no correction.
      const same = await correct(r.reference, {
        status: 'issued',
        certificate: right,
        reason: 'Jiný důvod.',
      });
      expect(same.statusCode).toBe(409);
      expect(same.json().error.code).toBe('STATUS_TRANSITION');
      // Issued without a certificate takes the wrong link back.
      expect((await correct(r.reference, { status: 'issued', reason: 'Doklad upřesníme.' })).statusCode).toBe(
        200,
      );
      expect((await look(r.id, r.reference)).certificate).toBeNull();
    });

    it('refuses a certificate that is not the person’s (400 CERTIFICATE_MISMATCH), nothing stored', async () => {
      const own = await registerCertificate(t.db, 7201);
      const other = await registerCertificate(t.db, 7202, { jmeno: 'Jiný', prijmeni: 'Člověk' });
      const r = await storedRequest(t.db, {}, { personKey: 'person:7201' });
      await setStatus(r.reference, 'received');
      expect((await changeStatus(t.db, r.reference, { status: 'issued', certificate: own })).outcome).toBe(
        'changed',
      );
      const before = await stateOf(r.reference);
      for (const certificate of [other, '1x1']) {
        const res = await correct(r.reference, { status: 'issued', certificate, reason: 'Oprava dokladu.' });
        expect(res.statusCode, certificate).toBe(400);
        expect(res.json().error).toMatchObject({
          code: 'CERTIFICATE_MISMATCH',
          fields: [{ path: 'certificate', message: expect.any(String) }],
        });
      }
      expect(await stateOf(r.reference)).toEqual(before);
    });

    it('corrects any decision to any status but new; the request then moves on, and a correction is corrected again', async () => {
      const r = await storedRequest(t.db);
      await setStatus(r.reference, 'received', 'refused');
      // Refused by mistake: back to processing, with the reason.
      const back = await correct(r.reference, { status: 'in_progress', reason: 'Rozhodnutí bylo chybné.' });
      expect(back.statusCode, back.body).toBe(200);
      expect(back.json()).toMatchObject({ status: 'in_progress', changed: true });
      // Not decided now: a correction is refused, an ordinary change goes on.
      const notDecided = await correct(r.reference, { status: 'refused', reason: 'x' });
      expect(notDecided.statusCode).toBe(409);
      expect(notDecided.json().error.code).toBe('NOT_DECIDED');
      await setStatus(r.reference, 'documents_needed', 'in_progress', 'withdrawn');
      // A correction of a correction: the same rules.
      expect(
        (await correct(r.reference, { status: 'refused', reason: 'Žádost nebyla vzata zpět.' })).statusCode,
      ).toBe(200);
      expect(
        (await correct(r.reference, { status: 'received', reason: 'Znovu posoudíme.' })).statusCode,
      ).toBe(200);
      const state = await stateOf(r.reference);
      expect(state.status).toBe('received');
      expect(state.history.map((h) => [h.status, h.correction])).toEqual([
        ['received', 0],
        ['refused', 0],
        ['in_progress', 1],
        ['documents_needed', 0],
        ['in_progress', 0],
        ['withdrawn', 0],
        ['refused', 1],
        ['received', 1],
      ]);
      // The page's current outcome is the last row's.
      const page = await look(r.id, r.reference);
      expect(page.status).toBe('received');
      expect(page.events.at(-1)).toMatchObject({
        status: 'received',
        correction: true,
        note: 'Znovu posoudíme.',
      });
    });

    it('refuses a request that is not decided (409 NOT_DECIDED) and the same decision again (409 STATUS_TRANSITION)', async () => {
      for (const statuses of [
        [],
        ['received'],
        ['received', 'in_progress'],
        ['received', 'documents_needed'],
      ]) {
        const r = await storedRequest(t.db);
        await setStatus(r.reference, ...statuses);
        const before = await stateOf(r.reference);
        const res = await correct(r.reference, { status: 'issued', reason: 'Oprava.' });
        expect(res.statusCode, statuses.join()).toBe(409);
        expect(res.json().error.code).toBe('NOT_DECIDED');
        expect(await stateOf(r.reference)).toEqual(before);
      }
      for (const decided of ['refused', 'withdrawn', 'issued']) {
        const r = await storedRequest(t.db);
        await setStatus(r.reference, 'received', decided);
        const res = await correct(r.reference, { status: decided, reason: 'Oprava.' });
        expect(res.statusCode, decided).toBe(409);
        expect(res.json().error.code).toBe('STATUS_TRANSITION');
      }
      // A withdrawal of a request never received, corrected: the authority has it now.
      const r = await storedRequest(t.db);
      await setStatus(r.reference, 'withdrawn');
      expect((await stateOf(r.reference)).receivedAt).toBeNull();
      expect((await correct(r.reference, { status: 'received', reason: 'Nevzato zpět.' })).statusCode).toBe(
        200,
      );
      expect((await stateOf(r.reference)).receivedAt).toEqual(expect.any(String));
    });

    it("checks the body: the reason is required and follows a status note's rules", async () => {
      const r = await storedRequest(t.db);
      await setStatus(r.reference, 'received', 'refused');
      const before = await stateOf(r.reference);
      for (const [body, path] of [
        [{ status: 'issued' }, 'reason'],
        [{ status: 'issued', reason: '' }, 'reason'],
        [{ status: 'issued', reason: ' \n ' }, 'reason'],
        [{ status: 'issued', reason: null }, 'reason'],
        [{ status: 'issued', reason: 5 }, 'reason'],
        [{ status: 'issued', reason: 'x'.repeat(501) }, 'reason'],
        [{ status: 'issued', reason: 'Chyba\u200F.' }, 'reason'],
        [{ status: 'issued', reason: 'a\u202eb' }, 'reason'],
        [{ status: 'issued', reason: `${'řádek\n'.repeat(21)}konec` }, 'reason'],
        [{ status: 'new', reason: 'Oprava.' }, 'status'],
        [{ status: 'done', reason: 'Oprava.' }, 'status'],
        [{ status: 'refused', reason: 'Oprava.', certificate: '5001x2065' }, 'certificate'],
        [{ status: 'issued', reason: 'Oprava.', certificate: 'nope' }, 'certificate'],
        [{ status: 'issued', reason: 'Oprava.', note: 'x' }, 'note'],
      ] as const) {
        const res = await correct(r.reference, body);
        expect(res.statusCode, JSON.stringify(body)).toBe(400);
        expect(res.json().error.code).toBe('INVALID_REQUEST');
        expect(res.json().error.fields.map((f: { path: string }) => f.path)).toContain(path);
      }
      // 500 characters and line breaks are allowed.
      expect(
        (await correct(r.reference, { status: 'issued', reason: `${'x'.repeat(497)}\nok` })).statusCode,
      ).toBe(200);
      expect((await stateOf(r.reference)).history).toHaveLength(before.history.length + 1);
      // Over 2 KiB: refused before it is read.
      const big = await correct(r.reference, { status: 'refused', reason: 'x'.repeat(2100) });
      expect(big.statusCode).toBe(413);
      // The function checks what it is given too (the console's forms call it directly).
      expect(await correctDecision(t.db, r.reference, { status: 'refused', reason: '  ' })).toMatchObject({
        outcome: 'invalid',
        problems: [{ path: 'reason', message: 'is required' }],
      });
      expect(checkCorrection([])).toMatchObject({ ok: false });
    });

    it('after the retention purge: refused with 410 REQUEST_ERASED, nothing stored', async () => {
      const r = await storedRequest(t.db);
      await setStatus(r.reference, 'received', 'issued');
      const later = new Date(Date.now() + (ctx.config.retentionReceivedDays + 1) * 86_400_000);
      expect((await purge(t.db, ctx.config, { now: later })).erased.map((e) => e.reference)).toContain(
        r.reference,
      );
      const before = await stateOf(r.reference);
      const res = await correct(r.reference, { status: 'refused', reason: 'Oprava.' });
      expect(res.statusCode).toBe(410);
      expect(res.json().error.code).toBe('REQUEST_ERASED');
      expect(await stateOf(r.reference)).toEqual(before);
    });

    it('is one transaction: when its notification cannot be queued, neither the status nor the row is kept', async () => {
      const r = await storedRequest(t.db, { send_notifications_email: true });
      await setStatus(r.reference, 'received', 'refused');
      const before = await stateOf(r.reference);
      // A trigger that refuses every new notification row.
      if (kind === 'postgres') {
        await sql
          .raw(
            `create function refuse_notice() returns trigger language plpgsql as $$ begin raise exception 'no notices'; end $$;
             create trigger refuse_notice before insert on status_notices for each row execute function refuse_notice();`,
          )
          .execute(t.db.kysely);
      } else {
        await sql
          .raw(
            `create trigger refuse_notice before insert on status_notices begin select raise(abort, 'no notices'); end`,
          )
          .execute(t.db.kysely);
      }
      try {
        await expect(
          correctDecision(t.db, r.reference, { status: 'in_progress', reason: 'Oprava.' }),
        ).rejects.toThrow();
        expect(await stateOf(r.reference)).toEqual(before);
      } finally {
        await sql
          .raw(
            kind === 'postgres'
              ? 'drop trigger refuse_notice on status_notices; drop function refuse_notice()'
              : 'drop trigger refuse_notice',
          )
          .execute(t.db.kysely);
      }
      // Without the trigger it goes through.
      expect(
        (await correctDecision(t.db, r.reference, { status: 'in_progress', reason: 'Oprava.' })).outcome,
      ).toBe('corrected');
    });

    it('needs the scope requests:status, answers 404 for an unknown reference, and audits every call', async () => {
      const r = await storedRequest(t.db);
      await setStatus(r.reference, 'received', 'refused');
      expect(
        (await correct(r.reference, { status: 'issued', reason: 'Oprava.' }, readToken)).statusCode,
      ).toBe(403);
      expect((await correct('ROS-2026-999999', { status: 'issued', reason: 'Oprava.' })).statusCode).toBe(
        404,
      );
      expect((await correct(r.reference, { status: 'issued' })).statusCode).toBe(400);
      expect((await correct(r.reference, { status: 'refused', reason: 'Oprava.' })).statusCode).toBe(409);
      expect((await correct(r.reference, { status: 'issued', reason: 'Oprava.' })).statusCode).toBe(200);
      const audit = await t.db.kysely
        .selectFrom('audit_log')
        .select(['actor', 'outcome', 'detail'])
        .where('target', '=', r.reference)
        .where('action', '=', 'requests.correct')
        .orderBy('id')
        .execute();
      expect(audit).toEqual([
        { actor: 'token:reader', outcome: 'denied', detail: null },
        { actor: 'token:clerk', outcome: 'invalid', detail: null },
        { actor: 'token:clerk', outcome: 'invalid', detail: 'unchanged refused' },
        { actor: 'token:clerk', outcome: 'ok', detail: 'refused>issued notices=0' },
      ]);
      // No reason, name or value in the audit trail.
      expect(JSON.stringify(audit)).not.toContain('Oprava');
    });

    it('ros-admin requests correct: the same checks, exit codes like requests status, audited as operator:USER', async () => {
      const own = await registerCertificate(t.db, 7301);
      const right = await secondCertificate(7301, 7399);
      const other = await registerCertificate(t.db, 7302, { jmeno: 'Jiný', prijmeni: 'Člověk' });
      const r = await storedRequest(t.db, {}, { personKey: 'person:7301' });
      const lines: string[] = [];
      const cli = (...args: string[]) => requests(args, ctx, (l) => lines.push(l));
      await setStatus(r.reference, 'received');
      // Not decided yet.
      expect(await cli('correct', r.reference, 'refused', '--reason', 'Oprava.')).toBe(1);
      expect(lines.at(-1)).toMatch(/not decided/);
      expect((await changeStatus(t.db, r.reference, { status: 'issued', certificate: own })).outcome).toBe(
        'changed',
      );
      // Wrong usage: 2.
      expect(await cli('correct', r.reference, 'issued')).toBe(2);
      expect(lines).toContain('ros-admin requests: --reason is required');
      expect(await cli('correct', r.reference)).toBe(2);
      expect(await cli('correct', 'nope', 'issued', '--reason', 'x')).toBe(2);
      expect(await cli('correct', r.reference, 'new', '--reason', 'x')).toBe(2);
      expect(await cli('correct', r.reference, 'issued', '--reason', 'x', '--bogus')).toBe(2);
      // A certificate not of the person: 2, nothing changed.
      expect(await cli('correct', r.reference, 'issued', '--reason', 'Oprava.', '--certificate', other)).toBe(
        2,
      );
      expect(lines).toContain(`ros-admin requests: certificate ${other} ${CERTIFICATE_MISMATCH_MESSAGE}`);
      expect(await cli('correct', 'ROS-2026-999997', 'issued', '--reason', 'Oprava.')).toBe(1);
      const before = await stateOf(r.reference);
      expect(before.history.at(-1)).toMatchObject({ status: 'issued', certificate: own, correction: 0 });
      expect(
        await cli('correct', r.reference, 'issued', '--reason', 'Správný doklad.', '--certificate', right),
      ).toBe(0);
      expect(lines.at(-1)).toBe(`${r.reference} corrected: issued -> issued.`);
      expect((await stateOf(r.reference)).history.at(-1)).toMatchObject({
        status: 'issued',
        certificate: right,
        note: 'Správný doklad.',
        correction: 1,
      });
      // Again: nothing changes, exit 0.
      expect(
        await cli('correct', r.reference, 'issued', '--reason', 'Správný doklad.', '--certificate', right),
      ).toBe(0);
      expect(lines.at(-1)).toMatch(/already; nothing changed/);
      // The same decision: 1.
      expect(await cli('correct', r.reference, 'issued', '--reason', 'Jinak.', '--certificate', right)).toBe(
        1,
      );
      // requests show marks the correction and its reason.
      lines.length = 0;
      expect(await cli('show', r.reference)).toBe(0);
      expect(lines.join('\n')).toMatch(
        new RegExp(`corrected to issued {2}certificate ${right} {2}reason: Správný doklad\\.`),
      );
      const audit = await t.db.kysely
        .selectFrom('audit_log')
        .select(['actor', 'outcome', 'detail'])
        .where('target', 'in', [r.reference, 'ROS-2026-999997'])
        .where('action', '=', 'requests.correct')
        .orderBy('id')
        .execute();
      expect(audit.map((a) => [a.outcome, a.detail])).toEqual([
        ['invalid', 'notDecided refused'],
        ['invalid', 'certificateMismatch issued'],
        ['not_found', null],
        ['ok', 'issued>issued notices=0'],
        ['ok', 'already issued'],
        ['invalid', 'unchanged issued'],
      ]);
      expect(audit.every((a) => a.actor.startsWith('operator:'))).toBe(true);
      // After the purge: 1, nothing stored.
      const later = new Date(Date.now() + (ctx.config.retentionReceivedDays + 1) * 86_400_000);
      await purge(t.db, ctx.config, { now: later });
      expect(await cli('correct', r.reference, 'refused', '--reason', 'Oprava.')).toBe(1);
      expect(lines.at(-1)).toMatch(/erased/);
    });
  });
}
