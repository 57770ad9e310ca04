import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.js';

/**
 * The confirmation e-mails of requests (table request_mails, db/schema.ts): queued with their
 * request by requests/store.ts, sent by mail/queue.ts.
 */

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

/** The kinds of queued messages (issue 36: an operator sees every one). */
export const MAIL_KINDS = ['confirmation', 'status-email', 'status-sms'] as const;
export type MailKind = (typeof MAIL_KINDS)[number];

/** Every status a mail row can have (the life cycle is in mail/queue.ts). */
export const MAIL_STATUSES = ['pending', 'sending', 'retry', 'sent', 'failed'] as const;
export type MailStatus = (typeof MAIL_STATUSES)[number];

/**
 * What operators see of a mail (`ros-admin mails`): the request's reference, never its id (the
 * secret of the PDF link) and nothing of the form (no address, no name).
 */
export interface MailOverview {
  reference: string;
  /** confirmation (the NIA request's e-mail), status-email or status-sms (notifications/notices.ts). */
  kind: MailKind;
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

const toOverview = (r: OverviewRow, kind: MailKind = 'confirmation'): MailOverview => ({
  reference: r.reference,
  kind,
  status: r.status,
  attempts: Number(r.attempts),
  nextAttemptAt: r.next_attempt_at,
  lastError: r.last_error,
  sentAt: r.sent_at,
  createdAt: r.created_at,
});

/**
 * The newest messages of every kind first (by the time they were queued), optionally of one
 * status: the confirmation e-mails and the status notifications (e-mail and SMS).
 */
export async function listMails(
  db: Kysely<Database>,
  options: { status?: MailStatus; limit: number },
): Promise<MailOverview[]> {
  let q = db
    .selectFrom('request_mails')
    .innerJoin('requests', 'requests.id', 'request_mails.request_id')
    .select(overviewColumns);
  if (options.status) q = q.where('request_mails.status', '=', options.status);
  const mails = await q
    .orderBy('request_mails.created_at', 'desc')
    .orderBy('requests.reference', 'desc')
    .limit(options.limit)
    .execute();
  let n = db
    .selectFrom('status_notices')
    .innerJoin('requests', 'requests.id', 'status_notices.request_id')
    .select([
      'requests.reference as reference',
      'status_notices.channel as channel',
      'status_notices.status as status',
      'status_notices.attempts as attempts',
      'status_notices.next_attempt_at as next_attempt_at',
      'status_notices.last_error as last_error',
      'status_notices.sent_at as sent_at',
      'status_notices.created_at as created_at',
    ]);
  if (options.status) n = n.where('status_notices.status', '=', options.status);
  const notices = await n
    .orderBy('status_notices.created_at', 'desc')
    .orderBy('status_notices.id', 'desc')
    .limit(options.limit)
    .execute();
  const all = [
    ...mails.map((r) => toOverview(r)),
    ...notices.map((r) => toOverview(r, r.channel === 'sms' ? 'status-sms' : 'status-email')),
  ];
  // Newest first; the same time: by reference, newest first.
  all.sort((a, b) =>
    a.createdAt === b.createdAt
      ? b.reference.localeCompare(a.reference)
      : b.createdAt.localeCompare(a.createdAt),
  );
  return all.slice(0, options.limit);
}

/**
 * Puts the failed status notifications (of one request, or all) back in the queue, to be sent at
 * the next look for due mail (`ros-admin mails resend-notices`). Returns how many.
 */
export async function requeueFailedNotices(
  db: Kysely<Database>,
  requestId: string | null,
  now: Date = new Date(),
): Promise<number> {
  let q = db
    .updateTable('status_notices')
    .set({ status: 'retry', attempts: 0, next_attempt_at: now.toISOString() })
    .where('status', '=', 'failed');
  if (requestId !== null) q = q.where('request_id', '=', requestId);
  const result = await q.executeTakeFirst();
  return Number(result.numUpdatedRows);
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
