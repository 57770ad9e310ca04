import { type Kysely, type Migration, type MigrationProvider, Migrator, sql } from 'kysely';
import type { DialectName } from './database.js';
import { niaMigrations } from './migrations-0004-nia.js';
import { searchMatchMigrations } from './migrations-0005-search-matches.js';
import { demoMarkerMigrations } from './migrations-0006-demo.js';
import { intakeMigrations } from './migrations-0007-intake.js';
import { sharedStateMigrations } from './migrations-0008-shared-state.js';
import { sharedLimitMigrations } from './migrations-0009-shared-limits.js';
import { spentMatchMigrations } from './migrations-0010-spent-matches.js';
import { legalTextMigrations } from './migrations-0012-legal-texts.js';
import { requestStatusMigrations } from './migrations-0013-request-status.js';
import { consoleMigrations } from './migrations-0014-console.js';

/**
 * One set of migrations for SQLite and PostgreSQL. Add a new entry for every change;
 * never edit one that has shipped. Names sort in the order they run.
 */
function migrations(dialect: DialectName): Record<string, Migration> {
  const autoId = dialect === 'postgres' ? 'serial' : 'integer';
  return {
    '0001_initial': {
      // biome-ignore lint/suspicious/noExplicitAny: migrations work on any schema
      async up(db: Kysely<any>) {
        await db.schema
          .createTable('countries')
          .addColumn('code', 'varchar(8)', (c) => c.primaryKey())
          .addColumn('code_csu', 'varchar(8)', (c) => c.notNull())
          .addColumn('name_cz', 'varchar(200)', (c) => c.notNull())
          .addColumn('name_en', 'varchar(200)', (c) => c.notNull())
          .execute();
        await db.schema
          .createTable('districts')
          .addColumn('code', 'varchar(16)', (c) => c.primaryKey())
          .addColumn('name', 'varchar(240)', (c) => c.notNull())
          .execute();
        await db.schema
          .createTable('municipalities')
          .addColumn('code', 'varchar(16)', (c) => c.primaryKey())
          .addColumn('name', 'varchar(240)', (c) => c.notNull())
          .addColumn('long_name', 'varchar(240)', (c) => c.notNull())
          .addColumn('district', 'varchar(16)', (c) => c.notNull())
          .execute();
        await db.schema
          .createTable('code_lists')
          .addColumn('list', 'varchar(40)', (c) => c.notNull())
          .addColumn('code', 'varchar(40)', (c) => c.notNull())
          .addColumn('name_cz', 'varchar(240)', (c) => c.notNull())
          .addColumn('name_en', 'varchar(240)', (c) => c.notNull())
          .addColumn('disabled', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
          .addPrimaryKeyConstraint('code_lists_pk', ['list', 'code'])
          .execute();
        await db.schema
          .createTable('reference_imports')
          .addColumn('source', 'varchar(40)', (c) => c.primaryKey())
          .addColumn('imported_at', 'varchar(40)', (c) => c.notNull())
          .addColumn('detail', 'text', (c) => c.notNull())
          .execute();
        await db.schema
          .createTable('persons')
          .addColumn('id', autoId, (c) =>
            dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
          )
          .addColumn('data', 'text', (c) => c.notNull())
          .addColumn('first_name_norm', 'varchar(100)', (c) => c.notNull())
          .addColumn('last_name_norm', 'varchar(100)', (c) => c.notNull())
          .addColumn('birth_number_norm', 'varchar(16)')
          .addColumn('birth_date', 'varchar(10)')
          .addColumn('nia_identifier', 'varchar(200)', (c) => c.unique())
          .addColumn('aifo', 'varchar(100)')
          .addColumn('created_at', 'varchar(40)', (c) => c.notNull())
          .execute();
        await db.schema
          .createIndex('persons_birth_number')
          .on('persons')
          .column('birth_number_norm')
          .execute();
        await db.schema
          .createTable('person_documents')
          .addColumn('person_id', 'integer', (c) => c.notNull().references('persons.id').onDelete('cascade'))
          .addColumn('type', 'varchar(16)', (c) => c.notNull())
          .addColumn('number_norm', 'varchar(240)', (c) => c.notNull())
          .addPrimaryKeyConstraint('person_documents_pk', ['type', 'number_norm', 'person_id'])
          .execute();
        await db.schema
          .createTable('records')
          .addColumn('id', 'bigint', (c) => c.primaryKey())
          .addColumn('person_id', 'integer', (c) => c.references('persons.id').onDelete('set null'))
          .addColumn('stav', 'varchar(8)', (c) => c.notNull())
          .addColumn('platnost_do', 'varchar(10)', (c) => c.notNull())
          .addColumn('a1a3_valid_until', 'varchar(10)')
          .addColumn('a2_valid_until', 'varchar(10)')
          .addColumn('first_name', 'varchar(100)', (c) => c.notNull())
          .addColumn('last_name', 'varchar(100)', (c) => c.notNull())
          .addColumn('created_at', 'varchar(40)', (c) => c.notNull())
          .addColumn('revoked_at', 'varchar(40)')
          .execute();
        await db.schema.createIndex('records_person').on('records').column('person_id').execute();
        await db.schema
          .createTable('requests')
          .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
          .addColumn('reference', 'varchar(40)', (c) => c.notNull().unique())
          .addColumn('language', 'varchar(4)', (c) => c.notNull())
          .addColumn('duplicate', 'integer', (c) => c.notNull())
          .addColumn('via_nia', 'integer', (c) => c.notNull())
          .addColumn('payload', 'text', (c) => c.notNull())
          .addColumn('person_key', 'varchar(200)')
          .addColumn('idempotency_key', 'varchar(200)', (c) => c.unique())
          .addColumn('body_hash', 'varchar(64)', (c) => c.notNull())
          .addColumn('created_at', 'varchar(40)', (c) => c.notNull())
          .execute();
        await db.schema
          .createIndex('requests_person')
          .on('requests')
          .columns(['person_key', 'created_at'])
          .execute();
        await db.schema
          .createTable('counters')
          .addColumn('name', 'varchar(40)', (c) => c.primaryKey())
          .addColumn('value', 'integer', (c) => c.notNull())
          .execute();
        await sql`select 1`.execute(db);
      },
    },
    '0002_bot_check_replay': {
      // biome-ignore lint/suspicious/noExplicitAny: migrations work on any schema
      async up(db: Kysely<any>) {
        // A bot-check solution is accepted once: its hash is kept until it would have expired anyway.
        await db.schema
          .createTable('used_bot_tokens')
          .addColumn('token_hash', 'varchar(64)', (c) => c.primaryKey())
          .addColumn('expires_at', 'varchar(40)', (c) => c.notNull())
          .execute();
        await db.schema
          .createIndex('used_bot_tokens_expiry')
          .on('used_bot_tokens')
          .column('expires_at')
          .execute();
      },
    },
    '0003_records_version': {
      // biome-ignore lint/suspicious/noExplicitAny: migrations work on any schema
      async up(db: Kysely<any>) {
        // A counter that every change of `records` moves on, however it is made (ros-admin, a
        // register import, plain SQL): the server keeps the validity answers in memory and reloads
        // them when it sees the counter move (records/validityIndex.ts).
        await db.schema
          .createTable('records_version')
          .addColumn('id', 'integer', (c) => c.primaryKey())
          .addColumn('version', 'bigint', (c) => c.notNull())
          .execute();
        await db.insertInto('records_version').values({ id: 1, version: 0 }).execute();
        if (dialect === 'postgres') {
          await sql`create function records_version_bump() returns trigger language plpgsql as $$
            begin
              update records_version set version = version + 1 where id = 1;
              return null;
            end $$`.execute(db);
          await sql`create trigger records_version_bump
            after insert or update or delete or truncate on records
            for each statement execute function records_version_bump()`.execute(db);
        } else {
          for (const event of ['insert', 'update', 'delete']) {
            await sql`${sql.raw(`create trigger records_version_${event} after ${event} on records`)}
              begin update records_version set version = version + 1 where id = 1; end`.execute(db);
          }
        }
      },
    },
    ...niaMigrations(dialect),
    ...searchMatchMigrations(dialect),
    ...demoMarkerMigrations(dialect),
    ...intakeMigrations(dialect),
    ...sharedStateMigrations(dialect),
    ...sharedLimitMigrations(dialect),
    ...spentMatchMigrations(dialect),
    ...legalTextMigrations(dialect),
    ...requestStatusMigrations(dialect),
    ...consoleMigrations(dialect),
  };
}

// biome-ignore lint/suspicious/noExplicitAny: migrations work on any schema
async function migratorFor(db: Kysely<any>, dialect: DialectName): Promise<Migrator> {
  const provider: MigrationProvider = { getMigrations: async () => migrations(dialect) };
  // On PostgreSQL keep Kysely's bookkeeping tables in the schema the connection works in
  // (search_path), so that several schemas in one database do not see each other's history.
  let migrationTableSchema: string | undefined;
  if (dialect === 'postgres') {
    const r = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
    migrationTableSchema = r.rows[0]?.schema;
  }
  return new Migrator({ db, provider, migrationTableSchema });
}

// biome-ignore lint/suspicious/noExplicitAny: migrations work on any schema
export async function migrateToLatest(db: Kysely<any>, dialect: DialectName): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const migrator = await migratorFor(db, dialect);
    const { error, results } = await migrator.migrateToLatest();
    const failed = results?.find((r) => r.status === 'Error');
    if (!error && !failed) return;
    if (attempt < 3 && (await anotherSchemaVanished(db, dialect, error))) continue;
    throw new Error(`Database migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
  }
}

/**
 * Kysely's migrator reads the catalogue of every schema in the database (introspection of its
 * own tables); a schema that another user of the database drops meanwhile fails that read with
 * "schema … does not exist", or "relation <schema>.<table> does not exist" for a table of it
 * (seen when test files or test runs share one PostgreSQL database). The
 * migration ran in a transaction and changed nothing: it is tried again.
 *
 * The read also asks `pg_get_serial_sequence(<schema>.<table>, <column>)` of every column it
 * listed; that looks the names up again, so another user's table changed in between fails it
 * with 'column "<column>" of relation "<table>" does not exist', which does not name the schema
 * (seen in CI: 'column "a2_valid_until" of relation "records"' while a fresh test schema was
 * migrated beside the others). It is tried again too: an error of its own migration would come
 * back on every try, and the last one throws it.
 */
export async function anotherSchemaVanished(
  // biome-ignore lint/suspicious/noExplicitAny: migrations work on any schema
  db: Kysely<any>,
  dialect: DialectName,
  error: unknown,
): Promise<boolean> {
  if (dialect !== 'postgres') return false;
  // A column looked up again by name (above): no schema to tell whose it was.
  if (/column "[^"]+" of relation "[^"]+" does not exist/.test(String(error))) return true;
  // The schema itself, or one of its tables read while the schema went ('relation
  // "t_….request_mails" does not exist', seen in CI with the server's test files side by side).
  const m = /(?:schema "([^"]+)"|relation "([^".]+)\.[^"]+") does not exist/.exec(String(error));
  const gone = m?.[1] ?? m?.[2];
  if (!gone) return false;
  const r = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
  return gone !== r.rows[0]?.schema;
}

/** How many migrations this version knows that the database has not run (readiness). */
// biome-ignore lint/suspicious/noExplicitAny: migrations work on any schema
export async function pendingMigrations(db: Kysely<any>, dialect: DialectName): Promise<number> {
  const migrator = await migratorFor(db, dialect);
  return (await migrator.getMigrations()).filter((m) => m.executedAt === undefined).length;
}
