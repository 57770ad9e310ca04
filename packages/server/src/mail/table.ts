import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.js';

/** Table request_mails (migration 0004): one confirmation e-mail per request; see mail/queue.ts. */
export interface RequestMailTable {
  request_id: string;
  status: string;
  attempts: number;
  next_attempt_at: string;
  last_error: string | null;
  sent_at: string | null;
  created_at: string;
}

export type MailDb = Kysely<Database & { request_mails: RequestMailTable }>;
export const mailTables = (db: Kysely<Database> | Transaction<Database>) =>
  (db as Kysely<Database>).withTables<{ request_mails: RequestMailTable }>();

export async function enqueueMail(trx: Transaction<Database>, requestId: string, now: Date): Promise<void> {
  await mailTables(trx)
    .insertInto('request_mails')
    .values({
      request_id: requestId,
      status: 'pending',
      attempts: 0,
      next_attempt_at: now.toISOString(),
      last_error: null,
      sent_at: null,
      created_at: now.toISOString(),
    })
    .execute();
}
