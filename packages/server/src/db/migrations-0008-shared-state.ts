import type { Kysely, Migration } from 'kysely';
import type { DialectName } from './database.js';

/**
 * State that every instance behind a load balancer must share (docs/OPERATIONS.md): the local
 * NIA-like provider's sessions, codes and tokens, and secrets made once per database (the test
 * provider's keys). Typed in db/schema.ts; used by nia/testProviderStore.ts.
 */
export function sharedStateMigrations(_dialect: DialectName): Record<string, Migration> {
  return {
    '0008_shared_state': {
      // biome-ignore lint/suspicious/noExplicitAny: migrations work on any schema
      async up(db: Kysely<any>) {
        await db.schema
          .createTable('nia_test_provider_state')
          .addColumn('model', 'varchar(40)', (c) => c.notNull())
          .addColumn('id', 'varchar(200)', (c) => c.notNull())
          .addColumn('payload', 'text', (c) => c.notNull())
          .addColumn('grant_id', 'varchar(200)')
          .addColumn('user_code', 'varchar(200)')
          .addColumn('uid', 'varchar(200)')
          // Milliseconds since 1970; null = no expiry.
          .addColumn('expires_at', 'bigint')
          .addColumn('consumed_at', 'bigint')
          .addPrimaryKeyConstraint('nia_test_provider_state_pk', ['model', 'id'])
          .execute();
        await db.schema
          .createIndex('nia_test_provider_state_uid')
          .on('nia_test_provider_state')
          .columns(['model', 'uid'])
          .execute();
        await db.schema
          .createIndex('nia_test_provider_state_grant')
          .on('nia_test_provider_state')
          .column('grant_id')
          .execute();
        await db.schema
          .createTable('shared_secrets')
          .addColumn('name', 'varchar(80)', (c) => c.primaryKey())
          .addColumn('value', 'text', (c) => c.notNull())
          .addColumn('created_at', 'varchar(40)', (c) => c.notNull())
          .execute();
      },
    },
  };
}
