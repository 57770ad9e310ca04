import { sql } from 'kysely';
import type { Db } from '../../db/database.js';

/**
 * Erasing a request's personal data (docs/intake.md "Retention"): the row keeps its reference,
 * dates, channel, language and kind; what hangs on it with personal data goes with it. Then,
 * on PostgreSQL, the freed space is overwritten (issue 21).
 */

/**
 * Rows that hang on a request and go with its personal data: its confirmation e-mail (the mail
 * row would make the queue build a PDF of nothing; its body is gone with the request) and its
 * status notifications not yet sent (they go with the address they were for, docs/status.md).
 */
const DELETED_WITH_REQUEST = ['request_mails', 'status_notices'] as const;

/** Erases the personal data of these requests; those erased meanwhile are skipped. */
export async function eraseRequests(db: Db, references: string[], now: Date): Promise<string[]> {
  if (references.length === 0) return [];
  return db.kysely.transaction().execute(async (trx) => {
    const rows = await trx
      .selectFrom('requests')
      .select(['id', 'reference'])
      .where('reference', 'in', references)
      .where('erased_at', 'is', null)
      .execute();
    if (rows.length === 0) return [];
    const ids = rows.map((r) => r.id);
    for (const table of DELETED_WITH_REQUEST)
      await trx.deleteFrom(table).where('request_id', 'in', ids).execute();
    // The history keeps each status and its time, not the authority's note or the certificate.
    await trx
      .updateTable('request_status_history')
      .set({ note: null, certificate: null })
      .where('request_id', 'in', ids)
      .execute();
    await trx
      .updateTable('requests')
      .set({
        payload: '{}',
        person_key: null,
        idempotency_key: null,
        body_hash: '',
        nia_identifier: null,
        erased_at: now.toISOString(),
      })
      .where('id', 'in', ids)
      .where('erased_at', 'is', null)
      .execute();
    return rows.map((r) => r.reference);
  });
}

/** The tables whose rows a purge erases or deletes with personal data in them. */
const PERSONAL_TABLES = ['requests', 'request_mails', 'sso_sessions', 'request_status_history'] as const;

/** The row (in `leases`) that says a VACUUM FULL is owed: set with the erasure, cleared after it. */
const VACUUM_OWED = 'vacuum-owed';

/**
 * Erased means erased (issue 21). SQLite zeroes what is deleted or overwritten itself
 * (`secure_delete`, db/database.ts). PostgreSQL never overwrites a row in place: an update or a
 * delete leaves the old row version in the table's file until VACUUM, and VACUUM only marks its
 * space free: the bytes stay until new rows happen to cover them (measured by
 * intake/erasure.test.ts: the erased e-mail was still in the table's file after UPDATE, VACUUM
 * and CHECKPOINT). VACUUM FULL writes the live rows to new files and drops the old ones, so
 * after a run that erased or deleted anything the tables are rewritten. It locks each table
 * while it copies it (docs/intake.md "Retention" has the times); `lock_timeout` keeps it from
 * queueing submissions behind a long transaction. A rewrite that did not happen (the lock, a
 * crash) stays owed in `leases` and the next run does it.
 */
export async function overwriteFreedSpace(db: Db, changed: number, now: Date): Promise<void> {
  if (db.dialect !== 'postgres') return;
  if (changed > 0) {
    // `until`: the latest erasure, which a transaction begun before it may still see.
    await db.kysely
      .insertInto('leases')
      .values({ name: VACUUM_OWED, holder: 'purge', until: now.toISOString() })
      .onConflict((oc) => oc.column('name').doUpdateSet({ until: now.toISOString() }))
      .execute();
  }
  const owed = await db.kysely
    .selectFrom('leases')
    .select('until')
    .where('name', '=', VACUUM_OWED)
    .executeTakeFirst();
  if (!owed) return;
  // VACUUM FULL keeps the row versions an open transaction may still see (a pg_dump running, a
  // long report): with one begun before the erasure, the rewrite waits for a later run.
  const older = await sql<{ n: number }>`
    select count(*)::int as n from pg_stat_activity
    where datname = current_database() and pid <> pg_backend_pid()
      and xact_start < ${owed.until}::timestamptz`.execute(db.kysely);
  if ((older.rows[0]?.n ?? 0) > 0) return;
  const done = await db.kysely.connection().execute(async (conn) => {
    await sql`set lock_timeout = '5s'`.execute(conn);
    try {
      for (const table of PERSONAL_TABLES) await sql`vacuum full ${sql.table(table)}`.execute(conn);
      return true;
    } catch (err) {
      // lock_not_available: a long transaction holds a table; it stays owed.
      if ((err as { code?: unknown }).code === '55P03') return false;
      throw err;
    } finally {
      await sql`reset lock_timeout`.execute(conn);
    }
  });
  if (!done) return;
  await db.kysely
    .deleteFrom('leases')
    .where('name', '=', VACUUM_OWED)
    .where('until', '=', owed.until)
    .execute();
}
