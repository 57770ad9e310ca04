import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.js';
import { pendingQueueRow } from './claim.js';

/** The confirmation e-mails of requests (table request_mails, db/schema.ts); the sending is mail/queue.ts. */

export async function enqueueMail(trx: Transaction<Database>, requestId: string, now: Date): Promise<void> {
  await trx
    .insertInto('request_mails')
    .values({ request_id: requestId, ...pendingQueueRow(now) })
    .execute();
}

/** Whether a confirmation e-mail was queued for the request (whatever became of it since). */
export async function hasQueuedMail(
  db: Kysely<Database> | Transaction<Database>,
  requestId: string,
): Promise<boolean> {
  const row = await db
    .selectFrom('request_mails')
    .select('request_id')
    .where('request_id', '=', requestId)
    .executeTakeFirst();
  return row !== undefined;
}

/** Every status a mail row can have (the life cycle is in mail/queue.ts). */
export const MAIL_STATUSES = ['pending', 'sending', 'retry', 'sent', 'failed'] as const;
export type MailStatus = (typeof MAIL_STATUSES)[number];

/**
 * What operators see of a mail (`ros-admin mails`): the request's reference, never its id (the
 * secret of the PDF link) and nothing of the form (no address, no name).
 */
export interface MailOverview {
  reference: string;
  status: string;
  attempts: number;
  nextAttemptAt: string;
  lastError: string | null;
  sentAt: string | null;
  createdAt: string;
}

const overviewColumns = [
  'requests.reference as reference',
  'request_mails.status as status',
  'request_mails.attempts as attempts',
  'request_mails.next_attempt_at as next_attempt_at',
  'request_mails.last_error as last_error',
  'request_mails.sent_at as sent_at',
  'request_mails.created_at as created_at',
] as const;

type OverviewRow = {
  reference: string;
  status: string;
  attempts: number | string;
  next_attempt_at: string;
  last_error: string | null;
  sent_at: string | null;
  created_at: string;
};

const toOverview = (r: OverviewRow): MailOverview => ({
  reference: r.reference,
  status: r.status,
  attempts: Number(r.attempts),
  nextAttemptAt: r.next_attempt_at,
  lastError: r.last_error,
  sentAt: r.sent_at,
  createdAt: r.created_at,
});

/** The newest mails first (by the time they were queued), optionally of one status. */
export async function listMails(
  db: Kysely<Database>,
  options: { status?: MailStatus; limit: number },
): Promise<MailOverview[]> {
  let q = db
    .selectFrom('request_mails')
    .innerJoin('requests', 'requests.id', 'request_mails.request_id')
    .select(overviewColumns);
  if (options.status) q = q.where('request_mails.status', '=', options.status);
  const rows = await q
    .orderBy('request_mails.created_at', 'desc')
    .orderBy('requests.reference', 'desc')
    .limit(options.limit)
    .execute();
  return rows.map(toOverview);
}

/**
 * A request by its reference number or its id, with its mail: undefined when there is no such
 * request; `mail` null when the request has no mail (sent without NIA sign-in).
 */
export async function findRequestMail(
  db: Kysely<Database>,
  key: { reference: string } | { requestId: string },
): Promise<{ requestId: string; reference: string; mail: MailOverview | null } | undefined> {
  const row = await db
    .selectFrom('requests')
    .leftJoin('request_mails', 'request_mails.request_id', 'requests.id')
    .select(['requests.id as request_id', ...overviewColumns])
    .where(
      'reference' in key ? 'requests.reference' : 'requests.id',
      '=',
      'reference' in key ? key.reference : key.requestId,
    )
    .executeTakeFirst();
  if (!row) return undefined;
  const { request_id, status } = row;
  return {
    requestId: request_id,
    reference: row.reference,
    mail: status === null ? null : toOverview(row as OverviewRow),
  };
}
