import { type FormValues, legalStatements, type RequestStatus, storedFormValues } from '@ros/domain';
import type { z } from 'zod';
import type { Db } from '../db/database.js';
import { legalVariant, type StoredRequest, storedLegal } from '../requests/repository.js';
import type { agreedTextsSchema } from './contract.js';
import { encodeCursor } from './paging.js';
import { changeStatus, type HistoryEntry } from './status.js';
import { type RequestSummary, SUMMARY_COLUMNS, toSummary } from './summary.js';

/**
 * Submitted requests as the authority sees them (intake API, `ros-admin requests`). Read with
 * these queries, not through requests/repository.ts: the columns of migration 0007 (status,
 * received_at, erased_at, nia_identifier) are the authority's side's own.
 */

// The statuses the intake API speaks (intake/contract.ts; their transitions: @ros/domain
// requestStatus.ts; changes: intake/status.ts).
export { REQUEST_STATUSES, type RequestStatus } from './contract.js';
// One request in a list: intake/summary.ts.
export type { RequestSummary };

/** The detail: the summary, every form value under the spec's field names, and what was agreed. */
export interface RequestDetail extends RequestSummary {
  values: FormValues & { nia_person_identifier?: string };
  legal: z.infer<typeof agreedTextsSchema>;
  /** Every status change, oldest first (intake/status.ts). */
  history: HistoryEntry[];
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
  // A field a request stored before it existed lacks reads as the catalogue says (the dial code empty).
  const values = storedFormValues(row.payload);
  const request: StoredRequest = {
    id: row.id,
    reference: row.reference,
    language: summary.language,
    duplicate: summary.duplicate,
    viaNia: summary.channel === 'nia',
    values,
    personKey: row.person_key,
    idempotencyKey: row.idempotency_key,
    bodyHash: row.body_hash,
    legal: storedLegal(row, values),
    createdAt: row.created_at,
  };
  return { kind: 'found', summary, request, niaIdentifier: row.nia_identifier };
}

export function toDetail(
  found: Extract<Found, { kind: 'found' }>,
  history: HistoryEntry[] = [],
): RequestDetail {
  const values: RequestDetail['values'] = { ...found.request.values };
  if (found.niaIdentifier) values.nia_person_identifier = found.niaIdentifier;
  return { ...found.summary, values, legal: agreedTexts(found.request), history };
}

/**
 * What the applicant agreed to: the version, and each box of the dialog with its sentence in
 * the request's language (as the PDF prints it) and whether it was ticked.
 */
export function agreedTexts(r: StoredRequest): RequestDetail['legal'] {
  const statements = legalStatements(r.legal.version, r.language, legalVariant(r), r.values);
  return {
    version: r.legal.version,
    statements: statements.map((s) => ({ key: s.key, text: s.text, ticked: r.legal.ticked[s.key] === true })),
  };
}

/**
 * Marks a request received: 'received' now, or 'already' (nothing changes: the first time is
 * kept, also when the request has moved on since), or 'none'. An erased request can still be
 * marked (it changes no personal data). A change of status (intake/status.ts): kept in the
 * history and notified as the applicant asked.
 */
export async function markReceived(
  db: Db,
  reference: string,
  now: Date = new Date(),
): Promise<{ outcome: 'received' | 'already'; summary: RequestSummary } | { outcome: 'none' }> {
  const r = await changeStatus(db, reference, { status: 'received' }, now);
  if (r.outcome === 'none') return r;
  return { outcome: r.outcome === 'changed' ? 'received' : 'already', summary: r.summary };
}

/** When the authority marked the request received (intake API), or null: the PDF says so (issue 28). */
export async function receivedAtOf(db: Db, id: string): Promise<string | null> {
  const row = await db.kysely
    .selectFrom('requests')
    .select('received_at')
    .where('id', '=', id)
    .executeTakeFirst();
  return row?.received_at ?? null;
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
