import { storedFormValues } from '@ros/domain';
import { type Kysely, type Migration, sql } from 'kysely';
import { searchKeysOf } from '../requests/searchKeys.js';
import type { DialectName } from './database.js';

/**
 * The authority's console (issue 38, docs/console.md):
 * - `console_sessions`: the staff's sessions, keyed by the sha256 of the cookie value, with the
 *   staff member's subject, display name and role, and the session's CSRF token.
 * - `requests.search_name`, `birth_date`, `birth_number_key` (requests/searchKeys.ts): what the
 *   queue's search reads through indexes; filled here for the requests still holding personal
 *   data, null after erasure. The queue's own index: status, then oldest first.
 * - `request_status_history.correction`: 1 on a row that corrects a decision (intake/correction.ts);
 *   its note is the reason, shown to the applicant.
 * Typed in db/schema.ts.
 */
export function consoleMigrations(dialect: DialectName): Record<string, Migration> {
  return {
    '0014_console': {
      // biome-ignore lint/suspicious/noExplicitAny: migrations work on any schema
      async up(db: Kysely<any>) {
        await db.schema
          .createTable('console_sessions')
          .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
          .addColumn('subject', 'varchar(200)', (c) => c.notNull())
          .addColumn('name', 'varchar(200)', (c) => c.notNull())
          .addColumn('role', 'varchar(16)', (c) => c.notNull())
          .addColumn('csrf', 'varchar(64)', (c) => c.notNull())
          .addColumn('created_at', 'varchar(40)', (c) => c.notNull())
          .addColumn('last_seen_at', 'varchar(40)', (c) => c.notNull())
          .addColumn('expires_at', 'varchar(40)', (c) => c.notNull())
          .execute();
        await db.schema
          .createIndex('console_sessions_expires')
          .on('console_sessions')
          .column('expires_at')
          .execute();
        // Byte order on PostgreSQL whatever the database's collation: the name search is a range
        // read of a prefix (console/search.ts), which a linguistic collation (cs_CZ: "ch" after
        // "h", spaces ignored) would cut short. SQLite compares bytes already.
        await db.schema
          .alterTable('requests')
          .addColumn('search_name', 'varchar(200)', (c) =>
            dialect === 'postgres' ? c.modifyEnd(sql`collate "C"`) : c,
          )
          .execute();
        await db.schema.alterTable('requests').addColumn('birth_date', 'varchar(10)').execute();
        await db.schema.alterTable('requests').addColumn('birth_number_key', 'varchar(64)').execute();
        await db.schema
          .alterTable('request_status_history')
          .addColumn('correction', 'integer', (c) => c.notNull().defaultTo(0))
          .execute();
        // Filled in pages of 500 (a large register is not read into memory at once).
        let after = '';
        for (;;) {
          const rows: Array<{ id: string; payload: string }> = await db
            .selectFrom('requests')
            .select(['id', 'payload'])
            .where('erased_at', 'is', null)
            .where('id', '>', after)
            .orderBy('id')
            .limit(500)
            .execute();
          for (const r of rows) {
            let keys: ReturnType<typeof searchKeysOf>;
            try {
              keys = searchKeysOf(storedFormValues(r.payload));
            } catch {
              continue;
            }
            await db.updateTable('requests').set(keys).where('id', '=', r.id).execute();
          }
          const last = rows[rows.length - 1];
          if (!last || rows.length < 500) break;
          after = last.id;
        }
        await db.schema
          .createIndex('requests_queue')
          .on('requests')
          .columns(['status', 'created_at', 'reference'])
          .execute();
        await db.schema
          .createIndex('requests_search_name')
          .on('requests')
          .columns(['search_name', 'birth_date'])
          .execute();
        await db.schema
          .createIndex('requests_birth_number_key')
          .on('requests')
          .column('birth_number_key')
          .execute();
      },
    },
  };
}
