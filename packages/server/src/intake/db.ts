import type { Kysely, Transaction } from 'kysely';
import type { Db } from '../db/database.js';
import type { Database, RequestIntakeColumns, RequestTable } from '../db/schema.js';

/** The database with `requests` as migration 0007 left it (schema.ts RequestIntakeColumns). */
export type IntakeDatabase = Database & { requests: RequestTable & RequestIntakeColumns };

export const intakeDb = (db: Db | Kysely<Database> | Transaction<Database>): Kysely<IntakeDatabase> =>
  ('kysely' in db ? db.kysely : (db as Kysely<Database>)).withTables<{
    requests: RequestTable & RequestIntakeColumns;
  }>();
