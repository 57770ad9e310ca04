import { type Kysely, type Migration, sql } from 'kysely';
import type { DialectName } from './database.js';

/**
 * Where a request is (issue 26, docs/status.md): every status change with its time
 * (`request_status_history`: the authority's note and the certificate's validity id are erased
 * with the request's personal data, the status and time stay), and the notifications of those
 * changes the applicant asked for (`status_notices`: one row per change and channel, sent by the
 * mail queue like the confirmation e-mail, deleted with the request's personal data).
 * A request received before this migration gets its `received` row from `received_at`.
 * Typed in db/schema.ts.
 */
export function requestStatusMigrations(dialect: DialectName): Record<string, Migration> {
  const autoId = dialect === 'postgres' ? 'bigserial' : 'integer';
  return {
    '0013_request_status': {
      // biome-ignore lint/suspicious/noExplicitAny: migrations work on any schema
      async up(db: Kysely<any>) {
        await db.schema
          .createTable('request_status_history')
          .addColumn('id', autoId, (c) =>
            dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
          )
          .addColumn('request_id', 'varchar(40)', (c) => c.notNull())
          .addColumn('status', 'varchar(16)', (c) => c.notNull())
          .addColumn('at', 'varchar(40)', (c) => c.notNull())
          .addColumn('note', 'text')
          .addColumn('certificate', 'varchar(40)')
          .execute();
        await db.schema
          .createIndex('request_status_history_request')
          .on('request_status_history')
          .columns(['request_id', 'id'])
          .execute();
        await db
          .insertInto('request_status_history')
          .columns(['request_id', 'status', 'at'])
          .expression(
            db
              .selectFrom('requests')
              .select(['id', sql<string>`'received'`.as('status'), 'received_at'])
              .where('received_at', 'is not', null),
          )
          .execute();

        await db.schema
          .createTable('status_notices')
          .addColumn('id', autoId, (c) =>
            dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
          )
          .addColumn('request_id', 'varchar(40)', (c) => c.notNull())
          .addColumn('history_id', 'bigint', (c) => c.notNull())
          // 'email' or 'sms'
          .addColumn('channel', 'varchar(8)', (c) => c.notNull())
          // mail/table.ts MAIL_STATUSES
          .addColumn('status', 'varchar(16)', (c) => c.notNull())
          .addColumn('attempts', 'integer', (c) => c.notNull())
          .addColumn('next_attempt_at', 'varchar(40)', (c) => c.notNull())
          .addColumn('last_error', 'varchar(200)')
          .addColumn('sent_at', 'varchar(40)')
          .addColumn('created_at', 'varchar(40)', (c) => c.notNull())
          .addUniqueConstraint('status_notices_once', ['history_id', 'channel'])
          .execute();
        await db.schema
          .createIndex('status_notices_due')
          .on('status_notices')
          .columns(['status', 'next_attempt_at'])
          .execute();
      },
    },
  };
}
