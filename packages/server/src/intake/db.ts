import type { Kysely, Transaction } from 'kysely';
import type { Db } from '../db/database.js';
import type { Database, RequestIntakeColumns, RequestTable } from '../db/schema.js';

/** The database with `requests` as migration 0007 left it (schema.ts RequestIntakeColumns). */
export type IntakeDatabase = Database & { requests: RequestTable & RequestIntakeColumns };

export const intakeDb = (db: Db | Kysely<Database> | Transaction<Database>): Kysely<IntakeDatabase> =>
  ('kysely' in db ? db.kysely : (db as Kysely<Database>)).withTables<{
    requests: RequestTable & RequestIntakeColumns;
  }>();

/** ROS-YYYY-NNNNNN (numbers past 999999 get longer: requests/repository.ts formatReference). */
export const REFERENCE_PATTERN = /^ROS-[0-9]{4}-[0-9]{6,9}$/;

/** A reference as typed or scanned (any case, spaces around); null when it cannot be one. */
export function parseReference(s: string): string | null {
  const r = s.trim().toUpperCase();
  return REFERENCE_PATTERN.test(r) ? r : null;
}
