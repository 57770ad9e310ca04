import {
  type FormDocumentType,
  normalizeBirthNumber,
  normalizeDocumentNumber,
  normalizeName,
  type RegisterPerson,
  type RegisterRecord,
  registerDocumentType,
  type SearchAnswer,
} from '@ros/domain';
import { sql, type Transaction } from 'kysely';
import type { Db } from '../db/database.js';
import type { Database } from '../db/schema.js';
import { isInForce, registerToday } from '../records/records.js';
import { markErased } from '../retention/erase.js';

/**
 * The register of persons: table `persons` (the person in the register's Czech field names,
 * as JSON, plus normalised columns to search by) and `person_documents` (every identity
 * document of a person, by register type 'ID'/'P' and normalised number).
 */

export interface PersonDocument {
  /** 'ID' identity card, 'P' passport */
  type: string;
  number: string;
}

/** A person to store: the register data and, beyond its main document, any other documents. */
export interface PersonInput {
  /** Keep the register's own id (operators' files, demo data); omitted = next free id. */
  id?: number;
  person: RegisterPerson;
  documents?: PersonDocument[];
  aifo?: string | null;
  nia_identifier?: string | null;
}

export interface StoredPerson {
  id: number;
  person: RegisterPerson;
  documents: PersonDocument[];
  aifo: string | null;
  nia_identifier: string | null;
  created_at: string;
}

/** 'YYYY-MM-DD' -> 'dd.mm.yyyy' (the register's answer format); other text unchanged. */
function czechDate(iso: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  return m ? `${m[3]}.${m[2]}.${m[1]}` : iso;
}

type Executor = Db['kysely'] | Transaction<Database>;

/** Every document of a person: the main one (typ_op_pas + op_pas) and the listed ones, once each. */
export function documentsOf(input: PersonInput): Array<{ type: string; number_norm: string }> {
  const all: PersonDocument[] = [...(input.documents ?? [])];
  if (input.person.typ_op_pas && input.person.op_pas) {
    all.unshift({ type: input.person.typ_op_pas, number: input.person.op_pas });
  }
  const seen = new Set<string>();
  const out: Array<{ type: string; number_norm: string }> = [];
  for (const d of all) {
    const number_norm = normalizeDocumentNumber(d.number);
    const key = `${d.type}\u0000${number_norm}`;
    if (number_norm === '' || seen.has(key)) continue;
    seen.add(key);
    out.push({ type: d.type, number_norm });
  }
  return out;
}

function personRow(input: PersonInput, now: Date) {
  const p = input.person;
  return {
    data: JSON.stringify(p),
    first_name_norm: normalizeName(p.jmeno),
    last_name_norm: normalizeName(p.prijmeni),
    birth_number_norm: p.rc ? normalizeBirthNumber(p.rc) : null,
    birth_date: p.dat_nar ?? null,
    nia_identifier: input.nia_identifier ?? null,
    aifo: input.aifo ?? null,
    created_at: now.toISOString(),
  };
}

/**
 * Another person holds the NIA identifier being saved. Checked before the write, never left to
 * the unique index: PostgreSQL writes a violated key's value (the identifier) into its server
 * log (issue 21). The message names no value.
 */
export class NiaIdentifierTakenError extends Error {
  constructor(readonly otherPersonId: number) {
    super(`another person (id ${otherPersonId}) has this NIA identifier`);
  }
}

/**
 * Inserts a person, or replaces the one with the same id (data and documents; created_at is
 * kept). Returns the id. Runs inside the caller's transaction when given one; on PostgreSQL
 * writes of persons then wait for each other (an advisory lock), so that the checks before the
 * write (id taken, NIA identifier taken) still hold at the write. Throws NiaIdentifierTakenError.
 */
export async function savePerson(
  db: Executor,
  dialect: Db['dialect'],
  input: PersonInput,
  now: Date = new Date(),
): Promise<{ id: number; created: boolean }> {
  const row = personRow(input, now);
  if (dialect === 'postgres')
    await sql`select pg_advisory_xact_lock(hashtextextended('ros-persons', 0))`.execute(db);
  if (row.nia_identifier !== null) {
    let holder = db.selectFrom('persons').select('id').where('nia_identifier', '=', row.nia_identifier);
    if (input.id !== undefined) holder = holder.where('id', '<>', input.id);
    const other = await holder.executeTakeFirst();
    if (other) throw new NiaIdentifierTakenError(Number(other.id));
  }
  let id: number;
  let created = true;
  if (input.id !== undefined) {
    const existing = await db
      .selectFrom('persons')
      .select('id')
      .where('id', '=', input.id)
      .executeTakeFirst();
    if (existing) {
      created = false;
      const { created_at: _keep, ...update } = row;
      await db.updateTable('persons').set(update).where('id', '=', input.id).execute();
      await db.deleteFrom('person_documents').where('person_id', '=', input.id).execute();
      // The replaced version stays in PostgreSQL's files until the register's tables are rewritten.
      await markErased(db, dialect, 'register', now);
    } else {
      await db
        .insertInto('persons')
        .values({ id: input.id, ...row })
        .execute();
      if (dialect === 'postgres') {
        // An explicit id does not move PostgreSQL's sequence: keep it ahead of the largest id.
        await sql`select setval(pg_get_serial_sequence('persons', 'id'), greatest((select max(id) from persons), 1))`.execute(
          db,
        );
      }
    }
    id = input.id;
  } else {
    const inserted = await db.insertInto('persons').values(row).returning('id').executeTakeFirstOrThrow();
    id = Number(inserted.id);
  }
  const docs = documentsOf(input).map((d) => ({ person_id: id, ...d }));
  if (docs.length > 0) await db.insertInto('person_documents').values(docs).execute();
  return { id, created };
}

function parseData(data: string): RegisterPerson {
  return JSON.parse(data) as RegisterPerson;
}

/** The person's certificate for the search answer: the one in force, else the latest one. */
export async function recordOf(
  db: Db,
  personId: number,
  now: Date = new Date(),
): Promise<RegisterRecord | undefined> {
  const rows = await db.kysely
    .selectFrom('records')
    .select(['id', 'stav', 'platnost_do', 'a1a3_valid_until', 'a2_valid_until', 'revoked_at'])
    .where('person_id', '=', personId)
    .orderBy('platnost_do', 'desc')
    .orderBy('id', 'desc')
    .execute();
  if (rows.length === 0) return undefined;
  const today = registerToday(now);
  const row = rows.find((r) => isInForce(r, today)) ?? rows[0];
  if (!row) return undefined;
  const inForce = isInForce(row, today);
  const date = (d: string | null) => (d ? { valid_until: czechDate(d) } : null);
  return {
    id: Number(row.id),
    stav: inForce ? 'Ano' : 'Ne',
    platnost_do: czechDate(row.platnost_do),
    a1a3: date(row.a1a3_valid_until),
    a2: date(row.a2_valid_until),
  };
}

/** A person a search found: their register id (never sent to the browser) and the search answer. */
export interface FoundPerson {
  id: number;
  answer: SearchAnswer;
}

async function answerFor(
  db: Db,
  row: { id: number; data: string } | undefined,
): Promise<FoundPerson | undefined> {
  if (!row) return undefined;
  const person = parseData(row.data);
  const record = await recordOf(db, Number(row.id));
  return { id: Number(row.id), answer: record ? { ...person, record } : person };
}

export interface DocumentSearch {
  first_name: string;
  last_name: string;
  type: FormDocumentType;
  number: string;
  birth_number?: string | undefined;
}

/**
 * POST /api/ros/search: document type and number, first and last name must match, names
 * ignoring case, diacritics and spaces around, the number ignoring spaces. With a birth
 * number, that must match too. Several matches (should not happen) answer the oldest.
 */
export async function findByDocument(db: Db, q: DocumentSearch): Promise<FoundPerson | undefined> {
  let query = db.kysely
    .selectFrom('person_documents as d')
    .innerJoin('persons as p', 'p.id', 'd.person_id')
    .select(['p.id', 'p.data'])
    .where('d.type', '=', registerDocumentType(q.type))
    .where('d.number_norm', '=', normalizeDocumentNumber(q.number))
    .where('p.first_name_norm', '=', normalizeName(q.first_name))
    .where('p.last_name_norm', '=', normalizeName(q.last_name));
  if (q.birth_number) query = query.where('p.birth_number_norm', '=', normalizeBirthNumber(q.birth_number));
  const row = await query.orderBy('p.id').limit(1).executeTakeFirst();
  return answerFor(db, row);
}

/** The proof a birth-number retry carries of the search before it (searchByBirthNumberSchema). */
export interface RetryProof {
  birth_number: string;
  /** The register person the preceding search's match token proves (null: none, or the token proves nothing). */
  matchedPersonId: number | null;
  /** The token was sent: it decides, whatever else the body holds. */
  match: boolean;
  first_name?: string | undefined;
  last_name?: string | undefined;
  type?: FormDocumentType | undefined;
  number?: string | undefined;
}

/**
 * POST /api/ros/search-birth-number, the duplicate retry (issue 21): the person the search
 * before found, when the birth number (with or without slash) is theirs. That person is the
 * match token's, or else the one with the retry's locked names and document; without either
 * nobody. Every miss (no proof, a token that proves nothing, another person's birth number, the
 * right birth number with other names) runs the same one query as a hit and finds nothing.
 */
export async function findForRetry(db: Db, q: RetryProof): Promise<FoundPerson | undefined> {
  const { first_name, last_name, type, number } = q;
  if (!q.match && first_name && last_name && type && number) {
    return findByDocument(db, { first_name, last_name, type, number, birth_number: q.birth_number });
  }
  const row = await db.kysely
    .selectFrom('persons')
    .select(['id', 'data'])
    .where('id', '=', q.matchedPersonId ?? -1)
    .where('birth_number_norm', '=', normalizeBirthNumber(q.birth_number))
    .executeTakeFirst();
  return answerFor(db, row);
}

export async function getPerson(db: Db, id: number): Promise<StoredPerson | undefined> {
  const row = await db.kysely.selectFrom('persons').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) return undefined;
  const docs = await db.kysely
    .selectFrom('person_documents')
    .select(['type', 'number_norm'])
    .where('person_id', '=', id)
    .orderBy('type')
    .orderBy('number_norm')
    .execute();
  return {
    id: Number(row.id),
    person: parseData(row.data),
    documents: docs.map((d) => ({ type: d.type, number: d.number_norm })),
    aifo: row.aifo,
    nia_identifier: row.nia_identifier,
    created_at: row.created_at,
  };
}

/** Operators' look-up by name (normalised, exact) and/or birth number: ids and names only. */
export async function findPersons(
  db: Db,
  q: { first_name?: string; last_name?: string; birth_number?: string; document?: string },
  limit = 50,
): Promise<Array<{ id: number; jmeno: string; prijmeni: string }>> {
  let query = db.kysely.selectFrom('persons as p').select(['p.id', 'p.data']);
  if (q.first_name) query = query.where('p.first_name_norm', '=', normalizeName(q.first_name));
  if (q.last_name) query = query.where('p.last_name_norm', '=', normalizeName(q.last_name));
  if (q.birth_number) query = query.where('p.birth_number_norm', '=', normalizeBirthNumber(q.birth_number));
  if (q.document) {
    const number = normalizeDocumentNumber(q.document);
    query = query.where((eb) =>
      eb.exists(
        eb
          .selectFrom('person_documents as d')
          .select('d.person_id')
          .whereRef('d.person_id', '=', 'p.id')
          .where('d.number_norm', '=', number),
      ),
    );
  }
  const rows = await query.orderBy('p.id').limit(limit).execute();
  return rows.map((r) => {
    const p = parseData(r.data);
    return { id: Number(r.id), jmeno: p.jmeno, prijmeni: p.prijmeni };
  });
}
