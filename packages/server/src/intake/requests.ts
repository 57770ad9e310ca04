import type { FormValues } from '@ros/domain';
import type { z } from 'zod';
import type { Db } from '../db/database.js';
import type { RequestRow } from '../db/schema.js';
import type { StoredRequest } from '../requests/repository.js';
import type { requestSummarySchema } from './contract.js';

/**
 * Submitted requests as the authority sees them (intake API, `ros-admin requests`). Read with
 * these queries, not through requests/repository.ts: the columns of migration 0007 (status,
 * received_at, erased_at, nia_identifier) are the authority's side's own.
 */

export const REQUEST_STATUSES = ['new', 'received'] as const;
export type RequestStatus = (typeof REQUEST_STATUSES)[number];

/** One request in a list: no personal data (its schema: intake/contract.ts). */
export type RequestSummary = z.infer<typeof requestSummarySchema>;

/** The detail: the summary and every form value under the spec's field names. */
export interface RequestDetail extends RequestSummary {
  values: FormValues & { nia_person_identifier?: string };
}

const SUMMARY_COLUMNS = [
  'id',
  'reference',
  'status',
  'via_nia',
  'language',
  'duplicate',
  'created_at',
  'received_at',
  'erased_at',
] as const;
type Row = Pick<RequestRow, (typeof SUMMARY_COLUMNS)[number]>;

export function toSummary(r: Row): RequestSummary {
  return {
    reference: r.reference,
    status: r.status === 'received' ? 'received' : 'new',
    channel: Number(r.via_nia) === 1 ? 'nia' : 'pdf',
    language: r.language === 'en' ? 'en' : 'cs',
    duplicate: Number(r.duplicate) === 1,
    created_at: r.created_at,
    received_at: r.received_at,
  };
}

/** The list's page size: default and most. */
export const DEFAULT_PAGE = 50;
export const MAX_PAGE = 100;

/**
 * The cursor is the last item's (created_at, reference) in base64url JSON: opaque to clients,
 * stable while requests come in (keyset paging: a new request never shifts a page).
 */
export function encodeCursor(r: { created_at: string; reference: string }): string {
  return Buffer.from(JSON.stringify([r.created_at, r.reference])).toString('base64url');
}

export function decodeCursor(cursor: string): { created_at: string; reference: string } | null {
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(cursor)) return null;
  try {
    const v = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    if (
      Array.isArray(v) &&
      v.length === 2 &&
      typeof v[0] === 'string' &&
      typeof v[1] === 'string' &&
      v[0].length <= 40 &&
      v[1].length <= 40
    )
      return { created_at: v[0], reference: v[1] };
  } catch {
    // not JSON: not one of ours
  }
  return null;
}

export interface ListQuery {
  status?: RequestStatus;
  /** ISO time or date: requests submitted at or after it. */
  since?: string;
  /** Requests submitted before it (ros-admin --until). */
  until?: string;
  after?: { created_at: string; reference: string };
  limit: number;
}

/**
 * Requests whose personal data is still held, oldest first (created_at, then reference);
 * `next_cursor` when there may be more.
 */
export async function listRequests(
  db: Db,
  q: ListQuery,
): Promise<{ items: RequestSummary[]; next_cursor: string | null }> {
  let query = db.kysely.selectFrom('requests').select(SUMMARY_COLUMNS).where('erased_at', 'is', null);
  if (q.status) query = query.where('status', '=', q.status);
  if (q.since) query = query.where('created_at', '>=', q.since);
  if (q.until) query = query.where('created_at', '<', q.until);
  const after = q.after;
  if (after) {
    query = query.where((eb) =>
      eb.or([
        eb('created_at', '>', after.created_at),
        eb.and([eb('created_at', '=', after.created_at), eb('reference', '>', after.reference)]),
      ]),
    );
  }
  const rows = await query
    .orderBy('created_at')
    .orderBy('reference')
    .limit(q.limit + 1)
    .execute();
  const page = rows.slice(0, q.limit);
  const last = page[page.length - 1];
  return {
    items: page.map(toSummary),
    next_cursor: rows.length > q.limit && last ? encodeCursor(last) : null,
  };
}

export type Found =
  | { kind: 'found'; summary: RequestSummary; request: StoredRequest; niaIdentifier: string | null }
  | { kind: 'erased'; summary: RequestSummary }
  | { kind: 'none' };

/** A request by its reference (as on the PDF and in its QR code). */
export async function findByReference(db: Db, reference: string): Promise<Found> {
  const row = await db.kysely
    .selectFrom('requests')
    .selectAll()
    .where('reference', '=', reference)
    .executeTakeFirst();
  if (!row) return { kind: 'none' };
  const summary = toSummary(row);
  if (row.erased_at !== null) return { kind: 'erased', summary };
  const values = JSON.parse(row.payload) as FormValues;
  const request: StoredRequest = {
    id: row.id,
    reference: row.reference,
    language: summary.language,
    duplicate: summary.duplicate,
    viaNia: summary.channel === 'nia',
    // Requests stored before the dial code became a value have none (requests/repository.ts).
    values: typeof values.dial_code === 'string' ? values : { ...values, dial_code: '' },
    personKey: row.person_key,
    idempotencyKey: row.idempotency_key,
    bodyHash: row.body_hash,
    createdAt: row.created_at,
  };
  return { kind: 'found', summary, request, niaIdentifier: row.nia_identifier };
}

export function toDetail(found: Extract<Found, { kind: 'found' }>): RequestDetail {
  const values: RequestDetail['values'] = { ...found.request.values };
  if (found.niaIdentifier) values.nia_person_identifier = found.niaIdentifier;
  return { ...found.summary, values };
}

/**
 * Marks a request received: 'received' now, or 'already' (nothing changes: the first time is
 * kept), or 'none'. An erased request can still be marked (it changes no personal data).
 */
export async function markReceived(
  db: Db,
  reference: string,
  now: Date = new Date(),
): Promise<{ outcome: 'received' | 'already'; summary: RequestSummary } | { outcome: 'none' }> {
  const r = await db.kysely
    .updateTable('requests')
    .set({ status: 'received', received_at: now.toISOString() })
    .where('reference', '=', reference)
    .where('status', '=', 'new')
    .executeTakeFirst();
  const row = await db.kysely
    .selectFrom('requests')
    .select(SUMMARY_COLUMNS)
    .where('reference', '=', reference)
    .executeTakeFirst();
  if (!row) return { outcome: 'none' };
  return { outcome: Number(r.numUpdatedRows) === 1 ? 'received' : 'already', summary: toSummary(row) };
}

/** Whether the request with this id had its personal data erased (the public PDF link then answers 404). */
export async function isErased(db: Db, id: string): Promise<boolean> {
  const row = await db.kysely
    .selectFrom('requests')
    .select('erased_at')
    .where('id', '=', id)
    .executeTakeFirst();
  return row?.erased_at != null;
}
