import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { defaultFormValues } from '@ros/domain';
import type { FastifyBaseLogger } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AppContext } from '../context.js';
import type { RequestMailTable } from '../db/schema.js';
import { changeStatus } from '../intake/status.js';
import { MAX_ATTEMPTS, MailQueue } from '../mail/queue.js';
import { PdfPool } from '../pdf/pool.js';
import { seedStaticLists } from '../reference/store.js';
import { storeRequestWithMail } from '../requests/store.js';
import { AGREED } from '../test/applicant.js';
import { createTestDb, type TestDb, testDbKinds } from '../test/databases.js';
import { run } from './mails.js';

const silentLog = (() => {
  const log = { info() {}, warn() {}, error() {}, debug() {}, trace() {}, fatal() {}, level: 'silent' };
  return { ...log, child: () => log, silent: () => {} } as unknown as FastifyBaseLogger;
})();

const EMAIL = 'vendula.mailova@example.cz';
const FIRST = 'Vendula';
const LAST = 'Mailová';

for (const kind of await testDbKinds()) {
  describe(`ros-admin mails (${kind})`, () => {
    let t: TestDb;
    let ctx: AppContext;
    let lines: string[];
    let seq = 0;
    const cli = async (...args: string[]) => {
      lines = [];
      return run(args, ctx, (l) => lines.push(l));
    };

    /** A request sent at `at`, with a mail (after NIA sign-in) unless `mail` is false. */
    const request = async (at: string, mail = true) => {
      seq += 1;
      const stored = await storeRequestWithMail(
        t.db,
        {
          language: 'cs',
          duplicate: false,
          viaNia: mail,
          values: { ...defaultFormValues(), first_name: FIRST, last_name: LAST, email: EMAIL },
          personKey: `test:${seq}`,
          idempotencyKey: `key-${seq}`,
          bodyHash: String(seq).padStart(64, '0'),
          legal: AGREED,
          mail,
        },
        new Date(at),
      );
      if (!('created' in stored)) throw new Error('not stored');
      return stored.request;
    };
    const setMail = (id: string, values: Partial<RequestMailTable>) =>
      t.db.kysely.updateTable('request_mails').set(values).where('request_id', '=', id).execute();
    const mailRow = (id: string) =>
      t.db.kysely
        .selectFrom('request_mails')
        .selectAll()
        .where('request_id', '=', id)
        .executeTakeFirstOrThrow();
    const failed = {
      status: 'failed',
      attempts: MAX_ATTEMPTS,
      last_error: 'ECONNECTION',
      next_attempt_at: '2026-03-01T12:00:00.000Z',
    };

    beforeEach(async () => {
      t = await createTestDb(kind);
      ctx = { config: t.config, db: t.db, version: 'test' };
    });
    afterEach(async () => {
      await t?.cleanup();
    });

    it('lists the newest mails first, filters by status and limits, with no personal data', async () => {
      const a = await request('2026-03-01T08:00:00.000Z');
      const b = await request('2026-03-02T08:00:00.000Z');
      const c = await request('2026-03-03T08:00:00.000Z');
      await request('2026-03-04T08:00:00.000Z', false); // no mail: not listed
      await setMail(a.id, failed);
      await setMail(b.id, { status: 'sent', attempts: 1, sent_at: '2026-03-02T08:00:05.000Z' });
      await setMail(c.id, {
        status: 'retry',
        attempts: 2,
        last_error: 'SMTP 451',
        next_attempt_at: '2026-03-03T08:06:00.000Z',
      });

      expect(await cli('list')).toBe(0);
      expect(lines).toHaveLength(4);
      expect(lines[0]).toMatch(/^REFERENCE +KIND +STATUS +ATTEMPTS +NEXT ATTEMPT +LAST ERROR +QUEUED AT$/);
      expect(lines.slice(1).map((l) => l.split(/ {2,}/))).toEqual([
        [
          c.reference,
          'confirmation',
          'retry',
          '2',
          '2026-03-03T08:06:00Z',
          'SMTP 451',
          '2026-03-03T08:00:00Z',
        ],
        [b.reference, 'confirmation', 'sent', '1', '-', '-', '2026-03-02T08:00:00Z'],
        [
          a.reference,
          'confirmation',
          'failed',
          String(MAX_ATTEMPTS),
          '-',
          'ECONNECTION',
          '2026-03-01T08:00:00Z',
        ],
      ]);
      const output = lines.join('\n');
      for (const secret of [EMAIL, FIRST, LAST, a.id, b.id, c.id]) expect(output).not.toContain(secret);

      expect(await cli('list', '--status', 'failed')).toBe(0);
      expect(lines.slice(1).map((l) => l.split(/ {2,}/)[0])).toEqual([a.reference]);
      expect(await cli('list', '--status', 'pending')).toBe(0);
      expect(lines).toEqual(['No pending mails.']);

      expect(await cli('list', '--limit', '2')).toBe(0);
      expect(lines.slice(1, 3).map((l) => l.split(/ {2,}/)[0])).toEqual([c.reference, b.reference]);
      expect(lines[3]).toBe('(the newest 2; --limit N shows more)');
    });

    it('lists the status notifications with their kind and re-sends the failed ones (issue 36)', async () => {
      const r = await request('2026-03-01T08:00:00.000Z', false);
      await t.db.kysely
        .updateTable('requests')
        .set({
          payload: JSON.stringify({
            ...defaultFormValues(),
            email: EMAIL,
            telephone: '603123456',
            dial_code: '+420',
            send_notifications_email: true,
            send_notifications_phone: true,
          }),
        })
        .where('id', '=', r.id)
        .execute();
      expect((await changeStatus(t.db, r.reference, { status: 'received' })).outcome).toBe('changed');
      await t.db.kysely.updateTable('status_notices').set(failed).where('request_id', '=', r.id).execute();
      expect(await cli('list', '--status', 'failed')).toBe(0);
      expect(
        lines
          .slice(1)
          .map((l) => l.split(/ {2,}/).slice(0, 3))
          .sort(),
      ).toEqual([
        [r.reference, 'status-email', 'failed'],
        [r.reference, 'status-sms', 'failed'],
      ]);
      expect(lines.join('\n')).not.toContain(EMAIL);
      expect(await cli('resend-notices', r.reference)).toBe(0);
      expect(lines[0]).toBe(
        `2 failed status notification(s) of ${r.reference} queued to be sent again now (status retry, attempts 0).`,
      );
      const rows = await t.db.kysely.selectFrom('status_notices').select(['status', 'attempts']).execute();
      expect(rows).toEqual([
        { status: 'retry', attempts: 0 },
        { status: 'retry', attempts: 0 },
      ]);
      expect(await cli('resend-notices')).toBe(0);
      expect(lines).toEqual(['No failed status notifications.']);
      expect(await cli('resend-notices', 'nonsense')).toBe(2);
    });

    it('says so when there is no mail', async () => {
      expect(await cli('list')).toBe(0);
      expect(lines).toEqual(['No mails.']);
    });

    it('re-sends a failed mail: retry, attempts 0, due now, and the queue sends it', async () => {
      await seedStaticLists(t.db);
      const r = await request('2026-03-01T08:00:00.000Z');
      await setMail(r.id, failed);
      const before = new Date().toISOString();
      expect(await cli('resend', r.reference)).toBe(0);
      expect(lines[0]).toBe(
        `The mail of ${r.reference} (failed after ${MAX_ATTEMPTS} attempt(s), last error ECONNECTION) is queued to be sent again now (status retry, attempts 0).`,
      );
      const row = await mailRow(r.id);
      expect(row).toMatchObject({ status: 'retry', last_error: 'ECONNECTION' });
      expect(Number(row.attempts)).toBe(0);
      expect(row.next_attempt_at >= before && row.next_attempt_at <= new Date().toISOString()).toBe(true);
      for (const secret of [EMAIL, FIRST, LAST, r.id]) expect(lines.join('\n')).not.toContain(secret);

      // What a running server's queue does at its next look: sends it (no SMTP: to the outbox).
      const pdf = new PdfPool({ size: 1 });
      const queue = new MailQueue(ctx, silentLog, pdf);
      try {
        await queue.processDue();
      } finally {
        await queue.close();
        await pdf.close();
      }
      expect((await mailRow(r.id)).status).toBe('sent');
      expect(readdirSync(join(t.dataDir, 'outbox'))).toContain(`${r.reference}.eml`);
    });

    it('re-sends a mail waiting to retry, found by its request id or a lower-case reference', async () => {
      const r = await request('2026-03-01T08:00:00.000Z');
      await setMail(r.id, {
        status: 'retry',
        attempts: 3,
        last_error: 'ETIMEDOUT',
        next_attempt_at: '2099-01-01T00:00:00.000Z',
      });
      expect(await cli('resend', r.id)).toBe(0);
      expect(lines[0]).toContain(
        `The mail of ${r.reference} (retry after 3 attempt(s), last error ETIMEDOUT)`,
      );
      expect(lines.join('\n')).not.toContain(r.id);
      let row = await mailRow(r.id);
      expect(row.status).toBe('retry');
      expect(Number(row.attempts)).toBe(0);
      expect(row.next_attempt_at <= new Date().toISOString()).toBe(true);

      await setMail(r.id, { attempts: 2, next_attempt_at: '2099-01-01T00:00:00.000Z' });
      expect(await cli('resend', r.reference.toLowerCase())).toBe(0);
      row = await mailRow(r.id);
      expect(Number(row.attempts)).toBe(0);
      expect(row.next_attempt_at <= new Date().toISOString()).toBe(true);
    });

    it('takes a request id that begins with a dash for an id, not an option', async () => {
      // A copy of a stored request under an id that begins with "-" (1 id in 64 does).
      const r = await request('2026-03-01T08:00:00.000Z');
      const row = await t.db.kysely
        .selectFrom('requests')
        .selectAll()
        .where('id', '=', r.id)
        .executeTakeFirstOrThrow();
      const dashed = `--${r.id.slice(2)}`;
      await t.db.kysely
        .insertInto('requests')
        .values({ ...row, id: dashed, reference: 'ROS-2026-900001', idempotency_key: null })
        .execute();
      await t.db.kysely
        .insertInto('request_mails')
        .values({ ...(await mailRow(r.id)), request_id: dashed, ...failed })
        .execute();
      expect(await cli('resend', dashed)).toBe(0);
      expect(lines[0]).toContain('The mail of ROS-2026-900001 (failed after');
      expect((await mailRow(dashed)).status).toBe('retry');
    });

    it('re-sends a sent mail only with --force', async () => {
      const r = await request('2026-03-01T08:00:00.000Z');
      const sent = {
        status: 'sent',
        attempts: 1,
        sent_at: '2026-03-01T08:00:05.000Z',
        next_attempt_at: '2026-03-01T08:10:00.000Z',
      };
      await setMail(r.id, sent);
      expect(await cli('resend', r.reference)).toBe(1);
      expect(lines).toEqual([
        `ros-admin mails resend: the mail of ${r.reference} was sent at 2026-03-01T08:00:05Z; add --force to send it again`,
      ]);
      expect(await mailRow(r.id)).toMatchObject(sent);

      expect(await cli('resend', '--force', r.reference)).toBe(0);
      expect(lines[0]).toBe(
        `The mail of ${r.reference} (sent at 2026-03-01T08:00:05Z) is queued to be sent again now (status retry, attempts 0).`,
      );
      const row = await mailRow(r.id);
      expect(row.status).toBe('retry');
      expect(Number(row.attempts)).toBe(0);
    });

    it('leaves a pending or sending mail alone', async () => {
      const r = await request('2026-03-01T08:00:00.000Z');
      expect(await cli('resend', r.reference)).toBe(1);
      expect(lines).toEqual([
        `ros-admin mails resend: the mail of ${r.reference} is pending already (on its way); nothing was changed`,
      ]);
      await setMail(r.id, { status: 'sending', next_attempt_at: '2099-01-01T00:00:00.000Z' });
      expect(await cli('resend', '--force', r.reference)).toBe(1);
      expect(lines[0]).toContain('is sending already');
      expect((await mailRow(r.id)).next_attempt_at).toBe('2099-01-01T00:00:00.000Z');
    });

    it('refuses an unknown reference or id, and a request without a mail', async () => {
      expect(await cli('resend', 'ROS-2026-999999')).toBe(1);
      expect(lines).toEqual(['ros-admin mails resend: no request ROS-2026-999999']);
      expect(await cli('resend', 'A'.repeat(24))).toBe(1);
      expect(lines).toEqual(['ros-admin mails resend: no request with that id']);
      const r = await request('2026-03-01T08:00:00.000Z', false);
      expect(await cli('resend', r.reference)).toBe(1);
      expect(lines).toEqual([
        `ros-admin mails resend: request ${r.reference} has no confirmation e-mail (it was sent without NIA sign-in)`,
      ]);
    });

    it('answers wrong usage with exit code 2 and the usage', async () => {
      const wrong = [
        ['frobnicate'],
        ['list', 'extra'],
        ['list', '--status', 'lost'],
        ['list', '--limit', '0'],
        ['list', '--limit', 'ten'],
        ['list', '--limit'],
        ['list', '--bogus'],
        ['resend'],
        ['resend', 'ROS-2026-000001', 'ROS-2026-000002'],
        ['resend', 'not-a-reference'],
        ['resend', '--force'],
        ['resend', 'ROS-2026-000001', '--force=yes'],
        ['resend', 'ROS-2026-000001', '-f'],
      ];
      for (const args of wrong) {
        expect(await cli(...args), args.join(' ')).toBe(2);
        expect(lines[0], args.join(' ')).toMatch(/^ros-admin mails: /);
        expect(lines).toContain('Usage: ros-admin mails <command>');
      }
      expect(await cli()).toBe(0);
      expect(lines[0]).toBe('Usage: ros-admin mails <command>');
      expect(await cli('--help')).toBe(0);
    });
  });
}
