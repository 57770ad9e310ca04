import { calendarDateOf, formatDisplayDate, isRequestStatus, type StatusAnswer } from '@ros/domain';
import { ApiRequestError, apiPost } from '../api/client';

/** What a look-up ended with: the answer, or why there is none. */
export type LookupResult =
  | { kind: 'found'; answer: StatusAnswer }
  /** An unknown reference or a wrong code: the server does not say which. */
  | { kind: 'not-found' }
  | { kind: 'limited' }
  | { kind: 'error' };

/** POST /api/ros/status (docs/status.md). */
export async function lookUpStatus(reference: string, code: string): Promise<LookupResult> {
  try {
    const raw = await apiPost<unknown>('/status', { reference, code });
    const answer = asStatusAnswer(raw);
    return answer ? { kind: 'found', answer } : { kind: 'error' };
  } catch (error) {
    if (error instanceof ApiRequestError && error.status === 404) return { kind: 'not-found' };
    if (error instanceof ApiRequestError && error.status === 429) return { kind: 'limited' };
    return { kind: 'error' };
  }
}

/**
 * The answer, checked by hand: zod would build its schema with `new Function` (refused by the
 * pages' CSP outside the form's jitless chunk) and add weight to this page (issue 14).
 */
function asStatusAnswer(raw: unknown): StatusAnswer | null {
  const a = raw as Partial<StatusAnswer> | null;
  const text = (v: unknown): v is string => typeof v === 'string';
  if (
    !a ||
    !text(a.reference) ||
    !isRequestStatus(a.status) ||
    (a.channel !== 'pdf' && a.channel !== 'nia') ||
    !text(a.submitted_at) ||
    !(a.certificate === null || text(a.certificate)) ||
    !Array.isArray(a.events) ||
    !a.events.every((e) => isRequestStatus(e?.status) && text(e.at) && (e.note === null || text(e.note)))
  )
    return null;
  return a as StatusAnswer;
}

/** An instant as the portal writes dates in both languages: dd.mm.yyyy (Prague; no Intl: issue 37). */
export function displayDate(iso: string): string {
  return formatDisplayDate(calendarDateOf(new Date(iso)));
}
