import {
  CORRECTION_STATUSES,
  correctionCheck,
  currentCertificate,
  type FormValues,
  isRequestStatus,
  type RequestStatus,
  storedFormValues,
} from '@ros/domain';
import type { Db } from '../db/database.js';
import { enqueueNotices } from '../notifications/notices.js';
import { isCertificateOf } from './certificate.js';
import { checkCertificate, checkNote } from './status.js';
import { type RequestSummary, SUMMARY_COLUMNS, toSummary } from './summary.js';

/**
 * Correcting a wrong decision (issue 38, docs/status.md "Correcting a decision"): a decided
 * request (issued, refused, withdrawn) stays decided for ordinary changes (intake/status.ts), but
 * a mistaken decision, or a wrong certificate, can be put right. A correction is a new row of
 * the history, marked `correction = 1`, whose note is the reason (for the applicant: the status
 * page shows it); the earlier rows stay as they were. It sets any status the authority reports
 * (the rule, and what may follow: @ros/domain requestStatus.ts `correctionCheck`), also `issued`
 * again with another certificate, which must be one of the request's person's
 * (intake/certificate.ts). The request's new status, the row and the notifications the applicant
 * asked for are written in one transaction, as a status change's are.
 */

export interface Correction {
  /** The corrected outcome: any status but `new` (CORRECTION_STATUSES). */
  status: RequestStatus;
  /** With `issued`: the right certificate's validity-check id ('5001x2065'); none = issued without a link. */
  certificate?: string | null;
  /** Why: for the applicant (a status note's rules: 1 to 500 characters, the text policy). */
  reason: string;
}

type Problem = { path: string; message: string };

const STATUS_MESSAGE = `must be one of ${CORRECTION_STATUSES.join(', ')}`;

/**
 * A correction as given (POST …/correction's body, the command's words, a console form),
 * checked: the correction (the reason as stored: trimmed and normalised), or what is wrong, by
 * field. The reason follows a status note's rules (intake/status.ts checkNote) and is required.
 */
export function checkCorrection(
  body: unknown,
): { ok: true; correction: Required<Correction> } | { ok: false; problems: Problem[] } {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    return { ok: false, problems: [{ path: '', message: 'must be an object' }] };
  const b = body as Record<string, unknown>;
  const problems: Problem[] = [];
  for (const k of Object.keys(b))
    if (!['status', 'reason', 'certificate'].includes(k))
      problems.push({ path: k, message: 'unknown field' });
  if (!isRequestStatus(b.status) || !CORRECTION_STATUSES.includes(b.status))
    problems.push({ path: 'status', message: STATUS_MESSAGE });
  const reason = checkNote(b.reason);
  if (!reason.ok) problems.push({ path: 'reason', message: reason.message });
  else if (reason.note === null) problems.push({ path: 'reason', message: 'is required' });
  const certificate = checkCertificate(b.certificate, b.status);
  if (!certificate.ok) problems.push({ path: 'certificate', message: certificate.message });
  if (problems.length > 0 || !reason.ok || reason.note === null || !certificate.ok)
    return { ok: false, problems };
  return {
    ok: true,
    correction: {
      status: b.status as RequestStatus,
      reason: reason.note,
      certificate: certificate.certificate,
    },
  };
}

export type CorrectionOutcome =
  /** Corrected: the request is at `summary.status`; `from` was its decision; `notices` queued. */
  | { outcome: 'corrected'; summary: RequestSummary; from: RequestStatus; historyId: number; notices: number }
  /** The same correction again (status, certificate and reason of the last row, a correction): nothing changes. */
  | { outcome: 'already'; summary: RequestSummary }
  /** The request is not decided: it moves on by an ordinary status change (409 NOT_DECIDED). */
  | { outcome: 'notDecided'; summary: RequestSummary }
  /** It would leave the decision as it is: the same status (issued: the same certificate) (409 STATUS_TRANSITION). */
  | { outcome: 'unchanged'; summary: RequestSummary }
  /** The request's personal data was erased: a reason is not stored (410 REQUEST_ERASED). */
  | { outcome: 'erased'; summary: RequestSummary }
  /** The certificate is not one of the request's person in the register (400 CERTIFICATE_MISMATCH). */
  | { outcome: 'certificateMismatch'; summary: RequestSummary }
  /** The correction itself is not valid (checkCorrection's problems; 400 INVALID_REQUEST). */
  | { outcome: 'invalid'; problems: Problem[] }
  /** No request has this reference. */
  | { outcome: 'none' };

/** The summary's columns and the form values (for the notifications). */
const COLUMNS = [...SUMMARY_COLUMNS, 'payload', 'person_key'] as const;

/**
 * Corrects the decision of the request `reference` (see above). Nothing is stored unless it
 * answers 'corrected'. The correction is checked again here (checkCorrection), so every caller
 * gets the same rules. A correction of a correction works the same way.
 */
export async function correctDecision(
  db: Db,
  reference: string,
  correction: Correction,
  now: Date = new Date(),
): Promise<CorrectionOutcome> {
  const checked = checkCorrection({
    status: correction.status,
    reason: correction.reason,
    certificate: correction.certificate ?? null,
  });
  if (!checked.ok) return { outcome: 'invalid', problems: checked.problems };
  const { status: to, reason, certificate } = checked.correction;
  return db.kysely.transaction().execute(async (trx) => {
    const select = trx.selectFrom('requests').select(COLUMNS).where('reference', '=', reference);
    // PostgreSQL: the row is held until the correction is stored (two at once: one after the other).
    const row = await (db.dialect === 'postgres' ? select.forUpdate() : select).executeTakeFirst();
    if (!row) return { outcome: 'none' } as const;
    const summary = toSummary(row);
    // The reason is a note: after the retention purge it would stay for ever (issue 36).
    if (row.erased_at !== null) return { outcome: 'erased', summary } as const;
    const from = summary.status;
    const history = (
      await trx
        .selectFrom('request_status_history')
        .select(['status', 'note', 'certificate', 'correction'])
        .where('request_id', '=', row.id)
        .orderBy('id')
        .execute()
    ).map((h) => ({
      status: isRequestStatus(h.status) ? h.status : 'received',
      note: h.note,
      certificate: h.certificate,
      correction: Number(h.correction) === 1,
    }));
    const last = history.at(-1);
    if (
      last?.correction &&
      from === to &&
      last.status === to &&
      last.note === reason &&
      last.certificate === certificate
    )
      return { outcome: 'already', summary } as const;
    const check = correctionCheck(from, to, certificate !== currentCertificate(history));
    if (check !== 'ok') return { outcome: check, summary } as const;
    if (certificate && !(await isCertificateOf(trx, row.person_key, certificate)))
      return { outcome: 'certificateMismatch', summary } as const;
    const at = now.toISOString();
    // A request corrected to any status is one the authority has (a request withdrawn before it
    // was received, then corrected): its retention clock starts now, as when marked received.
    const receivedAt = row.received_at ?? at;
    const moved = await trx
      .updateTable('requests')
      .set({ status: to, received_at: receivedAt })
      .where('id', '=', row.id)
      .where('status', '=', row.status)
      .executeTakeFirst();
    if (Number(moved.numUpdatedRows) !== 1) return { outcome: 'unchanged', summary } as const;
    const inserted = await trx
      .insertInto('request_status_history')
      .values({ request_id: row.id, status: to, at, note: reason, certificate, correction: 1 })
      .returning('id')
      .executeTakeFirstOrThrow();
    const historyId = Number(inserted.id);
    const values: Partial<FormValues> = storedFormValues(row.payload);
    const notices = await enqueueNotices(trx, row.id, historyId, values, now);
    return {
      outcome: 'corrected',
      summary: toSummary({ ...row, status: to, received_at: receivedAt }),
      from,
      historyId,
      notices,
    } as const;
  });
}
