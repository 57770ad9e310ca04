import {
  type FormValues,
  isRequestStatus,
  normalizeTelephone,
  statusPageAddress,
  statusPagePath,
  storedFormValues,
} from '@ros/domain';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely, Transaction } from 'kysely';
import type { Config } from '../config.js';
import type { Database } from '../db/schema.js';
import { pendingQueueRow } from '../mail/claim.js';
import type { MailTransport } from '../mail/transport.js';
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
 * after the last attempt, and deleted with the request's personal data (intake/retention/erase.ts).
 */

export type NoticeChannel = 'email' | 'sms';

/** The channels the applicant asked for and can be reached on. */
export function consentedChannels(values: Partial<FormValues>): NoticeChannel[] {
  const channels: NoticeChannel[] = [];
  if (values.send_notifications_email === true && (values.email ?? '').trim() !== '') channels.push('email');
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

export interface NoticeSenders {
  config: Pick<Config, 'publicUrl' | 'mailFrom'>;
  mail: () => MailTransport;
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
    const to = (values.email ?? '').trim();
    if (!to) throw Object.assign(new Error('no address'), { code: 'NO_ADDRESS' });
    const mail = statusMail(input);
    await s
      .mail()
      .send({ from: s.config.mailFrom, to, subject: mail.subject, text: mail.text, html: mail.html }, name);
  }
  return row.reference;
}
