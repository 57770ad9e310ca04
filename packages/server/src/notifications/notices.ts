import {
  applicantEmail,
  type FormValues,
  isRequestStatus,
  normalizeTelephone,
  statusPageAddress,
  statusPagePath,
  storedFormValues,
} from '@ros/domain';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely, Transaction } from 'kysely';
import type Mail from 'nodemailer/lib/mailer/index.js';
import type { Config } from '../config/config.js';
import type { Db } from '../db/database.js';
import { pendingQueueRow } from '../db/queueRow.js';
import type { Database } from '../db/schema.js';
import { statusNoticeName } from '../outbox.js';
import type { AccessCodes } from './accessCode.js';
import type { SmsGateway } from './sms.js';
import { statusMail, statusSms } from './texts.js';

/**
 * Notifications of status changes, exactly as the applicant consented (docs/status.md): an e-mail
 * when they ticked e-mail notifications (the address is required on the form), an SMS when they
 * ticked SMS and gave a telephone number. One row per change and channel in `status_notices`,
 * queued in the transaction of the change (intake/status.ts) and sent by the mail queue
 * (mail/queue.ts) with the confirmation e-mails' life cycle (mail/claim.ts): claimed by a
 * conditional update (so several instances send each once), retried after growing pauses, failed
 * after the last attempt, and deleted with the request's personal data (retention/erase.ts).
 */

export type NoticeChannel = 'email' | 'sms';

/** The channels the applicant asked for and can be reached on. */
export function consentedChannels(values: Partial<FormValues>): NoticeChannel[] {
  const channels: NoticeChannel[] = [];
  if (values.send_notifications_email === true && applicantEmail(values) !== '') channels.push('email');
  if (values.send_notifications_phone === true && smsNumber(values) !== null) channels.push('sms');
  return channels;
}

/** '+420603123456' from the dial code and the number; null without a number. */
export function smsNumber(values: Partial<FormValues>): string | null {
  const number = normalizeTelephone(values.telephone ?? '');
  if (!/^\d{3,15}$/.test(number)) return null;
  const dial = (values.dial_code ?? '').replace(/\D/g, '');
  return `+${dial}${number}`;
}

export async function enqueueNotices(
  trx: Transaction<Database>,
  requestId: string,
  historyId: number,
  values: Partial<FormValues>,
  now: Date,
): Promise<number> {
  const channels = consentedChannels(values);
  for (const channel of channels) {
    await trx
      .insertInto('status_notices')
      .values({
        request_id: requestId,
        history_id: historyId,
        channel,
        ...pendingQueueRow(now),
      })
      .execute();
  }
  return channels.length;
}

/** What a notice's e-mail is sent through: the mail queue's transport (mail/transport.ts MailTransport). */
export interface NoticeMailer {
  /** `name`: the outbox file's name (outbox.ts statusNoticeName). */
  send(message: Mail.Options, name: string): Promise<void>;
}

/** What sendNotice sends through, given by the mail queue (mail/queue.ts), which sends the due notices. */
export interface NoticeSenders {
  config: Pick<Config, 'publicUrl' | 'mailFrom'>;
  mail: () => NoticeMailer;
  sms: () => SmsGateway;
  codes: AccessCodes;
  log: FastifyBaseLogger;
}

/** Sends one claimed notice; throws (with a short `code`) when it could not. */
export async function sendNotice(db: Kysely<Database>, id: number, s: NoticeSenders): Promise<string> {
  const row = await db
    .selectFrom('status_notices')
    .innerJoin('requests', 'requests.id', 'status_notices.request_id')
    .innerJoin('request_status_history', 'request_status_history.id', 'status_notices.history_id')
    .select([
      'status_notices.channel as channel',
      'status_notices.history_id as history_id',
      'requests.id as request_id',
      'requests.reference as reference',
      'requests.language as language',
      'requests.payload as payload',
      'requests.erased_at as erased_at',
      'request_status_history.status as status',
      'request_status_history.correction as correction',
    ])
    .where('status_notices.id', '=', id)
    .executeTakeFirst();
  if (!row || row.erased_at !== null || !isRequestStatus(row.status))
    throw Object.assign(new Error('request gone'), { code: 'NO_REQUEST' });
  const values = storedFormValues(row.payload);
  const lang = row.language === 'en' ? 'en' : 'cs';
  const code = await s.codes.codeFor(row.request_id);
  const input = {
    lang,
    reference: row.reference,
    status: row.status,
    link: `${s.config.publicUrl}${statusPagePath(lang, row.reference, code)}`,
    // The row it tells of corrects a decision (issue 38): "decision corrected", not "changed".
    correction: Number(row.correction) === 1,
  } as const;
  const name = statusNoticeName(row.reference, row.history_id);
  if (row.channel === 'sms') {
    const to = smsNumber(values);
    if (!to) throw Object.assign(new Error('no number'), { code: 'NO_ADDRESS' });
    // The gateway (a third party) gets the reference and the page's address, not the access
    // code: the applicant types the code from the PDF or the success screen (issue 33).
    const text = statusSms({ ...input, link: `${s.config.publicUrl}${statusPageAddress(lang)}` });
    await s.sms().send({ to, text, reference: row.reference }, name);
  } else {
    const to = applicantEmail(values);
    if (!to) throw Object.assign(new Error('no address'), { code: 'NO_ADDRESS' });
    const mail = statusMail(input);
    await s
      .mail()
      .send({ from: s.config.mailFrom, to, subject: mail.subject, text: mail.text, html: mail.html }, name);
  }
  return row.reference;
}

/**
 * A notification as the console shows it (issue 38): its channel, the history row it tells of,
 * where it stands in the queue and when. No address and no error text: `last_error` may name a
 * server or an answer, and the address is the applicant's.
 * - `sent`: delivered to the mail server or the SMS gateway;
 * - `pending`: waiting for its first or next attempt (mail/claim.ts pending, retry, sending);
 * - `given_up`: failed after the last attempt or for want of an address (failed): resendNotice.
 */
export interface NoticeView {
  id: number;
  channel: NoticeChannel;
  historyId: number;
  state: 'sent' | 'pending' | 'given_up';
  attempts: number;
  sentAt: string | null;
  createdAt: string;
}

const noticeState = (status: string): NoticeView['state'] =>
  status === 'sent' ? 'sent' : status === 'failed' ? 'given_up' : 'pending';

/** A request's notifications, oldest first (none after the erasure: they go with the address). */
export async function noticesOf(db: Db, requestId: string): Promise<NoticeView[]> {
  const rows = await db.kysely
    .selectFrom('status_notices')
    .select(['id', 'channel', 'history_id', 'status', 'attempts', 'sent_at', 'created_at'])
    .where('request_id', '=', requestId)
    .orderBy('id')
    .execute();
  return rows.map((r) => ({
    id: Number(r.id),
    channel: r.channel === 'sms' ? 'sms' : 'email',
    historyId: Number(r.history_id),
    state: noticeState(r.status),
    attempts: Number(r.attempts),
    sentAt: r.sent_at,
    createdAt: r.created_at,
  }));
}

/**
 * Sends a given-up notification again: back to `pending`, attempts from 0, due `now`, so the
 * running mail queue (mail/queue.ts, which picks due pending rows: mail/claim.ts dueRows) sends
 * it at its next look; the conditional update makes two clerks' clicks one resend. 'resent';
 * 'not_given_up' (it is pending or sent: nothing changes); 'none' (no such notification of this
 * request).
 */
export async function resendNotice(
  db: Db,
  requestId: string,
  noticeId: number,
  now: Date = new Date(),
): Promise<'resent' | 'not_given_up' | 'none'> {
  if (!Number.isSafeInteger(noticeId) || noticeId < 1) return 'none';
  const moved = await db.kysely
    .updateTable('status_notices')
    .set({ status: 'pending', attempts: 0, next_attempt_at: now.toISOString(), last_error: null })
    .where('id', '=', noticeId)
    .where('request_id', '=', requestId)
    .where('status', '=', 'failed')
    .executeTakeFirst();
  if (Number(moved.numUpdatedRows) === 1) return 'resent';
  const row = await db.kysely
    .selectFrom('status_notices')
    .select('id')
    .where('id', '=', noticeId)
    .where('request_id', '=', requestId)
    .executeTakeFirst();
  return row ? 'not_given_up' : 'none';
}
