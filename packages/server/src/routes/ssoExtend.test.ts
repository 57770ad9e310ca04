import { ssoSessionAnswerSchema, ssoSessionTimeSchema } from '@ros/domain';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { activate, type NiaIdentity } from '../nia/sessions.js';
import { agreed, newApplicant } from '../test/applicant.js';
import { solvedToken } from '../test/botcheck.js';
import { type TestDb, testDbKinds } from '../test/databases.js';
import { startFormApp } from '../test/formApp.js';

/** The applicant of test/applicant.ts as NIA would release them (not in the register). */
const ZOFIE: NiaIdentity = {
  complete: true,
  first_name: 'Žofie',
  last_name: 'Řeháková',
  birth_date: '1992-11-23',
  person_identifier: 'test-zofie',
};

const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000);

for (const kind of await testDbKinds()) {
  describe(`NIA session time, extension and the submit channel (${kind})`, () => {
    let t: TestDb;
    let a: FastifyInstance;

    /** An active session signed in `ago` minutes ago (activate's clock), as the callback makes it. */
    const signedIn = (ago = 0, identity = ZOFIE) =>
      activate(t.db, undefined, 'form', identity, t.config.sessionMinutes, minutesAgo(ago));
    const cookie = (id: string) => ({ cookie: `ros_session=${id}` });
    const extend = (id?: string) =>
      a.inject({ method: 'POST', url: '/api/ros/sso-session/extend', headers: id ? cookie(id) : {} });
    const submit = async (payload: object, headers: Record<string, string> = {}) =>
      a.inject({
        method: 'POST',
        url: '/api/ros',
        payload,
        headers: { 'content-type': 'application/json', recaptcha: await solvedToken(a), ...headers },
      });
    // The channel is the one whose declarations the dialog showed (legal_channel).
    const body = ({ channel, email }: { channel: 'nia' | 'paper'; email?: string }) => ({
      ...newApplicant(),
      language: 'cs',
      duplicate: false,
      ...agreed(channel),
      ...(email ? { email } : {}),
    });

    let stop = async () => {};
    beforeAll(async () => {
      ({
        t,
        app: a,
        stop,
      } = await startFormApp(kind, {
        ROS_ALTCHA_MAX_NUMBER: '1000',
        ROS_RATE_LIMIT_SEARCH: '100000',
        ROS_SESSION_MINUTES: '30',
        ROS_SESSION_MAX_MINUTES: '60',
      }));
    });
    afterAll(() => stop());
    beforeEach(async () => {
      await t.db.kysely.deleteFrom('requests').execute();
    });

    it('GET sso-session says how long the session lasts and when the browser warns', async () => {
      const id = await signedIn(10);
      const r = await a.inject({ method: 'GET', url: '/api/ros/sso-session', headers: cookie(id) });
      expect(r.statusCode, r.body).toBe(200);
      const answer = ssoSessionAnswerSchema.parse(r.json());
      // 20 minutes left of 30 (a second or two may pass).
      expect(answer.expires_in).toBeGreaterThan(20 * 60 - 5);
      expect(answer.expires_in).toBeLessThanOrEqual(20 * 60);
      expect(answer.warn_before).toBe(120);
      expect(answer.extendable).toBe(true);
    });

    it('extending gives the full session length again, never beyond the maximum lifetime', async () => {
      const id = await signedIn(10);
      const r = await extend(id);
      expect(r.statusCode, r.body).toBe(200);
      expect(r.headers['cache-control']).toBe('no-store');
      const time = ssoSessionTimeSchema.parse(r.json());
      expect(time.expires_in).toBeGreaterThan(30 * 60 - 5);
      expect(time.extendable).toBe(true);
      // The cookie lives as long as the row.
      const set = String(r.headers['set-cookie']);
      expect(set).toMatch(new RegExp(`ros_session=${id}`));
      expect(set).toMatch(/Max-Age=(17[5-9]\d|1800)/);

      // Signed in 50 minutes ago (its 30 minutes run out in the past: made with an old clock,
      // so move its end into the future first): the 60-minute cap leaves 10 minutes.
      const old = await signedIn(50);
      await t.db.kysely
        .updateTable('sso_sessions')
        .set({ expires_at: new Date(Date.now() + 60_000).toISOString() })
        .where('status', '=', 'active')
        .where('created_at', '<', minutesAgo(40).toISOString())
        .execute();
      const capped = ssoSessionTimeSchema.parse((await extend(old)).json());
      expect(capped.expires_in).toBeGreaterThan(10 * 60 - 5);
      expect(capped.expires_in).toBeLessThanOrEqual(10 * 60);
      expect(capped.extendable).toBe(false);
      // Asking again changes nothing.
      const again = ssoSessionTimeSchema.parse((await extend(old)).json());
      expect(again.expires_in).toBeLessThanOrEqual(capped.expires_in);
      expect(again.extendable).toBe(false);
    });

    it('an ended, unknown or missing session cannot be extended (401 NO_SESSION)', async () => {
      const ended = await signedIn(31);
      for (const r of [await extend(ended), await extend('A'.repeat(43)), await extend()]) {
        expect(r.statusCode, r.body).toBe(401);
        expect(r.json().error.code).toBe('NO_SESSION');
      }
      const r = await a.inject({ method: 'GET', url: '/api/ros/sso-session', headers: cookie(ended) });
      expect(r.statusCode).toBe(401);
    });

    it('a request whose dialog showed the NIA declarations is refused after the session ended, not put on paper', async () => {
      const ended = await signedIn(31);
      const r = await submit(body({ channel: 'nia' }), cookie(ended));
      expect(r.statusCode, r.body).toBe(401);
      expect(r.json().error.code).toBe('SESSION_EXPIRED');
      expect(await t.db.kysely.selectFrom('requests').select('id').execute()).toEqual([]);
      // Without any cookie too.
      expect((await submit(body({ channel: 'nia', email: 'b@example.cz' }))).json().error.code).toBe(
        'SESSION_EXPIRED',
      );
    });

    it('the NIA declarations with a live session go through NIA; the paper ones go on paper even with one', async () => {
      const live = await signedIn(1);
      const viaNia = await submit(body({ channel: 'nia' }), cookie(live));
      expect(viaNia.statusCode, viaNia.body).toBe(201);
      expect(viaNia.json().email).toBe(true);

      const other = await signedIn(1);
      const paper = await submit(body({ channel: 'paper', email: 'paper@example.cz' }), cookie(other));
      expect(paper.statusCode, paper.body).toBe(201);
      expect(paper.json().email).toBeUndefined();
      const rows = await t.db.kysely
        .selectFrom('requests')
        .select(['via_nia'])
        .orderBy('created_at')
        .execute();
      expect(rows.map((r) => Number(r.via_nia))).toEqual([1, 0]);
      // The paper request did not use up the sign-in.
      const still = await a.inject({ method: 'GET', url: '/api/ros/sso-session', headers: cookie(other) });
      expect(still.statusCode).toBe(200);
    });

    it('a retry of a stored NIA request (same Idempotency-Key) still gets its answer after the session ended', async () => {
      const live = await signedIn(1);
      const key = 'retry-key-27';
      const first = await submit(body({ channel: 'nia' }), { ...cookie(live), 'idempotency-key': key });
      expect(first.statusCode, first.body).toBe(201);
      // The submit ended the session; the lost answer is asked for again.
      const retry = await submit(body({ channel: 'nia' }), { ...cookie(live), 'idempotency-key': key });
      expect(retry.statusCode, retry.body).toBe(200);
      expect(retry.json().reference).toBe(first.json().reference);
    });
  });
}
