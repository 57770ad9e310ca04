import { sql, type Transaction } from 'kysely';
import type { Db } from '../../db/database.js';
import type { Database } from '../../db/schema.js';

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

/**
 * The tables with personal data, in two groups, each rewritten when an erasure or deletion in it
 * is owed: the requests and what hangs on them (a purge), and the register's persons (a person
 * deleted or replaced: intake, the persons file). Each group's debt is a row in `leases`.
 */
const REWRITTEN = {
  requests: {
    lease: 'vacuum-owed',
    tables: ['requests', 'request_mails', 'sso_sessions', 'request_status_history', 'status_notices'],
  },
  register: { lease: 'vacuum-owed-register', tables: ['persons', 'person_documents'] },
} as const;
export type ErasedGroup = keyof typeof REWRITTEN;

type Executor = Db['kysely'] | Transaction<Database>;

/**
 * Notes (PostgreSQL) that rows of the group were erased, deleted or replaced: the next purge
 * rewrites its tables (`overwriteFreedSpace`). `until`: the latest such change, which a
 * transaction begun before it may still see. Runs in the caller's transaction when given one.
 * SQLite needs no note: every purge checkpoints.
 */
export async function markErased(
  db: Executor,
  dialect: Db['dialect'],
  group: ErasedGroup,
  now: Date,
): Promise<void> {
  if (dialect !== 'postgres') return;
  const { lease } = REWRITTEN[group];
  await db
    .insertInto('leases')
    .values({ name: lease, holder: 'purge', until: now.toISOString() })
    .onConflict((oc) => oc.column('name').doUpdateSet({ until: now.toISOString() }))
    .execute();
}

/**
 * SQLite's write-ahead log keeps every page a write changed, the erased values' old versions
 * included, until checkpoints recycle it (issue 33: after `ros-admin purge` on a running server
 * the -wal held the erased e-mail 6× until about 200 more submits). TRUNCATE copies the log into
 * the database file (where `secure_delete` has zeroed what was freed) and empties it. It waits
 * (busy_timeout) for another connection's read; false when that did not end, and the next
 * purge does it. Through kysely, so never inside another transaction of this connection.
 */
export async function checkpointWal(db: Db): Promise<boolean> {
  if (db.dialect !== 'sqlite') return true;
  const r = await sql<{ busy: number }>`pragma wal_checkpoint(TRUNCATE)`.execute(db.kysely);
  return Number(r.rows[0]?.busy ?? 1) === 0;
}

/**
 * Erased means erased (issues 21 and 33). SQLite zeroes what is deleted or overwritten itself
 * (`secure_delete`, db/database.ts), and each purge empties the write-ahead log (`checkpointWal`).
 * PostgreSQL never overwrites a row in place: an update or a delete leaves the old row version
 * in the table's file until VACUUM, and VACUUM only marks its space free: the bytes stay until
 * new rows happen to cover them (measured by intake/erasure.test.ts: the erased e-mail was still
 * in the table's file after UPDATE, VACUUM and CHECKPOINT; a deleted register person's two
 * versions stayed in `persons`). VACUUM FULL writes the live rows to new files and drops the
 * old ones, so each group with an erasure owed (`markErased`) is rewritten. It locks each table
 * while it copies it (docs/intake.md "Retention" has the times); `lock_timeout` keeps it from
 * queueing submissions behind a long transaction. A rewrite that did not happen (the lock, a
 * crash, an older transaction) stays owed in `leases` and the next run does it.
 */
export async function overwriteFreedSpace(db: Db): Promise<void> {
  if (db.dialect !== 'postgres') {
    await checkpointWal(db);
    return;
  }
  for (const { lease, tables } of Object.values(REWRITTEN)) await rewrite(db, lease, tables);
}

async function rewrite(db: Db, lease: string, tables: readonly string[]): Promise<void> {
  const owed = await db.kysely
    .selectFrom('leases')
    .select('until')
    .where('name', '=', lease)
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
      for (const table of tables) await sql`vacuum full ${sql.table(table)}`.execute(conn);
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
  await db.kysely.deleteFrom('leases').where('name', '=', lease).where('until', '=', owed.until).execute();
}
