import type { AddressInfo } from 'node:net';
import { defaultFormValues } from '@ros/domain';
import type { FastifyBaseLogger } from 'fastify';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../context.js';
import { PdfPool } from '../pdf/pool.js';
import { seedStaticLists } from '../reference/store.js';
import type { StoredRequest } from '../requests/repository.js';
import { storeRequestWithMail } from '../requests/store.js';
import { AGREED } from '../test/applicant.js';
import { createTestDb, type TestDb, testDbKinds } from '../test/databases.js';
import { MAX_ATTEMPTS, MailQueue } from './queue.js';

/** A logger that keeps every line, to check what a failure logs. */
function memoryLog(lines: string[]): FastifyBaseLogger {
  const write = (obj: unknown, msg?: string) => lines.push(JSON.stringify({ obj, msg }));
  const log = {
    info: write,
    warn: write,
    error: write,
    debug: write,
    trace: write,
    fatal: write,
    level: 'info',
  };
  return { ...log, child: () => log, silent: () => {} } as unknown as FastifyBaseLogger;
}

/** A request sent after NIA sign-in, stored with its confirmation e-mail queued. */
async function storeMailedRequest(
  t: TestDb,
  opts: { duplicate: boolean; personKey: string; bodyHash: string },
): Promise<{ request: StoredRequest; created: boolean }> {
  const stored = await storeRequestWithMail(t.db, {
    language: 'cs',
    viaNia: true,
    legal: AGREED,
    values: {
      ...defaultFormValues(),
      first_name: 'Alžběta',
      last_name: 'Testová',
      email: 'alzbeta@example.cz',
    },
    idempotencyKey: null,
    mail: true,
    ...opts,
  });
  if (!('created' in stored)) throw new Error('not stored');
  return stored;
}

/** The PDF pool the queues render with (in the server: the app's one pool, services.ts). */
const pdf = new PdfPool({ size: 1 });
afterAll(() => pdf.close());

for (const kind of await testDbKinds()) {
  describe(`confirmation e-mail queue (${kind})`, () => {
    let t: TestDb;
    beforeAll(async () => {
      // Nothing listens on port 1: every SMTP attempt fails.
      t = await createTestDb(kind, { ROS_SMTP_URL: 'smtp://127.0.0.1:1' });
      await seedStaticLists(t.db);
    });
    afterAll(async () => {
      await t?.cleanup();
    });

    it('keeps the request when the mail fails, retries later, and gives up visibly after the last attempt', async () => {
      const ctx: AppContext = { config: t.config, db: t.db, version: 'test' };
      const stored = await storeMailedRequest(t, {
        duplicate: false,
        personKey: 'test:1',
        bodyHash: 'a'.repeat(64),
      });
      const id = stored.request.id;
      const lines: string[] = [];
      const queue = new MailQueue(ctx, memoryLog(lines), pdf);
      const row = () =>
        t.db.kysely
          .selectFrom('request_mails')
          .selectAll()
          .where('request_id', '=', id)
          .executeTakeFirstOrThrow();

      expect((await row()).status).toBe('pending');
      await queue.processDue();
      const first = await row();
      expect(first.status).toBe('retry');
      expect(Number(first.attempts)).toBe(1);
      expect(first.last_error).toMatch(/^E[A-Z]+/);
      expect(first.next_attempt_at > new Date().toISOString()).toBe(true);
      // The request is there whatever happens to its mail.
      expect(
        await t.db.kysely.selectFrom('requests').select('id').where('id', '=', id).executeTakeFirst(),
      ).toBeTruthy();

      // Not due yet: nothing happens.
      await queue.processDue();
      expect(Number((await row()).attempts)).toBe(1);

      // The last attempt fails: the mail is marked failed and kept.
      await t.db.kysely
        .updateTable('request_mails')
        .set({ attempts: MAX_ATTEMPTS - 1, next_attempt_at: new Date(Date.now() - 1000).toISOString() })
        .where('request_id', '=', id)
        .execute();
      await queue.processDue();
      const last = await row();
      expect(last.status).toBe('failed');
      expect(Number(last.attempts)).toBe(MAX_ATTEMPTS);
      await queue.close();

      const log = lines.join('\n');
      expect(log).toContain(stored.request.reference);
      expect(log).toContain('confirmation e-mail not sent');
      for (const word of ['alzbeta@example.cz', 'Alžběta', 'Testová']) expect(log).not.toContain(word);
    });
  });
}

for (const kind of await testDbKinds()) {
  describe(`confirmation e-mail by SMTP (${kind})`, () => {
    let t: TestDb;
    let smtp: SMTPServer;
    const received: Buffer[] = [];
    beforeAll(async () => {
      // A real SMTP receiver on a free port.
      smtp = new SMTPServer({
        authOptional: true,
        disabledCommands: ['STARTTLS'],
        logger: false,
        onData(stream, _session, done) {
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('end', () => {
            received.push(Buffer.concat(chunks));
            done();
          });
        },
      });
      await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', () => resolve()));
      const { port } = smtp.server.address() as AddressInfo;
      t = await createTestDb(kind, {
        ROS_SMTP_URL: `smtp://127.0.0.1:${port}`,
        ROS_MAIL_FROM: 'ROS <ros@example.cz>',
      });
      await seedStaticLists(t.db);
    });
    afterAll(async () => {
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
      await t?.cleanup();
    });

    it('sends the Czech confirmation with the PDF through SMTP and marks it sent', async () => {
      const ctx: AppContext = { config: t.config, db: t.db, version: 'test' };
      const stored = await storeMailedRequest(t, {
        duplicate: true,
        personKey: 'test:2',
        bodyHash: 'b'.repeat(64),
      });
      const queue = new MailQueue(ctx, memoryLog([]), pdf);
      await queue.processDue();
      await queue.close();
      const row = await t.db.kysely
        .selectFrom('request_mails')
        .selectAll()
        .where('request_id', '=', stored.request.id)
        .executeTakeFirstOrThrow();
      expect(row.status).toBe('sent');
      expect(row.sent_at).toBeTruthy();
      expect(received).toHaveLength(1);
      const mail = await simpleParser(received[0] as Buffer);
      expect(mail.subject).toBe(
        `Žádost o duplikát ${stored.request.reference} odeslána úřadu elektronicky – registr ROS`,
      );
      expect(mail.from?.value[0]?.address).toBe('ros@example.cz');
      expect(mail.text).toContain('nemusíte tisknout, podepisovat ani posílat poštou');
      // Without a birth number: the identity-document attachment is asked for.
      expect(mail.text).toContain('přiložte kopii dokladu totožnosti');
      expect(mail.attachments[0]?.contentType).toBe('application/pdf');
      expect(mail.attachments[0]?.content.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    });

    it("two instances' workers on one database send each mail exactly once", async () => {
      received.length = 0;
      const ids: string[] = [];
      for (let n = 0; n < 6; n++) {
        const stored = await storeMailedRequest(t, {
          duplicate: false,
          personKey: `test:many-${n}`,
          bodyHash: String(n).repeat(64),
        });
        ids.push(stored.request.id);
      }
      // Two queues, as two processes have, both told at once and both looking again.
      const queues = [0, 1].map(() => new MailQueue({ config: t.config, db: t.db }, memoryLog([]), pdf));
      await Promise.all(queues.flatMap((q) => [q.processDue(), q.processDue()]));
      for (const q of queues) await q.close();
      expect(received).toHaveLength(6);
      const rows = await t.db.kysely
        .selectFrom('request_mails')
        .select(['status', 'attempts'])
        .where('request_id', 'in', ids)
        .execute();
      expect(rows.map((r) => [r.status, r.attempts])).toEqual(ids.map(() => ['sent', 1]));
    });
  });
}
