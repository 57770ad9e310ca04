import type { Kysely, Migration } from 'kysely';
import type { DialectName } from './database.js';

/**
 * The authority's side (docs/intake.md): intake API tokens, the audit trail, leases for work
 * that one instance of a group does (the purge), and the columns a request needs to be handed
 * over and forgotten on time (status, received_at, erased_at, the NIA person identifier).
 * Typed in db/schema.ts.
 */
export function intakeMigrations(dialect: DialectName): Record<string, Migration> {
  const autoId = dialect === 'postgres' ? 'bigserial' : 'integer';
  return {
    '0007_intake': {
      // biome-ignore lint/suspicious/noExplicitAny: migrations work on any schema
      async up(db: Kysely<any>) {
        // 'new' until the authority marks it received; erased_at once its personal data is gone.
        await db.schema
          .alterTable('requests')
          .addColumn('status', 'varchar(16)', (c) => c.notNull().defaultTo('new'))
          .execute();
        await db.schema.alterTable('requests').addColumn('received_at', 'varchar(40)').execute();
        await db.schema.alterTable('requests').addColumn('erased_at', 'varchar(40)').execute();
        await db.schema.alterTable('requests').addColumn('nia_identifier', 'varchar(200)').execute();
        // The intake list pages by (created_at, reference); the purge looks for what is due.
        await db.schema
          .createIndex('requests_created_reference')
          .on('requests')
          .columns(['created_at', 'reference'])
          .execute();
        await db.schema
          .createIndex('requests_retention')
          .on('requests')
          .columns(['erased_at', 'status', 'received_at'])
          .execute();

        // A token is shown once; only its sha256 is kept. Revoked tokens stay (name is not reused).
        await db.schema
          .createTable('intake_tokens')
          .addColumn('name', 'varchar(64)', (c) => c.primaryKey())
          .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
          .addColumn('scopes', 'varchar(200)', (c) => c.notNull())
          .addColumn('created_at', 'varchar(40)', (c) => c.notNull())
          .addColumn('created_by', 'varchar(100)', (c) => c.notNull())
          .addColumn('last_used_at', 'varchar(40)')
          .addColumn('revoked_at', 'varchar(40)')
          .execute();

        // Who did what to which request or register entry, and when; never personal data.
        await db.schema
          .createTable('audit_log')
          .addColumn('id', autoId, (c) =>
            dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
          )
          .addColumn('at', 'varchar(40)', (c) => c.notNull())
          .addColumn('actor', 'varchar(120)', (c) => c.notNull())
          .addColumn('action', 'varchar(40)', (c) => c.notNull())
          .addColumn('target', 'varchar(60)')
          .addColumn('outcome', 'varchar(16)', (c) => c.notNull())
          .addColumn('detail', 'varchar(200)')
          .execute();
        await db.schema.createIndex('audit_log_at').on('audit_log').column('at').execute();
        await db.schema.createIndex('audit_log_target').on('audit_log').column('target').execute();

        // One row per job that one instance of a group runs at a time: whoever moves `until` on
        // first (a conditional upsert) runs it.
        await db.schema
          .createTable('leases')
          .addColumn('name', 'varchar(40)', (c) => c.primaryKey())
          .addColumn('holder', 'varchar(100)', (c) => c.notNull())
          .addColumn('until', 'varchar(40)', (c) => c.notNull())
          .execute();
      },
    },
  };
}
