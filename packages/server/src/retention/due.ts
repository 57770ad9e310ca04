import type { ExpressionBuilder } from 'kysely';
import type { Config } from '../config/config.js';
import type { Db } from '../db/database.js';
import type { Database } from '../db/schema.js';

/**
 * When a request's personal data is due to go (docs/intake.md "Retention"):
 * ROS_RETENTION_RECEIVED_DAYS after it was marked received, or ROS_RETENTION_UNRECEIVED_DAYS
 * after it was submitted when it never was.
 */

export const DAY = 86_400_000;

export interface DueRequest {
  reference: string;
  reason: 'received' | 'unreceived';
  /** When it is (or was) due. */
  due_at: string;
}

const daysBefore = (now: Date, days: number) => new Date(now.getTime() - days * DAY).toISOString();
const daysAfter = (iso: string, days: number) => new Date(Date.parse(iso) + days * DAY).toISOString();

/**
 * Requests not yet erased that are due by `at` (default now): received ones by their receipt,
 * never-received ones by their submission. Oldest due first, at most `limit`.
 */
export async function dueRequests(
  db: Db,
  config: Pick<Config, 'retentionReceivedDays' | 'retentionUnreceivedDays'>,
  at: Date,
  limit: number,
  opts: { unreceivedOnly?: boolean } = {},
): Promise<DueRequest[]> {
  const unreceived = (eb: ExpressionBuilder<Database, 'requests'>) =>
    eb.and([
      eb('received_at', 'is', null),
      eb('created_at', '<=', daysBefore(at, config.retentionUnreceivedDays)),
    ]);
  const rows = await db.kysely
    .selectFrom('requests')
    .select(['reference', 'status', 'created_at', 'received_at'])
    .where('erased_at', 'is', null)
    .where((eb) =>
      opts.unreceivedOnly
        ? unreceived(eb)
        : eb.or([
            eb.and([
              eb('received_at', 'is not', null),
              eb('received_at', '<=', daysBefore(at, config.retentionReceivedDays)),
            ]),
            unreceived(eb),
          ]),
    )
    .orderBy('created_at')
    .limit(limit)
    .execute();
  return rows.map((r) =>
    r.received_at
      ? {
          reference: r.reference,
          reason: 'received',
          due_at: daysAfter(r.received_at, config.retentionReceivedDays),
        }
      : {
          reference: r.reference,
          reason: 'unreceived',
          due_at: daysAfter(r.created_at, config.retentionUnreceivedDays),
        },
  );
}

/** Never-received requests whose personal data goes within `withinDays` (`ros-admin requests overdue`). */
export function overdueRequests(
  db: Db,
  config: Pick<Config, 'retentionReceivedDays' | 'retentionUnreceivedDays'>,
  withinDays: number,
  now: Date = new Date(),
  limit = 1000,
): Promise<DueRequest[]> {
  // Received ones are handled; only the never-received are overdue.
  return dueRequests(db, config, new Date(now.getTime() + withinDays * DAY), limit, { unreceivedOnly: true });
}
