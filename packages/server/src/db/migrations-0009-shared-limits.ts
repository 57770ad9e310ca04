import type { Kysely, Migration } from 'kysely';
import type { DialectName } from './database.js';

/**
 * Rate limits shared by every instance on one PostgreSQL database: the hits per client address
 * and window of the routes that @fastify/rate-limit guards (ratelimit/stores.ts), and a heartbeat
 * row per running instance (instances.ts: the validity check divides its limit among the live ones).
 */
export function sharedLimitMigrations(_dialect: DialectName): Record<string, Migration> {
  return {
    '0009_shared_limits': {
      // biome-ignore lint/suspicious/noExplicitAny: migrations work on any schema
      async up(db: Kysely<any>) {
        await db.schema
          .createTable('rate_limit_hits')
          .addColumn('key', 'varchar(300)', (c) => c.notNull())
          // Milliseconds since 1970: the window's start, and when the row may go.
          .addColumn('window_start', 'bigint', (c) => c.notNull())
          .addColumn('hits', 'integer', (c) => c.notNull())
          .addColumn('expires_at', 'bigint', (c) => c.notNull())
          .addPrimaryKeyConstraint('rate_limit_hits_pk', ['key', 'window_start'])
          .execute();
        await db.schema
          .createIndex('rate_limit_hits_expiry')
          .on('rate_limit_hits')
          .column('expires_at')
          .execute();
        await db.schema
          .createTable('instances')
          .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
          .addColumn('started_at', 'varchar(40)', (c) => c.notNull())
          .addColumn('seen_at', 'bigint', (c) => c.notNull())
          .execute();
      },
    },
  };
}
