import { formatAccessCode, mayChangeStatus, REQUEST_STATUSES, type RequestStatus } from '@ros/domain';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import type { AppContext } from '../context.js';
import { createToken } from '../intake/tokens.js';
import { purge } from '../retention/index.js';
import { createTestDb, type TestDb, testDbKinds } from '../test/databases.js';
import { registerCertificate, storedRequest } from '../test/requests.js';

/** Headers that say nothing of the answer itself (they differ between any two answers). */
const VOLATILE = new Set(['date', 'x-ratelimit-reset', 'x-ratelimit-remaining', 'connection', 'keep-alive']);
const headersOf = (h: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(h).filter(([k]) => !VOLATILE.has(k.toLowerCase())));

for (const kind of await testDbKinds()) {
  describe(`request status: intake API and the public page's look-up (${kind})`, { timeout: 60_000 }, () => {
    let t: TestDb;
    let ctx: AppContext;
    let app: FastifyInstance;
    let token: string;
    let readToken: string;

    beforeAll(async () => {
      t = await createTestDb(kind, { ROS_RATE_LIMIT_STATUS: '1000', ROS_PUBLIC_URL: 'http://ros.test' });
      ctx = { config: t.config, db: t.db, version: 'test' };
      app = await buildApp(ctx);
      await app.ready();
      token = (await createToken(t.db, 'clerk', ['requests:status', 'requests:read'], 'test')) as string;
      // Certificate 5001x2065 of register person 5001: an issued request of theirs may link it.
      await registerCertificate(t.db, 5001);
      readToken = (await createToken(
        t.db,
        'reader',
        ['requests:read', 'requests:receive'],
        'test',
      )) as string;
    });
    afterAll(async () => {
      await app?.close();
      await t?.cleanup();
    });

    const post = (reference: string, body: unknown, bearer = token) =>
      app.inject({
        method: 'POST',
        url: `/api/intake/v1/requests/${reference}/status`,
        headers: { authorization: `Bearer ${bearer}` },
        payload: body as object,
      });
    const look = (reference: string, code: string) =>
      app.inject({ method: 'POST', url: '/api/ros/status', payload: { reference, code } });
    const codeOf = (id: string) => app.services.accessCodes.codeFor(id);

    it('allows exactly the transitions of the domain, and a decided request stays decided', async () => {
      for (const from of REQUEST_STATUSES) {
        for (const to of REQUEST_STATUSES.filter((s) => s !== 'new')) {
          const r = await storedRequest(t.db);
          await t.db.kysely.updateTable('requests').set({ status: from }).where('id', '=', r.id).execute();
          const res = await post(r.reference, { status: to });
          const label = `${from} -> ${to}`;
          if (from === to) {
            expect(res.statusCode, label).toBe(200);
            expect(res.json().changed, label).toBe(false);
          } else if (mayChangeStatus(from, to)) {
            expect(res.statusCode, label).toBe(200);
            expect(res.json(), label).toMatchObject({ status: to, changed: true });
          } else {
            expect(res.statusCode, label).toBe(409);
            expect(res.json().error.code, label).toBe('STATUS_TRANSITION');
          }
        }
      }
      for (const decided of ['issued', 'refused', 'withdrawn'] as RequestStatus[])
        for (const to of REQUEST_STATUSES)
          if (to !== decided) expect(mayChangeStatus(decided, to)).toBe(false);
    });

    it('needs the scope requests:status, checks the body, and keeps the history with times', async () => {
      const r = await storedRequest(t.db, {}, { personKey: 'person:5001' });
      expect((await post(r.reference, { status: 'received' }, readToken)).statusCode).toBe(403);
      expect((await post('ROS-2026-999999', { status: 'received' })).statusCode).toBe(404);
      for (const bad of [
        { status: 'new' },
        { status: 'done' },
        { status: 'received', note: 'x'.repeat(501) },
        { status: 'received', note: 'a\u202eb' },
        { status: 'received', certificate: '5001x2065' },
        { status: 'issued', certificate: 'nope' },
        { status: 'received', extra: 1 },
      ]) {
        const res = await post(r.reference, bad);
        expect(res.statusCode, JSON.stringify(bad)).toBe(400);
        expect(res.json().error.code).toBe('INVALID_REQUEST');
      }
      expect((await post(r.reference, { status: 'received' })).json()).toMatchObject({ changed: true });
      expect(
        (await post(r.reference, { status: 'documents_needed', note: 'x'.repeat(500) })).statusCode,
      ).toBe(200);
      await post(r.reference, { status: 'in_progress', note: null });
      await post(r.reference, { status: 'issued', certificate: '5001x02065' });
      const detail = await app.inject({
        method: 'GET',
        url: `/api/intake/v1/requests/${r.reference}`,
        headers: { authorization: `Bearer ${token}` },
      });
      const body = detail.json();
      expect(body.status).toBe('issued');
      expect(body.received_at).toBe(body.history[0].at);
      expect(body.history.map((h: { status: string }) => h.status)).toEqual([
        'received',
        'documents_needed',
        'in_progress',
        'issued',
      ]);
      expect(body.history[1].note).toHaveLength(500);
      expect(body.history[3].certificate).toBe('5001x2065');
      const audit = await t.db.kysely
        .selectFrom('audit_log')
        .select(['action', 'outcome', 'detail'])
        .where('target', '=', r.reference)
        .where('action', '=', 'requests.status')
        .orderBy('id')
        .execute();
      expect(audit.map((a) => a.outcome)).toEqual([
        'denied',
        ...Array(7).fill('invalid'),
        'ok',
        'ok',
        'ok',
        'ok',
      ]);
      expect(audit.at(-1)?.detail).toBe('issued notices=0');
    });

    it('POST received is a status change too: in the history, and it never moves a request back', async () => {
      const r = await storedRequest(t.db);
      const received = () =>
        app.inject({
          method: 'POST',
          url: `/api/intake/v1/requests/${r.reference}/received`,
          headers: { authorization: `Bearer ${readToken}` },
        });
      expect((await received()).json().status).toBe('received');
      await post(r.reference, { status: 'in_progress' });
      expect((await received()).json().status).toBe('in_progress');
      const history = await t.db.kysely
        .selectFrom('request_status_history')
        .select('status')
        .where('request_id', '=', r.id)
        .execute();
      expect(history.map((h) => h.status)).toEqual(['received', 'in_progress']);
    });

    it('shows the status for the right code, in any case and with dashes; no personal data', async () => {
      const r = await storedRequest(t.db);
      const code = await codeOf(r.id);
      expect(code).toMatch(/^[2-9A-HJ-NP-Z]{12}$/);
      let res = await look(r.reference, code);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        reference: r.reference,
        status: 'new',
        channel: 'pdf',
        submitted_at: r.createdAt,
        events: [],
        certificate: null,
      });
      await post(r.reference, { status: 'received' });
      await post(r.reference, { status: 'documents_needed', note: 'Doložte prosím kopii pasu.' });
      res = await look(r.reference.toLowerCase(), formatAccessCode(code).toLowerCase());
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body.events.map((e: { status: string }) => e.status)).toEqual(['received', 'documents_needed']);
      expect(body.events[1]).toEqual({
        status: 'documents_needed',
        at: expect.any(String),
        note: 'Doložte prosím kopii pasu.',
        correction: false,
      });
      expect(res.body).not.toContain('Žofie');
      expect(res.body).not.toContain('zofie@example.cz');
      expect(res.headers['cache-control']).toBe('no-store');
    });

    it('shows a correction as such, with its reason; the current outcome and certificate are the last row’s (issue 38)', async () => {
      const right = '5002x2065';
      await registerCertificate(t.db, 5002, { jmeno: 'Radek', prijmeni: 'Registrovaný' });
      await t.db.kysely.updateTable('records').set({ person_id: 5001 }).where('id', '=', 5002).execute();
      const r = await storedRequest(t.db, {}, { personKey: 'person:5001' });
      const code = await codeOf(r.id);
      const correct = (body: object) =>
        app.inject({
          method: 'POST',
          url: `/api/intake/v1/requests/${r.reference}/correction`,
          headers: { authorization: `Bearer ${token}` },
          payload: body,
        });
      await post(r.reference, { status: 'received' });
      await post(r.reference, { status: 'issued', certificate: '5001x2065' });
      expect((await look(r.reference, code)).json().certificate).toBe('5001x2065');
      // The wrong certificate put right.
      expect(
        (await correct({ status: 'issued', certificate: right, reason: 'Jiný doklad.' })).statusCode,
      ).toBe(200);
      let body = (await look(r.reference, code)).json();
      expect(body.status).toBe('issued');
      expect(body.certificate).toBe(right);
      expect(body.events).toEqual([
        { status: 'received', at: expect.any(String), note: null, correction: false },
        { status: 'issued', at: expect.any(String), note: null, correction: false },
        { status: 'issued', at: expect.any(String), note: 'Jiný doklad.', correction: true },
      ]);
      // A decision corrected away: no certificate is linked, the outcome is the last row's.
      expect((await correct({ status: 'refused', reason: 'Nesplněny podmínky.' })).statusCode).toBe(200);
      body = (await look(r.reference, code)).json();
      expect(body.status).toBe('refused');
      expect(body.certificate).toBeNull();
      expect(body.events.at(-1)).toMatchObject({
        status: 'refused',
        correction: true,
        note: 'Nesplněny podmínky.',
      });
      // Back to processing, then issued again by an ordinary change: its own certificate only.
      await correct({ status: 'in_progress', reason: 'Posoudíme znovu.' });
      expect((await look(r.reference, code)).json()).toMatchObject({
        status: 'in_progress',
        certificate: null,
      });
      await post(r.reference, { status: 'issued' });
      expect((await look(r.reference, code)).json()).toMatchObject({ status: 'issued', certificate: null });
    });

    it('answers a wrong code, an unknown reference and a malformed one the same way', async () => {
      const r = await storedRequest(t.db);
      const code = await codeOf(r.id);
      const wrong = `${code.slice(0, 11)}${code.endsWith('A') ? 'B' : 'A'}`;
      const answers = [
        await look(r.reference, wrong),
        await look('ROS-2026-999998', code),
        await look('ROS-2026-999998', wrong),
        await look(r.reference, 'not a code'),
        await look('nothing', 'nothing'),
      ];
      for (const a of answers) {
        expect(a.statusCode).toBe(404);
        expect(a.body).toBe(answers[0]?.body);
        expect(headersOf(a.headers)).toEqual(headersOf(answers[0]?.headers ?? {}));
      }
      expect(answers[0]?.json().error.code).toBe('STATUS_NOT_FOUND');
      // A body that is no look-up at all is refused as such.
      const bad = await app.inject({ method: 'POST', url: '/api/ros/status', payload: { reference: 1 } });
      expect(bad.statusCode).toBe(400);
    });

    it("a note follows the portal's text policy: no RLM, ALM, zero-width, 499 stacked marks, unprintable (issue 33 item 10)", async () => {
      const r = await storedRequest(t.db);
      for (const note of [
        'Doložte\u200F pas.',
        'Doložte\u061C pas.',
        'Dolo\u200Bžte pas.',
        `a${'\u0301'.repeat(499)}`,
        'Doložte 中文.',
        `${'řádek\n'.repeat(21)}konec`,
      ]) {
        const res = await post(r.reference, { status: 'received', note });
        expect(res.statusCode, JSON.stringify(note)).toBe(400);
        expect(res.json().error.fields[0].path).toBe('note');
      }
      const named = await post(r.reference, { status: 'received', note: 'Doložte 中文.' });
      expect(named.json().error.fields[0].message).toContain('U+4E2D');
      const history = await t.db.kysely
        .selectFrom('request_status_history')
        .select('note')
        .where('request_id', '=', r.id)
        .execute();
      expect(history.filter((h) => h.note !== null)).toEqual([]);
      expect((await post(r.reference, { status: 'received', note: 'Doložte\npas.' })).statusCode).toBe(200);
    });

    it('keeps working after the retention purge: statuses and dates, not the note', async () => {
      const r = await storedRequest(t.db, { send_notifications_email: true }, { personKey: 'person:5001' });
      const code = await codeOf(r.id);
      await post(r.reference, { status: 'received' });
      await post(r.reference, { status: 'documents_needed', note: 'Pošlete pas.' });
      expect((await post(r.reference, { status: 'issued', certificate: '5001x2065' })).statusCode).toBe(200);
      const later = new Date(Date.now() + (ctx.config.retentionReceivedDays + 1) * 86_400_000);
      const result = await purge(t.db, ctx.config, { now: later });
      expect(result.erased.map((e) => e.reference)).toContain(r.reference);
      const res = await look(r.reference, code);
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body.status).toBe('issued');
      expect(body.events.map((e: { status: string; note: string | null }) => [e.status, e.note])).toEqual([
        ['received', null],
        ['documents_needed', null],
        ['issued', null],
      ]);
      expect(body.certificate).toBeNull();
      const notices = await t.db.kysely
        .selectFrom('status_notices')
        .select('id')
        .where('request_id', '=', r.id)
        .execute();
      expect(notices).toEqual([]);
      // And it can still move on (no personal data is changed), with nobody left to notify.
      expect((await post(r.reference, { status: 'refused' })).statusCode).toBe(409);
    });
  });

  describe(`request status look-up: the per-address limit (${kind})`, () => {
    let t: TestDb;
    let app: FastifyInstance;
    beforeAll(async () => {
      t = await createTestDb(kind, { ROS_RATE_LIMIT_STATUS: '3' });
      app = await buildApp({ config: t.config, db: t.db, version: 'test' });
      await app.ready();
    });
    afterAll(async () => {
      await app?.close();
      await t?.cleanup();
    });

    it('counts found and not found alike and answers 429 with Retry-After past the limit', async () => {
      const r = await storedRequest(t.db);
      const code = await app.services.accessCodes.codeFor(r.id);
      const look = (reference: string, c: string) =>
        app.inject({ method: 'POST', url: '/api/ros/status', payload: { reference, code: c } });
      expect((await look(r.reference, code)).statusCode).toBe(200);
      expect((await look('ROS-2026-999999', code)).statusCode).toBe(404);
      expect((await look(r.reference, 'AAAAAAAAAAAA')).statusCode).toBe(404);
      const limited = await look(r.reference, code);
      expect(limited.statusCode).toBe(429);
      expect(limited.json().error.code).toBe('RATE_LIMITED');
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      expect(limited.headers['cache-control']).toBe('no-store');
      // Past the limit the body is not even read (bench/flood.mjs): a body that cannot be parsed
      // is refused as over the limit, not as bad JSON.
      const unread = await app.inject({
        method: 'POST',
        url: '/api/ros/status',
        headers: { 'content-type': 'application/json' },
        payload: '{"reference": ',
      });
      expect(unread.statusCode).toBe(429);
    });
  });
}
