import type { Kysely, Migration } from 'kysely';
import type { DialectName } from './database.js';

/**
 * NIA sign-in sessions and the confirmation e-mails of requests sent after NIA sign-in
 * (docs/nia.md). Both tables are typed in db/schema.ts.
 */
export function niaMigrations(_dialect: DialectName): Record<string, Migration> {
  return {
    '0004_nia_sessions_and_mail': {
      // biome-ignore lint/suspicious/noExplicitAny: migrations work on any schema
      async up(db: Kysely<any>) {
        // One row per browser: first a pending sign-in (state, nonce, PKCE verifier), then the
        // signed-in identity. The id is the sha256 of the cookie value, never the value itself.
        await db.schema
          .createTable('sso_sessions')
          .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
          .addColumn('status', 'varchar(16)', (c) => c.notNull())
          .addColumn('from_page', 'varchar(16)', (c) => c.notNull())
          .addColumn('data', 'text', (c) => c.notNull())
          .addColumn('created_at', 'varchar(40)', (c) => c.notNull())
          .addColumn('expires_at', 'varchar(40)', (c) => c.notNull())
          .execute();
        await db.schema.createIndex('sso_sessions_expiry').on('sso_sessions').column('expires_at').execute();
        // The confirmation e-mail of a request: queued in the request's own transaction, sent after.
        await db.schema
          .createTable('request_mails')
          .addColumn('request_id', 'varchar(64)', (c) =>
            c.primaryKey().references('requests.id').onDelete('cascade'),
          )
          .addColumn('status', 'varchar(16)', (c) => c.notNull())
          .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('next_attempt_at', 'varchar(40)', (c) => c.notNull())
          .addColumn('last_error', 'varchar(200)')
          .addColumn('sent_at', 'varchar(40)')
          .addColumn('created_at', 'varchar(40)', (c) => c.notNull())
          .execute();
        await db.schema
          .createIndex('request_mails_due')
          .on('request_mails')
          .columns(['status', 'next_attempt_at'])
          .execute();
      },
    },
  };
}
