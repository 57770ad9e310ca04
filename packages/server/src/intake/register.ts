import { type FieldProblem, issuesToProblems, MAX_PERSON_ID, MAX_RECORD_ID } from '@ros/domain';
import type { Db } from '../db/database.js';
import { validateRecordValues } from '../records/import.js';
import { findRecord, missingPersons, revokeRecord, saveRecords } from '../records/repository.js';
import { personRowSchema, toInput } from '../register/import.js';
import { NiaIdentifierTakenError, savePerson } from '../register/persons.js';
import { isUniqueViolation } from '../requests/repository.js';
import { checkpointWal, markErased } from '../retention/erase.js';

/**
 * The register writes of the intake API: a certificate (PUT records/{id}) and a person
 * (PUT/DELETE persons/{id}). Both reuse the checks of the operators' file imports
 * (records/import.ts validateRecordValues, register/import.ts personRowSchema), so a record
 * or a person is accepted by the API exactly when it would be accepted in a file.
 */

export type Problems = FieldProblem[];

/** Largest id of a certificate and of a person (as the file imports allow: domain limits.ts). */
export { MAX_PERSON_ID, MAX_RECORD_ID };

/** A whole number id from a path segment; null when it is not one in 1..max. */
export function pathId(s: string, max: number): number | null {
  if (!/^[1-9][0-9]{0,15}$/.test(s)) return null;
  const n = Number(s);
  return Number.isSafeInteger(n) && n <= max ? n : null;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/** A category as the validity check answers it: `{ "valid_until": date }` or null/absent. */
function category(v: unknown, field: string, problems: Problems): unknown {
  if (v === undefined || v === null) return null;
  // Exactly the one key, a text (its date is checked with the record's values): `{}` or
  // `{ "valid_until": null }` is not "no category", which is null or absent.
  const keys = isObject(v) ? Object.keys(v) : [];
  if (isObject(v) && keys.length === 1 && keys[0] === 'valid_until' && typeof v.valid_until === 'string')
    return v.valid_until;
  problems.push({ path: field, message: 'must be { "valid_until": "YYYY-MM-DD" } or null' });
  return null;
}

export type PutRecordResult =
  | { ok: true; created: boolean; record: Awaited<ReturnType<typeof findRecord>> }
  | { ok: false; problems: Problems };

/**
 * PUT records/{id}: `{ person: { first_name, last_name, id? }, stav, platnost_do, a1a3, a2 }`.
 * Creates the certificate or replaces its data; stav 'Ne' also revokes it (as `ros-admin
 * records revoke`: the first revocation time is kept). The validity check sees the change at
 * its next look at the records version (a trigger moves it on every change).
 */
export async function putRecord(db: Db, id: number, body: unknown): Promise<PutRecordResult> {
  const problems: Problems = [];
  if (!isObject(body)) return { ok: false, problems: [{ path: '', message: 'must be a JSON object' }] };
  for (const key of Object.keys(body)) {
    if (!['person', 'stav', 'platnost_do', 'a1a3', 'a2'].includes(key))
      problems.push({ path: key, message: 'unknown field' });
  }
  const person = body.person;
  if (!isObject(person)) problems.push({ path: 'person', message: 'must be an object' });
  const p = isObject(person) ? person : {};
  for (const key of Object.keys(p)) {
    if (!['first_name', 'last_name', 'id'].includes(key))
      problems.push({ path: `person.${key}`, message: 'unknown field' });
  }
  // A number, as the document says: the file import's reading would take "12" or null too.
  if (p.id !== undefined && typeof p.id !== 'number')
    problems.push({ path: 'person.id', message: 'must be a whole number' });
  const values = {
    id,
    first_name: p.first_name,
    last_name: p.last_name,
    person_id: p.id ?? null,
    stav: body.stav,
    platnost_do: body.platnost_do,
    a1a3_valid_until: category(body.a1a3, 'a1a3', problems),
    a2_valid_until: category(body.a2, 'a2', problems),
  };
  if (body.stav === undefined) problems.push({ path: 'stav', message: 'is required ("Ano" or "Ne")' });
  // Exactly "Ano" or "Ne", as the document says: the file import's text() would read ["Ano"],
  // " Ano" or "" (its default) as "Ano" (the fuzz test found each).
  else if (body.stav !== 'Ano' && body.stav !== 'Ne')
    problems.push({ path: 'stav', message: 'must be "Ano" or "Ne"' });
  const checked = validateRecordValues(values);
  if (!checked.ok) {
    for (const m of checked.problems) problems.push({ path: pathOf(m), message: m });
  }
  if (problems.length > 0 || !checked.ok) return { ok: false, problems };
  const record = checked.record;
  if (record.person_id !== null && (await missingPersons(db, [record.person_id])).size > 0) {
    return { ok: false, problems: [{ path: 'person.id', message: 'no register person has this id' }] };
  }
  const saved = await saveRecords(db, [record]);
  if (record.stav === 'Ne') await revokeRecord(db, id);
  return { ok: true, created: saved.inserted === 1, record: await findRecord(db, id) };
}

/** The field a problem of validateRecordValues names, in this API's terms. */
function pathOf(message: string): string {
  const field = /^(\w+)/.exec(message)?.[1] ?? '';
  const map: Record<string, string> = {
    first_name: 'person.first_name',
    last_name: 'person.last_name',
    person_id: 'person.id',
    a1a3_valid_until: 'a1a3',
    a2_valid_until: 'a2',
  };
  return map[field] ?? field;
}

export type PutPersonResult =
  | { ok: true; created: boolean }
  | { ok: false; status: 400 | 409; problems: Problems };

/** PUT persons/{id}: the person in the persons file's shape (docs/register.md), `id` from the path. */
export async function putPerson(db: Db, id: number, body: unknown): Promise<PutPersonResult> {
  if (!isObject(body))
    return { ok: false, status: 400, problems: [{ path: '', message: 'must be a JSON object' }] };
  if (body.id !== undefined && body.id !== id) {
    return {
      ok: false,
      status: 400,
      problems: [{ path: 'id', message: 'must be the id of the path (or left out)' }],
    };
  }
  const parsed = personRowSchema.safeParse({ ...body, id });
  if (!parsed.success) {
    return {
      ok: false,
      status: 400,
      problems: issuesToProblems(parsed.error.issues),
    };
  }
  try {
    const r = await db.kysely
      .transaction()
      .execute((trx) => savePerson(trx, db.dialect, toInput(parsed.data)));
    return { ok: true, created: r.created };
  } catch (err) {
    // Checked before the write (savePerson); the unique index stays the last guard.
    if (!(err instanceof NiaIdentifierTakenError) && !isUniqueViolation(err)) throw err;
    return {
      ok: false,
      status: 409,
      problems: [{ path: 'nia_identifier', message: 'another person has this NIA identifier' }],
    };
  }
}

/**
 * DELETE persons/{id}: the person and their documents; their certificates stay, without a person.
 * Deleted means gone from the files too (issue 33): on PostgreSQL the register's tables are owed
 * a rewrite, which the next purge does (retention/erase.ts); SQLite's write-ahead log is
 * emptied at once.
 */
export async function deletePerson(db: Db, id: number, now: Date = new Date()): Promise<boolean> {
  const r = await db.kysely.transaction().execute(async (trx) => {
    // SQLite enforces the foreign keys (cascade, set null) only with its pragma on: do it by hand.
    await trx.deleteFrom('person_documents').where('person_id', '=', id).execute();
    await trx.updateTable('records').set({ person_id: null }).where('person_id', '=', id).execute();
    const deleted = await trx.deleteFrom('persons').where('id', '=', id).executeTakeFirst();
    if (Number(deleted.numDeletedRows) === 1) await markErased(trx, db.dialect, 'register', now);
    return deleted;
  });
  if (Number(r.numDeletedRows) !== 1) return false;
  await checkpointWal(db);
  return true;
}
