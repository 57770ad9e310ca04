import type { Db } from '../db/database.js';
import type { CertificateRecord, ValidityRow } from './records.js';

/**
 * A certificate as loaded from a file, issued on the command line or put by the intake API:
 * the columns of `records` without the times.
 */
export type RecordInput = Omit<CertificateRecord, 'created_at' | 'revoked_at'>;

export interface SaveResult {
  inserted: number;
  updated: number;
}

/** Rows written per statement: well under SQLite's and PostgreSQL's parameter limits. */
const CHUNK = 500;

export async function findRecord(db: Db, id: number): Promise<CertificateRecord | undefined> {
  const row = await db.kysely.selectFrom('records').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) return undefined;
  return { ...row, id: Number(row.id), stav: row.stav === 'Ano' ? 'Ano' : 'Ne' };
}

/** Ids among `ids` that name no person (a record's person_id must exist). */
export async function missingPersons(db: Db, ids: readonly number[]): Promise<Set<number>> {
  const wanted = [...new Set(ids)];
  const found = new Set<number>();
  for (let i = 0; i < wanted.length; i += CHUNK) {
    const rows = await db.kysely
      .selectFrom('persons')
      .select('id')
      .where('id', 'in', wanted.slice(i, i + CHUNK))
      .execute();
    for (const r of rows) found.add(Number(r.id));
  }
  return new Set(wanted.filter((id) => !found.has(id)));
}

/**
 * Inserts new certificates and updates existing ones (same id), all in one transaction: either the
 * whole set is stored or nothing is. An update keeps `created_at` and `revoked_at`: a certificate
 * revoked here stays revoked even when a later register export still lists it as 'Ano'.
 */
export async function saveRecords(
  db: Db,
  records: readonly RecordInput[],
  now: Date = new Date(),
): Promise<SaveResult> {
  const createdAt = now.toISOString();
  return db.kysely.transaction().execute(async (trx) => {
    const existing = new Set<number>();
    const ids = records.map((r) => r.id);
    for (let i = 0; i < ids.length; i += CHUNK) {
      const rows = await trx
        .selectFrom('records')
        .select('id')
        .where('id', 'in', ids.slice(i, i + CHUNK))
        .execute();
      for (const r of rows) existing.add(Number(r.id));
    }
    for (let i = 0; i < records.length; i += CHUNK) {
      const chunk = records
        .slice(i, i + CHUNK)
        .map((r) => ({ ...r, created_at: createdAt, revoked_at: null }));
      await trx
        .insertInto('records')
        .values(chunk)
        .onConflict((oc) =>
          oc.column('id').doUpdateSet((eb) => ({
            person_id: eb.ref('excluded.person_id'),
            stav: eb.ref('excluded.stav'),
            platnost_do: eb.ref('excluded.platnost_do'),
            a1a3_valid_until: eb.ref('excluded.a1a3_valid_until'),
            a2_valid_until: eb.ref('excluded.a2_valid_until'),
            first_name: eb.ref('excluded.first_name'),
            last_name: eb.ref('excluded.last_name'),
            // Loaded by an operator: no longer the demo's to change (migration 0006).
            demo: 0,
          })),
        )
        .execute();
    }
    return { inserted: records.length - existing.size, updated: existing.size };
  });
}

/** Inserts one certificate; false when the id is taken (nothing is changed then). */
export async function insertRecord(db: Db, record: RecordInput, now: Date = new Date()): Promise<boolean> {
  const result = await db.kysely
    .insertInto('records')
    .values({ ...record, created_at: now.toISOString(), revoked_at: null })
    .onConflict((oc) => oc.column('id').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
}

/**
 * Revokes a certificate: stav 'Ne' and the time of revocation. 'revoked' when done now,
 * 'already' when it was revoked before (the first time is kept), 'unknown' when there is no such id.
 */
export async function revokeRecord(
  db: Db,
  id: number,
  now: Date = new Date(),
): Promise<'revoked' | 'already' | 'unknown'> {
  const result = await db.kysely
    .updateTable('records')
    .set({ stav: 'Ne', revoked_at: now.toISOString() })
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 1) return 'revoked';
  return (await findRecord(db, id)) ? 'already' : 'unknown';
}

const VALIDITY_COLUMNS = [
  'id',
  'stav',
  'platnost_do',
  'a1a3_valid_until',
  'a2_valid_until',
  'first_name',
  'last_name',
  'revoked_at',
] as const;

/** The counter that every change of `records` moves on (a trigger, migration 0003). */
export async function recordsVersion(db: Db): Promise<string> {
  const row = await db.kysely
    .selectFrom('records_version')
    .select('version')
    .where('id', '=', 1)
    .executeTakeFirst();
  return row ? String(row.version) : '';
}

/**
 * Every certificate with the columns the validity check needs, and the `records` version they
 * belong to. The version is read first: a change made while the rows are read moves it on, so
 * the next look at the version loads again (at worst once too often, never a change missed).
 */
export async function loadValidityRows(
  db: Db,
): Promise<{ version: string; rows: Array<ValidityRow & { id: number }> }> {
  const version = await recordsVersion(db);
  const rows = await db.kysely.selectFrom('records').select(VALIDITY_COLUMNS).execute();
  return { version, rows: rows.map((r) => ({ ...r, id: Number(r.id) })) };
}
