import {
  type FormValues,
  isRequestStatus,
  mayChangeStatus,
  normalizeText,
  parseValidityId,
  type RequestStatus,
  STATUS_NOTE_MAX_LENGTH,
  storedFormValues,
  textPolicyIssue,
  textPolicyMessage,
} from '@ros/domain';
import type { Db } from '../db/database.js';
import { enqueueNotices } from '../notifications/notices.js';
import { isCertificateOf } from './certificate.js';
import { type RequestSummary, SUMMARY_COLUMNS, toSummary } from './summary.js';

/**
 * Status changes (issue 26, docs/status.md): the authority moves a request on through the
 * statuses of @ros/domain requestStatus.ts; each change is kept with its time in
 * `request_status_history`, and queues the notifications the applicant asked for (e-mail, SMS:
 * notifications/notices.ts) in the same transaction: a change is never kept without them, nor they
 * without it. A decided request (issued, refused, withdrawn) stays decided.
 */

export interface StatusChange {
  status: RequestStatus;
  /** For the applicant; at most STATUS_NOTE_MAX_LENGTH characters. */
  note?: string | null;
  /** With `issued`: the certificate's validity-check id ('5001x2065'), linked from the status page. */
  certificate?: string | null;
}

export interface HistoryEntry {
  status: RequestStatus;
  at: string;
  note: string | null;
  certificate: string | null;
  /** This change corrects a decision (intake/correction.ts); its note is the reason. */
  correction: boolean;
}

type Problem = { path: string; message: string };

/**
 * A note to the applicant as given (absent, null, or a string): the text the portal stores (trimmed,
 * normalised, null when empty), or what is wrong with it: the portal's whole text policy (issue
 * 33 item 10: no RLM/ALM, zero-width or stacked marks) and at most STATUS_NOTE_MAX_LENGTH
 * characters. The rules of a status note, also a correction's reason (intake/correction.ts).
 */
export function checkNote(
  value: unknown,
): { ok: true; note: string | null } | { ok: false; message: string } {
  if (value === undefined || value === null) return { ok: true, note: null };
  if (typeof value !== 'string') return { ok: false, message: 'must be a string' };
  const issue = textPolicyIssue(value, { multiline: true });
  if (issue) return { ok: false, message: textPolicyMessage(issue) };
  const note = normalizeText(value.trim()) || null;
  if (note && note.length > STATUS_NOTE_MAX_LENGTH)
    return { ok: false, message: `must be at most ${STATUS_NOTE_MAX_LENGTH} characters` };
  return { ok: true, note };
}

/**
 * A certificate's validity-check id as given with a status: its canonical form ('5001x2065'), null
 * when absent, or what is wrong (not an id; given with a status other than `issued`).
 */
export function checkCertificate(
  value: unknown,
  status: unknown,
): { ok: true; certificate: string | null } | { ok: false; message: string } {
  if (value === undefined || value === null) return { ok: true, certificate: null };
  const id = typeof value === 'string' ? parseValidityId(value) : null;
  if (!id) return { ok: false, message: 'must be a validity-check id (5001x2065)' };
  if (status !== 'issued') return { ok: false, message: 'only with status issued' };
  return { ok: true, certificate: `${id.recordId}x${id.code}` };
}

/** The body of POST …/status or the command's words, checked: the change, or what is wrong. */
export function checkStatusChange(
  body: unknown,
): { ok: true; change: StatusChange } | { ok: false; problems: Problem[] } {
  const problems: Problem[] = [];
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    return { ok: false, problems: [{ path: '', message: 'must be an object' }] };
  const b = body as Record<string, unknown>;
  for (const k of Object.keys(b))
    if (!['status', 'note', 'certificate'].includes(k)) problems.push({ path: k, message: 'unknown field' });
  if (!isRequestStatus(b.status) || b.status === 'new')
    problems.push({
      path: 'status',
      message: 'must be one of received, in_progress, documents_needed, issued, refused, withdrawn',
    });
  const note = checkNote(b.note);
  if (!note.ok) problems.push({ path: 'note', message: note.message });
  const certificate = checkCertificate(b.certificate, b.status);
  if (!certificate.ok) problems.push({ path: 'certificate', message: certificate.message });
  if (problems.length > 0 || !note.ok || !certificate.ok) return { ok: false, problems };
  return {
    ok: true,
    change: { status: b.status as RequestStatus, note: note.note, certificate: certificate.certificate },
  };
}

export type ChangeOutcome =
  | { outcome: 'changed'; summary: RequestSummary; historyId: number; notices: number }
  | { outcome: 'already'; summary: RequestSummary }
  | { outcome: 'refused'; summary: RequestSummary }
  /** A note or certificate for a request whose personal data was erased: not stored (issue 36). */
  | { outcome: 'erased'; summary: RequestSummary }
  /** The certificate is not one of the request's person in the register (intake/certificate.ts). */
  | { outcome: 'certificateMismatch'; summary: RequestSummary }
  | { outcome: 'none' };

/** The summary's columns and the form values (for the notifications). */
const COLUMNS = [...SUMMARY_COLUMNS, 'payload', 'person_key'] as const;

/**
 * Moves the request on: 'changed', 'already' (it has that status and no new note: nothing
 * changes, nothing is sent), 'refused' (the change may not follow its status) or 'none' (no such
 * reference). A new note with the same status is a change (issue 36: the note is the news): a
 * history row and its notifications. Marking received notes `received_at` (the retention clock's
 * start) the first time. An erased request can still move on; it has no address left to notify,
 * and a note or certificate for it is not stored ('erased': the purge erased those, issue 36).
 */
export async function changeStatus(
  db: Db,
  reference: string,
  change: StatusChange,
  now: Date = new Date(),
): Promise<ChangeOutcome> {
  return db.kysely.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom('requests')
      .select(COLUMNS)
      .where('reference', '=', reference)
      .executeTakeFirst();
    if (!row) return { outcome: 'none' } as const;
    const from = isRequestStatus(row.status) ? row.status : 'new';
    if (row.erased_at !== null && (change.note || change.certificate))
      return { outcome: 'erased', summary: toSummary(row) } as const;
    if (from === change.status) {
      const last = await trx
        .selectFrom('request_status_history')
        .select('note')
        .where('request_id', '=', row.id)
        .orderBy('id', 'desc')
        .limit(1)
        .executeTakeFirst();
      if (!change.note || change.note === (last?.note ?? null))
        return { outcome: 'already', summary: toSummary(row) } as const;
    } else if (!mayChangeStatus(from, change.status))
      return { outcome: 'refused', summary: toSummary(row) } as const;
    if (change.certificate && !(await isCertificateOf(trx, row.person_key, change.certificate)))
      return { outcome: 'certificateMismatch', summary: toSummary(row) } as const;
    const at = now.toISOString();
    const receivedAt = row.received_at ?? (change.status === 'received' ? at : null);
    // Conditional on the status read: a change made meanwhile by another call wins, this one is refused.
    const moved = await trx
      .updateTable('requests')
      .set({ status: change.status, received_at: receivedAt })
      .where('id', '=', row.id)
      .where('status', '=', row.status)
      .executeTakeFirst();
    if (Number(moved.numUpdatedRows) !== 1) return { outcome: 'refused', summary: toSummary(row) } as const;
    const inserted = await trx
      .insertInto('request_status_history')
      .values({
        request_id: row.id,
        status: change.status,
        at,
        note: change.note ?? null,
        certificate: change.certificate ?? null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const historyId = Number(inserted.id);
    const values: Partial<FormValues> = row.erased_at === null ? storedFormValues(row.payload) : {};
    const notices = await enqueueNotices(trx, row.id, historyId, values, now);
    return {
      outcome: 'changed',
      summary: toSummary({ ...row, status: change.status, received_at: receivedAt }),
      historyId,
      notices,
    } as const;
  });
}

/** A request's changes, oldest first. */
export async function statusHistory(db: Db, requestId: string): Promise<HistoryEntry[]> {
  const rows = await db.kysely
    .selectFrom('request_status_history')
    .select(['status', 'at', 'note', 'certificate', 'correction'])
    .where('request_id', '=', requestId)
    .orderBy('id')
    .execute();
  return rows.map((r) => ({
    status: isRequestStatus(r.status) ? r.status : 'received',
    at: r.at,
    note: r.note,
    certificate: r.certificate,
    correction: Number(r.correction) === 1,
  }));
}

/** A request's changes by its reference (also after its personal data was erased), oldest first. */
export async function historyByReference(db: Db, reference: string): Promise<HistoryEntry[]> {
  const row = await db.kysely
    .selectFrom('requests')
    .select('id')
    .where('reference', '=', reference)
    .executeTakeFirst();
  return row ? statusHistory(db, row.id) : [];
}
