import { createHash, randomBytes } from 'node:crypto';
import {
  type FormValues,
  type LegalVariant,
  parseReference,
  storedFormValues,
  type Ticked,
} from '@ros/domain';
import { sql, type Transaction } from 'kysely';
import type { Db } from '../db/database.js';
import type { Database, NewRequestRow, RequestRow } from '../db/schema.js';
import { searchKeysOf } from './searchKeys.js';

/**
 * Received requests (table `requests`). Each has an unguessable id (the PDF link), a human
 * reference number ROS-YYYY-NNNNNN numbered per year, and the validated, normalised form.
 * Retries do not create a second request (see `storeRequest`). What is stored with a request in
 * its transaction (the confirmation e-mail) is composed in requests/store.ts.
 */

export type RequestLanguage = 'cs' | 'en';

/**
 * What the applicant agreed to (issue 22): the version of the legal texts the dialog showed
 * (@ros/domain legalTexts) and exactly which of its five boxes were ticked. The PDF prints that
 * version's texts for the request's channel and mode, whatever the current version is.
 */
export interface AgreedTexts {
  version: string;
  ticked: Ticked;
}

/** What a submission stores, before it gets its id, reference and time. */
export interface NewRequest {
  language: RequestLanguage;
  duplicate: boolean;
  viaNia: boolean;
  values: FormValues;
  personKey: string;
  idempotencyKey: string | null;
  bodyHash: string;
  legal: AgreedTexts;
  /** NIA's PersonIdentifier of the signed-in applicant, for the authority (intake API). */
  niaIdentifier?: string | null;
}

export interface StoredRequest {
  id: string;
  reference: string;
  language: RequestLanguage;
  duplicate: boolean;
  viaNia: boolean;
  values: FormValues;
  personKey: string | null;
  idempotencyKey: string | null;
  bodyHash: string;
  legal: AgreedTexts;
  createdAt: string;
}

/** Random bytes of a request id: 144 bits, 24 base64url characters. */
const ID_BYTES = 18;
export const REQUEST_ID_PATTERN = /^[A-Za-z0-9_-]{24}$/;

export function newRequestId(): string {
  return randomBytes(ID_BYTES).toString('base64url');
}

/** 'ROS-2026-000123'; numbers past 999999 simply get longer. */
export function formatReference(year: number, n: number): string {
  return `ROS-${year}-${String(n).padStart(6, '0')}`;
}

/** A reference as typed or scanned from the PDF's QR code: one rule for both ends (@ros/domain). */
export { parseReference };

const yearFormat = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Prague', year: 'numeric' });
/** The year of an instant in Prague: a request sent on 31 December at 23:30 belongs to that year. */
export function referenceYear(now: Date): number {
  return Number(yearFormat.format(now));
}

/** JSON with object keys sorted, so that the same content always gives the same text. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** sha256 (hex) of the canonical body: what decides that two submissions are the same. */
export function bodyHash(body: unknown): string {
  return createHash('sha256').update(canonicalJson(body)).digest('hex');
}

/** The version every request stored before migration 0012 was shown (legalTexts/v1.ts). */
const FIRST_LEGAL_VERSION = '1';

/**
 * The agreed texts of a row. A request stored before migration 0012 recorded neither: it was
 * shown version 1, and the dialog could not send it without boxes 1-3, so they were ticked; the
 * notification boxes are the form's two flags.
 */
export function storedLegal(
  row: { legal_version: string | null; declarations: string | null },
  values: FormValues,
): AgreedTexts {
  const version = row.legal_version ?? FIRST_LEGAL_VERSION;
  if (row.declarations !== null) return { version, ticked: JSON.parse(row.declarations) as Ticked };
  return {
    version,
    ticked: {
      signature: true,
      affidavit: true,
      purpose: true,
      notify_email: values.send_notifications_email === true,
      notify_phone: values.send_notifications_phone === true,
    },
  };
}

/** Which legal texts a stored request was given: by its channel and mode. */
export function legalVariant(r: Pick<StoredRequest, 'viaNia' | 'duplicate'>): LegalVariant {
  return { channel: r.viaNia ? 'nia' : 'paper', duplicate: r.duplicate };
}

/** The columns a StoredRequest is read from (the intake columns are the authority's: intake/requests.ts). */
type StoredColumns = Omit<
  RequestRow,
  | 'status'
  | 'received_at'
  | 'erased_at'
  | 'nia_identifier'
  | 'search_name'
  | 'birth_date'
  | 'birth_number_key'
>;

function toStored(row: StoredColumns): StoredRequest {
  // A field a request stored before it existed reads as the catalogue says (the dial code empty, decision 0003).
  const values = storedFormValues(row.payload);
  return {
    id: row.id,
    reference: row.reference,
    language: row.language === 'en' ? 'en' : 'cs',
    duplicate: Number(row.duplicate) === 1,
    viaNia: Number(row.via_nia) === 1,
    values,
    personKey: row.person_key,
    idempotencyKey: row.idempotency_key,
    bodyHash: row.body_hash,
    legal: storedLegal(row, values),
    createdAt: row.created_at,
  };
}

type Executor = Db['kysely'] | Transaction<Database>;

export async function findRequest(db: Executor, id: string): Promise<StoredRequest | undefined> {
  const row = await db.selectFrom('requests').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? toStored(row) : undefined;
}

export async function findByIdempotencyKey(db: Executor, key: string): Promise<StoredRequest | undefined> {
  const row = await db
    .selectFrom('requests')
    .selectAll()
    .where('idempotency_key', '=', key)
    .executeTakeFirst();
  return row ? toStored(row) : undefined;
}

/** When the person's last request of the kind since `since` was stored (ISO time), or null. */
export async function latestRequestSince(
  db: Executor,
  personKey: string,
  duplicate: boolean,
  since: string,
): Promise<string | null> {
  const row = await db
    .selectFrom('requests')
    .select('created_at')
    .where('person_key', '=', personKey)
    .where('duplicate', '=', duplicate ? 1 : 0)
    .where('created_at', '>=', since)
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ? String(row.created_at) : null;
}

/**
 * The next number of a per-year counter. One statement that inserts the counter or adds one
 * to it and returns the new value: PostgreSQL locks the row until the transaction ends, and
 * SQLite runs one write transaction at a time, so two requests never get the same number.
 */
export async function nextCounterValue(trx: Transaction<Database>, name: string): Promise<number> {
  const row = await trx
    .insertInto('counters')
    .values({ name, value: 1 })
    .onConflict((oc) => oc.column('name').doUpdateSet({ value: sql<number>`counters.value + 1` }))
    .returning('value')
    .executeTakeFirstOrThrow();
  return Number(row.value);
}

/** PostgreSQL's error for a broken unique constraint; SQLite's is a message. */
export function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE';
}

export type StoreResult = { request: StoredRequest; created: boolean } | { conflict: StoredRequest };

/** Work done in the transaction that stores a new request (requests/store.ts queues its e-mail). */
export type AlongsideNewRequest = (trx: Transaction<Database>, request: StoredRequest) => Promise<void>;

/**
 * Stores a request in one transaction, unless it is a retry with an idempotency key: a stored
 * request with that key is returned as it is when its body hash is the same, else reported as a
 * conflict (the key was reused for another body). Without a key the request is always new here:
 * equal values prove nothing about who sends them (issue 33: a stranger who searched the same
 * person sent the same prefilled form and got the first sender's reference and access code).
 * A retry without a key is found only through the match token its first send spent, a secret of
 * that browser (routes/submit.ts, `storedTwin`).
 * Concurrent retries with one key wait for each other: PostgreSQL takes a transaction-level
 * advisory lock on the key; SQLite serialises transactions. The unique index on
 * idempotency_key is the last guard: a violation reads and returns the winner's request.
 * `alongside` runs in the same transaction, only when the request is new: what it writes is
 * stored with the request or not at all.
 */
export async function storeRequest(
  db: Db,
  input: NewRequest,
  now: Date = new Date(),
  alongside?: AlongsideNewRequest,
): Promise<StoreResult> {
  const key = input.idempotencyKey;
  try {
    return await db.kysely.transaction().execute(async (trx): Promise<StoreResult> => {
      if (key !== null && db.dialect === 'postgres') {
        await sql`select pg_advisory_xact_lock(hashtextextended(${`idem:${key}`}, 0))`.execute(trx);
      }
      const earlier = key !== null ? await findByIdempotencyKey(trx, key) : undefined;
      if (earlier) {
        return earlier.bodyHash === input.bodyHash
          ? { request: earlier, created: false }
          : { conflict: earlier };
      }
      const year = referenceYear(now);
      const n = await nextCounterValue(trx, `request-reference-${year}`);
      const row = {
        id: newRequestId(),
        reference: formatReference(year, n),
        language: input.language,
        duplicate: input.duplicate ? 1 : 0,
        via_nia: input.viaNia ? 1 : 0,
        payload: JSON.stringify(input.values),
        person_key: input.personKey,
        idempotency_key: input.idempotencyKey,
        body_hash: input.bodyHash,
        legal_version: input.legal.version,
        declarations: JSON.stringify(input.legal.ticked),
        created_at: now.toISOString(),
      } satisfies NewRequestRow;
      await trx
        .insertInto('requests')
        .values({ ...row, nia_identifier: input.niaIdentifier ?? null, ...searchKeysOf(input.values) })
        .execute();
      const request = toStored(row);
      await alongside?.(trx, request);
      return { request, created: true };
    });
  } catch (err) {
    if (!isUniqueViolation(err) || input.idempotencyKey === null) throw err;
    // Another process stored the same key between our look-up and insert: answer with its request.
    const winner = await findByIdempotencyKey(db.kysely, input.idempotencyKey);
    if (!winner) throw err;
    return winner.bodyHash === input.bodyHash ? { request: winner, created: false } : { conflict: winner };
  }
}
