import type { Kysely, Migration } from 'kysely';
import type { DialectName } from './database.js';

/**
 * A search's match token links one request only (issue 21): `request_id` is the request that
 * spent it, set in the transaction that stores that request (requests/store.ts). A spent token
 * proves its person again only to a retry of that same request (its Idempotency-Key).
 */
export function spentMatchMigrations(_dialect: DialectName): Record<string, Migration> {
  return {
    '0010_spent_matches': {
      // biome-ignore lint/suspicious/noExplicitAny: migrations work on any schema
      async up(db: Kysely<any>) {
        await db.schema.alterTable('search_matches').addColumn('request_id', 'varchar(40)').execute();
      },
    },
  };
}
