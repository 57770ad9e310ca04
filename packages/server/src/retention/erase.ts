import { type ExpressionBuilder, sql, type Transaction } from 'kysely';
import type { Db } from '../db/database.js';
import type { Database } from '../db/schema.js';

/**
 * Erasing a request's personal data (docs/intake.md "Retention"): the row keeps its reference,
 * dates, channel, language and kind; what hangs on it with personal data goes with it. An
 * erased request that still holds some (a note the old code stored after the erasure, issue 36)
 * is erased again to the same state. Then, on PostgreSQL, the freed space is overwritten (issue 21).
 */

/**
 * Rows that hang on a request and go with its personal data: its confirmation e-mail (the mail
 * row would make the queue build a PDF of nothing; its body is gone with the request) and its
 * status notifications not yet sent (they go with the address they were for, docs/status.md).
 */
const DELETED_WITH_REQUEST = ['request_mails', 'status_notices'] as const;

/** What erasing leaves in a request's own row: no form, person key, idempotency key, body hash or NIA identifier. */
const ERASED_ROW = {
  payload: '{}',
  person_key: null,
  idempotency_key: null,
  body_hash: '',
  nia_identifier: null,
  // The console's search keys (migration 0014, requests/searchKeys.ts).
  search_name: null,
  birth_date: null,
  birth_number_key: null,
} as const;

/**
 * Clears what hangs on these requests (in the caller's transaction): deletes the rows of
 * DELETED_WITH_REQUEST; the history keeps each status and its time, not the authority's note
 * or the certificate.
 */
async function clearWhatHangsOn(trx: Transaction<Database>, ids: string[]): Promise<void> {
  for (const table of DELETED_WITH_REQUEST)
    await trx.deleteFrom(table).where('request_id', 'in', ids).execute();
  await trx
    .updateTable('request_status_history')
    .set({ note: null, certificate: null })
    .where('request_id', 'in', ids)
    .where((eb) => eb.or([eb('note', 'is not', null), eb('certificate', 'is not', null)]))
    .execute();
}

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
    await clearWhatHangsOn(trx, ids);
    await trx
      .updateTable('requests')
      .set({ ...ERASED_ROW, erased_at: now.toISOString() })
      .where('id', 'in', ids)
      .where('erased_at', 'is', null)
      .execute();
    return rows.map((r) => r.reference);
  });
}

/**
 * An erased request that still holds personal data (issue 36, point 7): a note or a certificate
 * id in its history, a confirmation-mail or notification row, or a value of its own row that
 * `eraseRequests` clears. Before a note on an erased request was refused (410) the old code
 * stored it, and the purge, looking only at requests not yet erased, never came back to it.
 * Uncorrelated `in` subqueries: each table is read once per query (SQLite builds a temporary
 * index of each, PostgreSQL a hash), not once per erased request.
 */
const stillHolds = (eb: ExpressionBuilder<Database, 'requests'>) =>
  eb.or([
    eb('requests.payload', '<>', ERASED_ROW.payload),
    eb('requests.person_key', 'is not', null),
    eb('requests.idempotency_key', 'is not', null),
    eb('requests.body_hash', '<>', ERASED_ROW.body_hash),
    eb('requests.nia_identifier', 'is not', null),
    eb('requests.search_name', 'is not', null),
    eb('requests.birth_date', 'is not', null),
    eb('requests.birth_number_key', 'is not', null),
    eb(
      'requests.id',
      'in',
      eb
        .selectFrom('request_status_history')
        .select('request_status_history.request_id')
        .where((h) =>
          h.or([
            h('request_status_history.note', 'is not', null),
            h('request_status_history.certificate', 'is not', null),
          ]),
        ),
    ),
    ...DELETED_WITH_REQUEST.map((table) =>
      eb('requests.id', 'in', eb.selectFrom(table).select(`${table}.request_id`)),
    ),
  ]);

/**
 * Erased requests that still hold personal data (`stillHolds`), by id, at most `limit` of those
 * after `afterId` (the keyset of the purge's batches).
 */
export async function erasedStillHolding(
  db: Db,
  limit: number,
  afterId = '',
): Promise<Array<{ id: string; reference: string }>> {
  return db.kysely
    .selectFrom('requests')
    .select(['requests.id', 'requests.reference'])
    .where('requests.erased_at', 'is not', null)
    .where('requests.id', '>', afterId)
    .where(stillHolds)
    .orderBy('requests.id')
    .limit(limit)
    .execute();
}

/**
 * Erases again what these erased requests still hold, leaving each as `eraseRequests` leaves a
 * request (its `erased_at` stays the first erasure's); the references of those it found still
 * holding some (checked again in the transaction).
 */
export async function eraseAgain(db: Db, ids: string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  return db.kysely.transaction().execute(async (trx) => {
    const rows = await trx
      .selectFrom('requests')
      .select(['requests.id', 'requests.reference'])
      .where('requests.id', 'in', ids)
      .where('requests.erased_at', 'is not', null)
      .where(stillHolds)
      .execute();
    if (rows.length === 0) return [];
    const again = rows.map((r) => r.id);
    await clearWhatHangsOn(trx, again);
    await trx
      .updateTable('requests')
      .set(ERASED_ROW)
      .where('id', 'in', again)
      .where('erased_at', 'is not', null)
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
 * transaction begun before it may still see. `holder`: `xid:` and the id of the noting
 * transaction, the erasing one or one begun after it committed (the rewrite waits until every
 * transaction of the cluster older than that id has ended). Runs in the caller's transaction
 * when given one. SQLite needs no note: every purge checkpoints.
 */
export async function markErased(
  db: Executor,
  dialect: Db['dialect'],
  group: ErasedGroup,
  now: Date,
): Promise<void> {
  if (dialect !== 'postgres') return;
  const { lease } = REWRITTEN[group];
  const holder = sql<string>`'xid:' || pg_current_xact_id()::text`;
  await db
    .insertInto('leases')
    .values({ name: lease, holder, until: now.toISOString() })
    .onConflict((oc) => oc.column('name').doUpdateSet({ holder, until: now.toISOString() }))
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
 * new rows happen to cover them (measured by retention/erasure.test.ts: the erased e-mail was still
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
    .select(['until', 'holder'])
    .where('name', '=', lease)
    .executeTakeFirst();
  if (!owed) return;
  if (!(await nothingStillSees(db, owed))) return;
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
  await db.kysely
    .deleteFrom('leases')
    .where('name', '=', lease)
    .where('until', '=', owed.until)
    .where('holder', '=', owed.holder)
    .execute();
}

/**
 * Whether VACUUM FULL would now drop the erased row versions: it keeps every version a running
 * transaction may still see, and a rewrite under one copies the erased values into the new
 * file and the debt is marked paid. Two ways one can:
 * - a transaction of this database holding a snapshot (a pg_dump running, a long report, an
 *   autovacuum worker's analyze). A snapshot, not a start time: `until` is the purge's clock
 *   before its erasure committed, and a transaction begun between the two saw the old rows;
 * - a write begun in any database of the cluster before the erasure: transaction ids are the
 *   cluster's, and VACUUM FULL's own snapshot counts it as running, so the erasing transaction
 *   is not yet old enough for it (reproduced with psql; issue 39). The snapshot's xmin, the
 *   oldest id still running, must be past the noting transaction's (`markErased`). A debt noted
 *   before the id was kept (`holder` 'purge') has only the first check.
 */
async function nothingStillSees(db: Db, owed: { until: string; holder: string }): Promise<boolean> {
  const older = await sql<{ n: number }>`
    select count(*)::int as n from pg_stat_activity
    where datname = current_database() and pid <> pg_backend_pid()
      and (backend_xmin is not null or xact_start < ${owed.until}::timestamptz)`.execute(db.kysely);
  if ((older.rows[0]?.n ?? 0) > 0) return false;
  const xid = /^xid:(\d{1,20})$/.exec(owed.holder)?.[1];
  if (!xid) return true;
  const past = await sql<{ past: boolean }>`
    select pg_snapshot_xmin(pg_current_snapshot()) > ${xid}::xid8 as past`.execute(db.kysely);
  return past.rows[0]?.past === true;
}
