import type { Kysely, Migration } from 'kysely';
import type { DialectName } from './database.js';

/**
 * The search's match tokens (issue 11): the proof that a search found a register person, which
 * the browser sends back with validate and submit (requests/matchToken.ts, docs/register.md).
 * Only the token's sha256 is kept; the table is shared by every instance of the portal.
 */
export function searchMatchMigrations(_dialect: DialectName): Record<string, Migration> {
  return {
    '0005_search_matches': {
      // biome-ignore lint/suspicious/noExplicitAny: migrations work on any schema
      async up(db: Kysely<any>) {
        await db.schema
          .createTable('search_matches')
          .addColumn('token_hash', 'varchar(64)', (c) => c.primaryKey())
          .addColumn('person_id', 'integer', (c) => c.notNull())
          .addColumn('created_at', 'varchar(40)', (c) => c.notNull())
          .addColumn('expires_at', 'varchar(40)', (c) => c.notNull())
          .execute();
        await db.schema
          .createIndex('search_matches_expiry')
          .on('search_matches')
          .column('expires_at')
          .execute();
      },
    },
  };
}
