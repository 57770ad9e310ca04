import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { FormValues } from '@ros/domain';
import type { FastifyBaseLogger } from 'fastify';
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../context.js';
import { correctDecision } from '../intake/correction.js';
import { changeStatus } from '../intake/status.js';
import { MAX_ATTEMPTS } from '../mail/claim.js';
import { MailQueue } from '../mail/queue.js';
import { outboxDir, smsOutboxDir, statusNoticeName } from '../outbox.js';
import { PdfPool } from '../pdf/pool.js';
import { purge } from '../retention/index.js';
import { createTestDb, type TestDb, testDbKinds } from '../test/databases.js';
import { storedRequest } from '../test/requests.js';
import { createAccessCodes } from './accessCode.js';
import { gsm7Segments } from './gsm7.js';
import { noticesOf, resendNotice } from './notices.js';

const quiet = (() => {
  const log = { info() {}, warn() {}, error() {}, debug() {}, trace() {}, fatal() {}, level: 'info' };
  return { ...log, child: () => log } as unknown as FastifyBaseLogger;
})();

const pdf = new PdfPool({ size: 1 });
afterAll(() => pdf.close());

const files = (dir: string) => {
  try {
    return readdirSync(dir).filter((f) => !f.startsWith('.'));
  } catch {
    return [];
  }
};

const PHONE = { telephone: '603123456', dial_code: '+420' } satisfies Partial<FormValues>;

for (const kind of await testDbKinds()) {
  describe(`status notifications, as consented (${kind})`, { timeout: 60_000 }, () => {
    let t: TestDb;
    let ctx: AppContext;
    beforeAll(async () => {
      t = await createTestDb(kind, { ROS_PUBLIC_URL: 'http://ros.test' });
      ctx = { config: t.config, db: t.db, version: 'test' };
    });
    afterAll(async () => {
      await t?.cleanup();
    });

    it('e-mail and SMS for each combination of the consents; none without a number', async () => {
      const cases: Array<{ over: Partial<FormValues>; email: boolean; sms: boolean; lang: 'cs' | 'en' }> = [
        { over: {}, email: false, sms: false, lang: 'cs' },
        { over: { send_notifications_email: true }, email: true, sms: false, lang: 'en' },
        { over: { send_notifications_phone: true, ...PHONE }, email: false, sms: true, lang: 'cs' },
        {
          over: { send_notifications_email: true, send_notifications_phone: true, ...PHONE },
          email: true,
          sms: true,
          lang: 'en',
        },
        // SMS ticked but no number given: no SMS.
        { over: { send_notifications_phone: true }, email: false, sms: false, lang: 'cs' },
      ];
      const codes = createAccessCodes(t.db, t.config);
      const queue = new MailQueue(ctx, quiet, pdf, codes);
      for (const c of cases) {
        const r = await storedRequest(t.db, c.over, { language: c.lang });
        const changed = await changeStatus(t.db, r.reference, { status: 'received' });
        expect(changed.outcome).toBe('changed');
        await changeStatus(t.db, r.reference, { status: 'documents_needed', note: 'Pošlete pas.' });
        await queue.processDue();
        const mails = files(outboxDir(t.config)).filter((f) => f.startsWith(`${r.reference}_status-`));
        const sms = files(smsOutboxDir(t.config)).filter((f) => f.startsWith(`${r.reference}_status-`));
        const label = JSON.stringify(c.over);
        expect(mails, label).toHaveLength(c.email ? 2 : 0);
        expect(sms, label).toHaveLength(c.sms ? 2 : 0);
        const code = await codes.codeFor(r.id);
        const link = `http://ros.test${c.lang === 'en' ? '/request-status?lang=en' : '/stav-zadosti'}#${r.reference}/${code}`;
        for (const f of mails) {
          const mail = await simpleParser(readFileSync(join(outboxDir(t.config), f)));
          expect(mail.to && 'text' in mail.to ? mail.to.text : '').toBe('zofie@example.cz');
          expect(mail.text).toContain(link);
          expect(mail.subject).toContain(r.reference);
          expect(mail.subject).toMatch(c.lang === 'en' ? /ROS register$/ : /registr ROS$/);
          // Nothing of the person but the reference; the note stays behind the access code.
          expect(`${mail.text}${mail.html}`).not.toMatch(/Žofie|Řeháková|Pošlete pas/);
        }
        // The SMS gateway gets the reference and the page's address, never the access code
        // (issue 33): the applicant types the code from the PDF or the success screen.
        const page = link.slice(0, link.indexOf('#'));
        for (const f of sms) {
          const text = readFileSync(join(smsOutboxDir(t.config), f), 'utf8');
          expect(text).toContain('To: +420603123456');
          expect(text).toContain(`${page}\n`);
          expect(text).toContain(r.reference);
          expect(text).not.toContain(code);
          expect(text).not.toContain('#');
          expect(text).not.toMatch(/Žofie|Řeháková|Pošlete pas/);
        }
      }
      // Everything sent once.
      const left = await t.db.kysely.selectFrom('status_notices').select(['status', 'attempts']).execute();
      expect(left.every((n) => n.status === 'sent' && Number(n.attempts) === 1)).toBe(true);
      await queue.close();
    });

    it("a correction of a decision is told as one by e-mail and SMS, in the request's language, without its reason (issue 38)", async () => {
      const WORDS = {
        cs: {
          subject: (ref: string) => `Žádost ${ref}: rozhodnutí opraveno – registr ROS`,
          text: (ref: string) =>
            `rozhodnutí o Vaší žádosti ${ref} bylo opraveno. Stav žádosti je nyní: ve zpracování.`,
          sms: (ref: string) =>
            `ROS: zadost ${ref} - rozhodnuti opraveno, nyni ve zpracovani. Stav: http://ros.test/stav-zadosti`,
          refused: 'vyřízena: žádosti nebylo vyhověno',
          changed: 'se změnil',
        },
        en: {
          subject: (ref: string) => `Request ${ref}: decision corrected – ROS register`,
          text: (ref: string) =>
            `the decision on your request ${ref} has been corrected. The request is now: being processed.`,
          sms: (ref: string) =>
            `ROS: request ${ref} - decision corrected, now being processed. Status: http://ros.test/request-status?lang=en`,
          refused: 'decided: the request was refused',
          changed: 'has changed',
        },
      } as const;
      const reason = 'Zamítnutí bylo chybné, žádost posoudíme znovu.';
      const queue = new MailQueue(ctx, quiet, pdf, createAccessCodes(t.db, t.config));
      for (const lang of ['cs', 'en'] as const) {
        const w = WORDS[lang];
        const r = await storedRequest(
          t.db,
          { send_notifications_email: true, send_notifications_phone: true, ...PHONE },
          { language: lang },
        );
        await changeStatus(t.db, r.reference, { status: 'received' });
        const refused = await changeStatus(t.db, r.reference, { status: 'refused' });
        expect(refused.outcome).toBe('changed');
        const corrected = await correctDecision(t.db, r.reference, { status: 'in_progress', reason });
        expect(corrected).toMatchObject({ outcome: 'corrected', notices: 2 });
        const historyId = corrected.outcome === 'corrected' ? corrected.historyId : 0;
        await queue.processDue();
        const name = statusNoticeName(r.reference, historyId);
        // The correction's e-mail: "decision corrected" and the corrected state, not "changed".
        const mail = await simpleParser(readFileSync(join(outboxDir(t.config), `${name}.eml`)));
        expect(mail.subject).toBe(w.subject(r.reference));
        expect(mail.text).toContain(w.text(r.reference));
        expect(mail.html).toContain(`${w.text('\u0000').split('\u0000')[0]}<strong>${r.reference}</strong>`);
        for (const body of [mail.text ?? '', String(mail.html)]) {
          expect(body).not.toContain(w.changed);
          // The reason stays on the status page, behind the access code, as a note does.
          expect(body).not.toContain(reason);
          expect(body).not.toMatch(/Zamítnutí|chybné|Žofie|Řeháková/);
        }
        // Its SMS: the same, in GSM-7 and one segment.
        const sms = readFileSync(join(smsOutboxDir(t.config), `${name}.sms`), 'utf8');
        const smsText = sms.slice(sms.indexOf('\n\n') + 2).trimEnd();
        expect(smsText).toBe(w.sms(r.reference));
        expect(gsm7Segments(smsText)).toBe(1);
        expect(sms).not.toMatch(/Zamitnuti|Zamítnutí|chybn/);
        // The decision it corrected was told as a change of status, as before.
        const before = statusNoticeName(r.reference, refused.outcome === 'changed' ? refused.historyId : 0);
        const earlier = await simpleParser(readFileSync(join(outboxDir(t.config), `${before}.eml`)));
        expect(earlier.text).toContain(w.changed);
        expect(earlier.text).toContain(w.refused);
        expect(`${earlier.subject}${earlier.text}`).not.toMatch(/opraven|corrected/);
      }
      await queue.close();
    });

    it('a new note with the same status is a change and is notified; the same note again is not (issue 36)', async () => {
      const r = await storedRequest(t.db, { send_notifications_email: true });
      await changeStatus(t.db, r.reference, { status: 'received' });
      await changeStatus(t.db, r.reference, { status: 'documents_needed', note: 'Pošlete pas.' });
      const again = await changeStatus(t.db, r.reference, {
        status: 'documents_needed',
        note: 'Pošlete pas.',
      });
      expect(again.outcome).toBe('already');
      const news = await changeStatus(t.db, r.reference, {
        status: 'documents_needed',
        note: 'Pošlete také výpis z rejstříku trestů.',
      });
      expect(news).toMatchObject({ outcome: 'changed', notices: 1 });
      const rows = await t.db.kysely
        .selectFrom('request_status_history')
        .select(['status', 'note'])
        .where('request_id', '=', r.id)
        .orderBy('id')
        .execute();
      expect(rows.map((h) => h.note)).toEqual([
        null,
        'Pošlete pas.',
        'Pošlete také výpis z rejstříku trestů.',
      ]);
    });

    it('after the purge a note or certificate is not stored; a plain status change still is (issue 36)', async () => {
      const r = await storedRequest(t.db, {});
      await changeStatus(t.db, r.reference, { status: 'received' });
      const later = new Date(Date.now() + (t.config.retentionReceivedDays + 1) * 86_400_000);
      await purge(t.db, t.config, { now: later });
      const note = await changeStatus(t.db, r.reference, { status: 'in_progress', note: 'Kept for ever?' });
      expect(note.outcome).toBe('erased');
      const plain = await changeStatus(t.db, r.reference, { status: 'in_progress' });
      expect(plain.outcome).toBe('changed');
      const notes = await t.db.kysely
        .selectFrom('request_status_history')
        .select('note')
        .where('request_id', '=', r.id)
        .where('note', 'is not', null)
        .execute();
      expect(notes).toEqual([]);
    });

    it('the same status again notifies nothing; the purge deletes the files with the request', async () => {
      const r = await storedRequest(t.db, {
        send_notifications_email: true,
        send_notifications_phone: true,
        ...PHONE,
      });
      await changeStatus(t.db, r.reference, { status: 'received' });
      const again = await changeStatus(t.db, r.reference, { status: 'received' });
      expect(again.outcome).toBe('already');
      const queue = new MailQueue(ctx, quiet, pdf);
      await queue.processDue();
      await queue.close();
      const mine = () => [
        ...files(outboxDir(t.config)).filter((f) => f.startsWith(`${r.reference}_`)),
        ...files(smsOutboxDir(t.config)).filter((f) => f.startsWith(`${r.reference}_`)),
      ];
      expect(mine()).toHaveLength(2);
      await changeStatus(t.db, r.reference, { status: 'in_progress' });
      const later = new Date(Date.now() + (t.config.retentionReceivedDays + 1) * 86_400_000);
      // A file written later than `later` minus the keep days stays unless its request is erased.
      await purge(t.db, t.config, { now: later });
      expect(mine()).toEqual([]);
      const pending = await t.db.kysely
        .selectFrom('status_notices')
        .select('id')
        .where('request_id', '=', r.id)
        .execute();
      expect(pending).toEqual([]);
    });
  });

  describe(`status SMS through the HTTP gateway, two instances (${kind})`, { timeout: 60_000 }, () => {
    let t: TestDb;
    let stub: Server;
    const received: Array<{
      headers: IncomingHttpHeaders;
      body: { to: string; text: string; reference: string };
    }> = [];
    let fail = 0;
    beforeAll(async () => {
      stub = createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          if (fail > 0) {
            fail--;
            res.writeHead(503).end();
            return;
          }
          received.push({ headers: req.headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
          res.writeHead(202, { 'content-type': 'application/json' }).end('{"id":"x"}');
        });
      });
      await new Promise<void>((resolve) => stub.listen(0, '127.0.0.1', () => resolve()));
      const { port } = stub.address() as AddressInfo;
      t = await createTestDb(kind, {
        ROS_SMS_URL: `http://127.0.0.1:${port}/sms`,
        ROS_SMS_TOKEN: 'sms-test-token-0123456789',
        ROS_PUBLIC_URL: 'http://ros.test',
      });
    });
    afterAll(async () => {
      await new Promise<void>((resolve) => stub.close(() => resolve()));
      await t?.cleanup();
    });

    it('posts the documented JSON with the bearer token, retries a refusal, and sends each once across two queues', async () => {
      const ctx: AppContext = { config: t.config, db: t.db, version: 'test' };
      const refs: string[] = [];
      for (let n = 0; n < 6; n++) {
        const r = await storedRequest(t.db, { send_notifications_phone: true, ...PHONE }, { language: 'en' });
        await changeStatus(t.db, r.reference, { status: 'received' });
        refs.push(r.reference);
      }
      // The gateway refuses the first attempt: that notice waits for its retry.
      fail = 1;
      const queues = [0, 1].map(() => new MailQueue(ctx, quiet, pdf));
      await Promise.all(queues.flatMap((q) => [q.processDue(), q.processDue()]));
      expect(received).toHaveLength(5);
      const retry = await t.db.kysely
        .selectFrom('status_notices')
        .select(['id', 'last_error'])
        .where('status', '=', 'retry')
        .execute();
      expect(retry).toHaveLength(1);
      expect(retry[0]?.last_error).toBe('SMS_HTTP_503');
      await t.db.kysely
        .updateTable('status_notices')
        .set({ next_attempt_at: new Date(Date.now() - 1000).toISOString() })
        .where('status', '=', 'retry')
        .execute();
      await Promise.all(queues.flatMap((q) => [q.processDue(), q.processDue()]));
      for (const q of queues) await q.close();
      expect(received).toHaveLength(6);
      expect(received.map((m) => m.body.reference).sort()).toEqual([...refs].sort());
      for (const m of received) {
        expect(m.headers.authorization).toBe('Bearer sms-test-token-0123456789');
        expect(m.headers['content-type']).toBe('application/json');
        expect(Object.keys(m.body).sort()).toEqual(['reference', 'text', 'to']);
        expect(m.body.to).toBe('+420603123456');
        expect(m.body.text).toMatch(
          /^ROS: request ROS-\d{4}-\d{6} - received by the Authority\. Status: http:\/\/ros\.test\/request-status\?lang=en$/,
        );
      }
      const rows = await t.db.kysely.selectFrom('status_notices').select(['status']).execute();
      expect(rows.map((r) => r.status)).toEqual(Array(6).fill('sent'));
    });
  });
}

/**
 * Issue 38: a clerk sees each notification's state and sends a given-up one again. Given up for
 * real: the SMS gateway down through every attempt (mail/claim.ts MAX_ATTEMPTS); resent, the
 * running mail queue sends it once the gateway is back.
 */
for (const kind of await testDbKinds()) {
  describe(`a given-up notification, seen and resent (${kind})`, { timeout: 60_000 }, () => {
    let t: TestDb;
    let stub: Server;
    let down = true;
    const received: string[] = [];
    beforeAll(async () => {
      stub = createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          if (down) return void res.writeHead(503).end();
          received.push(JSON.parse(Buffer.concat(chunks).toString('utf8')).reference);
          res.writeHead(202).end();
        });
      });
      await new Promise<void>((resolve) => stub.listen(0, '127.0.0.1', () => resolve()));
      const { port } = stub.address() as AddressInfo;
      t = await createTestDb(kind, {
        ROS_SMS_URL: `http://127.0.0.1:${port}/sms`,
        ROS_SMS_TOKEN: 'sms-test-token-0123456789',
        ROS_PUBLIC_URL: 'http://ros.test',
      });
    });
    afterAll(async () => {
      await new Promise<void>((resolve) => stub.close(() => resolve()));
      await t?.cleanup();
    });

    it('given up after the last attempt, resent, and sent by the mail queue; another request\'s is "none"', async () => {
      const ctx: AppContext = { config: t.config, db: t.db, version: 'test' };
      const r = await storedRequest(t.db, { send_notifications_phone: true, ...PHONE });
      const other = await storedRequest(t.db, { send_notifications_phone: true, ...PHONE });
      await changeStatus(t.db, r.reference, { status: 'received' });
      await changeStatus(t.db, other.reference, { status: 'received' });
      const queue = new MailQueue(ctx, quiet, pdf);
      // The outage: every attempt refused, each retry made due at once.
      for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
        await queue.processDue();
        await t.db.kysely
          .updateTable('status_notices')
          .set({ next_attempt_at: new Date(Date.now() - 1000).toISOString() })
          .where('status', '=', 'retry')
          .execute();
      }
      const [given] = await noticesOf(t.db, r.id);
      expect(given).toEqual({
        id: expect.any(Number),
        channel: 'sms',
        historyId: expect.any(Number),
        state: 'given_up',
        attempts: MAX_ATTEMPTS,
        sentAt: null,
        createdAt: expect.any(String),
      });
      const id = given?.id as number;
      const [theirs] = await noticesOf(t.db, other.id);
      expect(await resendNotice(t.db, r.id, theirs?.id as number)).toBe('none');
      expect(await resendNotice(t.db, r.id, 987654321)).toBe('none');
      expect(await resendNotice(t.db, r.id, Number.NaN)).toBe('none');

      down = false;
      // Two clerks click at once: one resend.
      const clicks = await Promise.all([resendNotice(t.db, r.id, id), resendNotice(t.db, r.id, id)]);
      expect(clicks.sort()).toEqual(['not_given_up', 'resent']);
      expect(await noticesOf(t.db, r.id)).toEqual([
        expect.objectContaining({ id, state: 'pending', attempts: 0 }),
      ]);
      await queue.processDue();
      await queue.close();
      expect(received).toEqual([r.reference]);
      const [sent] = await noticesOf(t.db, r.id);
      expect(sent).toMatchObject({ id, state: 'sent', attempts: 1, sentAt: expect.any(String) });
      expect(await resendNotice(t.db, r.id, id)).toBe('not_given_up');
      // The other request's notice stays given up: a resend touches only the one asked for.
      expect((await noticesOf(t.db, other.id))[0]?.state).toBe('given_up');
    });
  });
}
