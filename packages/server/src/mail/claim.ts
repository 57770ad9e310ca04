import type { Kysely } from 'kysely';
import type { Database, QueueColumns } from '../db/schema.js';

/**
 * The life cycle a queued message's row goes through, the same for the confirmation e-mails
 * (`request_mails`, mail/queue.ts) and the status notifications (`status_notices`,
 * notifications/notices.ts), with the statuses of mail/table.ts MAIL_STATUSES:
 *   pending -> sending -> sent
 *                     \-> retry (attempts < MAX_ATTEMPTS, after a growing pause) -> sending …
 *                     \-> failed (after MAX_ATTEMPTS, or when there is nothing to send to)
 * A row is claimed by a conditional update (it is still as it was read), so of several
 * processes exactly one sends it; a claimed row is leased for LEASE_MINUTES, after which a row
 * whose process died is due again. A row starts pending (db/queueRow.ts), written by those who
 * queue it: requests/store.ts, notifications/notices.ts.
 */

export const MAX_ATTEMPTS = 6;
/** Pause before attempt n+1 after n failures (minutes). */
const BACKOFF_MINUTES = [1, 5, 15, 60, 180];
const LEASE_MINUTES = 10;
/** Rows looked at per round. */
const DUE_LIMIT = 20;

/** The queue tables and each one's key column. */
const KEYS = { request_mails: 'request_id', status_notices: 'id' } as const;
export type QueueTable = keyof typeof KEYS;

/** What this module reads and writes of either table (db/schema.ts types them whole). */
interface QueuedRow extends QueueColumns {
  request_id: string;
  id: number;
}
type QueueDb = Kysely<Record<QueueTable, QueuedRow>>;
const queueDb = (db: Kysely<Database>) => db as unknown as QueueDb;

export interface DueRow {
  /** The row's key: the request id (request_mails) or the notice's id (status_notices). */
  key: string | number;
  status: string;
  attempts: number;
  next_attempt_at: string;
}

/** The due rows (pending, retry, or sending whose lease ran out), oldest first. */
export async function dueRows(db: Kysely<Database>, table: QueueTable, now: Date): Promise<DueRow[]> {
  const rows = await queueDb(db)
    .selectFrom(table)
    .select((eb) => [eb.ref(KEYS[table]).as('key'), 'status', 'attempts', 'next_attempt_at'])
    .where('status', 'in', ['pending', 'retry', 'sending'])
    .where('next_attempt_at', '<=', now.toISOString())
    .orderBy('next_attempt_at')
    .limit(DUE_LIMIT)
    .execute();
  return rows.map((r) => ({ ...r, attempts: Number(r.attempts) }));
}

/** Claims a due row for sending: true when this call got it (it was still as read). */
export async function claimRow(db: Kysely<Database>, table: QueueTable, row: DueRow): Promise<boolean> {
  const claimed = await queueDb(db)
    .updateTable(table)
    .set({
      status: 'sending',
      next_attempt_at: new Date(Date.now() + LEASE_MINUTES * 60_000).toISOString(),
    })
    .where(KEYS[table], '=', row.key)
    .where('status', '=', row.status)
    .where('next_attempt_at', '=', row.next_attempt_at)
    .executeTakeFirst();
  return Number(claimed.numUpdatedRows) === 1;
}

/** Marks a claimed row sent, after `attempts` attempts. */
export async function markSent(
  db: Kysely<Database>,
  table: QueueTable,
  key: string | number,
  attempts: number,
): Promise<void> {
  await queueDb(db)
    .updateTable(table)
    .set({ status: 'sent', attempts, sent_at: new Date().toISOString(), last_error: null })
    .where(KEYS[table], '=', key)
    .execute();
}

/**
 * Marks a claimed row not sent after `attempts` attempts with `error` (a short code): retry after
 * a pause, or failed after the last attempt or when the request or its address is gone.
 */
export async function markUnsent(
  db: Kysely<Database>,
  table: QueueTable,
  key: string | number,
  attempts: number,
  error: string,
): Promise<'retry' | 'failed'> {
  const final = attempts >= MAX_ATTEMPTS || error === 'NO_REQUEST' || error === 'NO_ADDRESS';
  const pause = BACKOFF_MINUTES[Math.min(attempts - 1, BACKOFF_MINUTES.length - 1)] ?? 60;
  const status = final ? 'failed' : 'retry';
  await queueDb(db)
    .updateTable(table)
    .set({
      status,
      attempts,
      last_error: error,
      next_attempt_at: new Date(Date.now() + pause * 60_000).toISOString(),
    })
    .where(KEYS[table], '=', key)
    .execute();
  return status;
}
