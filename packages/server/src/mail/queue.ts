import { applicantEmail } from '@ros/domain';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { ServiceContext } from '../context.js';
import type { Database } from '../db/schema.js';
import { type AccessCodes, createAccessCodes, statusOf } from '../notifications/accessCode.js';
import { sendNotice } from '../notifications/notices.js';
import { createSmsGateway, type SmsGateway } from '../notifications/sms.js';
import type { PdfPool } from '../pdf/pool.js';
import { requestPdfModel } from '../pdf/requestPdf.js';
import { findRequest } from '../requests/repository.js';
import { claimRow, dueRows, MAX_ATTEMPTS, markSent, markUnsent } from './claim.js';
import { confirmationMail } from './confirmation.js';
import { createTransport, type MailTransport } from './transport.js';

/**
 * The confirmation e-mails (table request_mails, docs/nia.md "The e-mail"). A mail is queued
 * in the same transaction that stores its request, so a request never exists without its mail
 * and a mail failure never loses a request. Sending happens after the answer:
 *   pending -> sending -> sent
 *                     \-> retry (attempts < MAX_ATTEMPTS, after a growing pause) -> sending …
 *                     \-> failed (after MAX_ATTEMPTS): kept and visible, never deleted.
 * An operator puts a failed, retry or (forced) sent mail back with `ros-admin mails resend`
 * (`requeueMail`): retry, attempts 0, due at once.
 * A `sending` row whose process died becomes due again when its lease runs out. Several
 * processes may run the queue: a row is claimed by a conditional update. The life cycle, the
 * claim and the lease are mail/claim.ts, the same for the status notifications (notifications/notices.ts).
 */

export { MAX_ATTEMPTS };

const POLL_MS = 30_000;

/**
 * Whether an operator may put a mail back to be sent: a failed or waiting (retry) one always, a
 * sent one only when forced (the applicant lost it); pending and sending ones are on their way.
 */
export function mayResend(status: string, force: boolean): boolean {
  return status === 'failed' || status === 'retry' || (status === 'sent' && force);
}

/**
 * Puts a mail back to be sent at once: retry, attempts 0, due `now`; the queue of any running
 * process picks it up at its next look (30 s). Conditional on the row being as the operator saw
 * it (status and next attempt), like the queue's own claim: false when it changed meanwhile.
 */
export async function requeueMail(
  db: Kysely<Database>,
  requestId: string,
  seen: { status: string; nextAttemptAt: string },
  now: Date = new Date(),
): Promise<boolean> {
  const result = await db
    .updateTable('request_mails')
    .set({ status: 'retry', attempts: 0, next_attempt_at: now.toISOString() })
    .where('request_id', '=', requestId)
    .where('status', '=', seen.status)
    .where('next_attempt_at', '=', seen.nextAttemptAt)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** A short, fixed error word for the table and the log: never the message (it may name addresses). */
function errorCode(err: unknown): string {
  const e = err as { code?: unknown; responseCode?: unknown; name?: unknown };
  const parts = [
    typeof e.code === 'string' && /^[A-Z0-9_]{2,40}$/.test(e.code) ? e.code : null,
    typeof e.responseCode === 'number' ? `SMTP ${e.responseCode}` : null,
  ].filter(Boolean);
  return parts.length > 0 ? parts.join(' ') : typeof e.name === 'string' ? e.name.slice(0, 60) : 'Error';
}

export class MailQueue {
  private running: Promise<void> | null = null;
  private again = false;
  private timer: NodeJS.Timeout | null = null;
  private transport: MailTransport | null = null;
  private closed = false;

  private sms: SmsGateway | null = null;
  private readonly codes: AccessCodes;
  /**
   * `pdf`: the app's one PDF pool (services.ts), shared with the PDF routes; not closed here.
   * `codes`: the status page's access codes (the app's, services.ts), printed in the e-mails.
   */
  constructor(
    private readonly ctx: ServiceContext,
    private readonly log: FastifyBaseLogger,
    private readonly pdf: PdfPool,
    codes?: AccessCodes,
  ) {
    this.codes = codes ?? createAccessCodes(ctx.db, ctx.config);
  }

  /** Looks for due mail every 30 s (retries, and mail another process left behind). */
  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => this.kick(), POLL_MS);
    this.timer.unref();
  }

  /** Sends what is due now, in the background; calls while running make it run once more. */
  kick(): void {
    if (this.closed) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = (async () => {
      do {
        this.again = false;
        try {
          await this.processDue();
        } catch (err) {
          this.log.error({ mail: { error: errorCode(err) } }, 'mail queue failed');
        }
      } while (this.again && !this.closed);
    })().finally(() => {
      this.running = null;
    });
  }

  /** Whether it looks for due mail every 30 s (between start and close). */
  get polling(): boolean {
    return this.timer !== null;
  }

  /** Resolves when no run is in progress (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.idle();
    this.transport?.close();
  }

  /** Sends the confirmation e-mails, then the status notifications (notifications/notices.ts), that are due. */
  async processDue(now: Date = new Date()): Promise<void> {
    await this.processConfirmations(now);
    await this.processNotices(now);
  }

  private async processNotices(now: Date): Promise<void> {
    const db = this.ctx.db.kysely;
    for (const row of await dueRows(db, 'status_notices', now)) {
      if (this.closed) return;
      if (!(await claimRow(db, 'status_notices', row))) continue;
      const id = Number(row.key);
      const attempts = row.attempts + 1;
      try {
        const reference = await sendNotice(db, id, {
          config: this.ctx.config,
          mail: () => {
            this.transport ??= createTransport(this.ctx.config);
            return this.transport;
          },
          sms: () => {
            this.sms ??= createSmsGateway(this.ctx.config);
            return this.sms;
          },
          codes: this.codes,
          log: this.log,
        });
        await markSent(db, 'status_notices', id, attempts);
        this.log.info({ request: reference, notice: 'sent' }, 'status notification sent');
      } catch (err) {
        const error = errorCode(err);
        const status = await markUnsent(db, 'status_notices', id, attempts, error);
        this.log.warn({ notice: { id, attempt: attempts, error, status } }, 'status notification not sent');
      }
    }
  }

  private async processConfirmations(now: Date): Promise<void> {
    const db = this.ctx.db.kysely;
    for (const row of await dueRows(db, 'request_mails', now)) {
      if (this.closed) return;
      if (!(await claimRow(db, 'request_mails', row))) continue;
      await this.sendOne(String(row.key), row.attempts);
    }
  }

  private async sendOne(requestId: string, attemptsBefore: number): Promise<void> {
    const db = this.ctx.db.kysely;
    const request = await findRequest(this.ctx.db.kysely, requestId);
    const reference = request?.reference;
    try {
      if (!request) throw Object.assign(new Error('request gone'), { code: 'NO_REQUEST' });
      const to = applicantEmail(request.values);
      if (!to) throw Object.assign(new Error('no address'), { code: 'NO_ADDRESS' });
      this.transport ??= createTransport(this.ctx.config);
      const sources = { db: this.ctx.db, accessCodes: this.codes, publicUrl: this.ctx.config.publicUrl };
      const pdf = await this.pdf.render(await requestPdfModel(sources, request));
      const mail = confirmationMail(request, await statusOf(this.codes, this.ctx.config.publicUrl, request));
      await this.transport.send(
        {
          from: this.ctx.config.mailFrom,
          to,
          subject: mail.subject,
          text: mail.text,
          html: mail.html,
          attachments: [{ filename: mail.filename, content: pdf, contentType: 'application/pdf' }],
        },
        request.reference,
      );
      await markSent(db, 'request_mails', requestId, attemptsBefore + 1);
      this.log.info({ request: reference, mail: 'sent' }, 'confirmation e-mail sent');
    } catch (err) {
      const attempts = attemptsBefore + 1;
      const error = errorCode(err);
      const status = await markUnsent(db, 'request_mails', requestId, attempts, error);
      this.log.warn(
        { request: reference, mail: { attempt: attempts, error, status } },
        'confirmation e-mail not sent',
      );
    }
  }
}
