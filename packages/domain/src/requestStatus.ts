/**
 * Where a request is (issue 26, docs/status.md): the statuses the authority reports, which change
 * may follow which, and the applicant's access code to the status page. One module for the
 * server (the intake API, `ros-admin`) and the browser (the status page's form).
 */

/** Every status, in the order a request usually passes them. */
export const REQUEST_STATUSES = [
  'new',
  'received',
  'in_progress',
  'documents_needed',
  'issued',
  'refused',
  'withdrawn',
] as const;
export type RequestStatus = (typeof REQUEST_STATUSES)[number];

/** The decisions: a request that reached one stays there. */
export const DECIDED_STATUSES: readonly RequestStatus[] = ['issued', 'refused', 'withdrawn'];

/** Which status may follow which (the same status again changes nothing and is no transition). */
const NEXT: Record<RequestStatus, readonly RequestStatus[]> = {
  new: ['received', 'withdrawn'],
  received: ['in_progress', 'documents_needed', 'issued', 'refused', 'withdrawn'],
  in_progress: ['documents_needed', 'issued', 'refused', 'withdrawn'],
  documents_needed: ['in_progress', 'issued', 'refused', 'withdrawn'],
  issued: [],
  refused: [],
  withdrawn: [],
};

export function isRequestStatus(s: unknown): s is RequestStatus {
  return typeof s === 'string' && (REQUEST_STATUSES as readonly string[]).includes(s);
}

/** Whether `to` may follow `from`. */
export function mayChangeStatus(from: RequestStatus, to: RequestStatus): boolean {
  return NEXT[from].includes(to);
}

/** The statuses that may follow `from`. */
export function nextStatuses(from: RequestStatus): readonly RequestStatus[] {
  return NEXT[from];
}

/** Whether a request with this status is decided (issued, refused, withdrawn). */
export function isDecided(status: RequestStatus): boolean {
  return DECIDED_STATUSES.includes(status);
}

/**
 * Correcting a wrong decision (issue 38, docs/status.md "Correcting a decision"): a decided
 * request stays decided for ordinary changes (NEXT), but the authority may put a mistaken
 * decision right. The statuses a correction may set: any the authority reports (never `new`:
 * a request once sent stays sent).
 */
export const CORRECTION_STATUSES: readonly RequestStatus[] = REQUEST_STATUSES.filter((s) => s !== 'new');

/**
 * Whether a request with status `from` may be corrected to `to`: 'ok'; 'notDecided' (only a
 * decided request is corrected: an undecided one moves on by an ordinary change); 'unchanged'
 * (the correction would leave the decision as it is: the same status, unless it is `issued`
 * with another certificate, `certificateChanged`, the wrong certificate put right).
 *
 * What may follow a correction: the request is at its new status and moves on from there by
 * the ordinary transitions (`mayChangeStatus`); if that status is a decision, it may be
 * corrected again the same way (a correction of a correction).
 */
export function correctionCheck(
  from: RequestStatus,
  to: RequestStatus,
  certificateChanged = false,
): 'ok' | 'notDecided' | 'unchanged' {
  if (!isDecided(from)) return 'notDecided';
  if (!CORRECTION_STATUSES.includes(to)) return 'unchanged';
  if (from === to && !(to === 'issued' && certificateChanged)) return 'unchanged';
  return 'ok';
}

/** The statuses a correction of a request with status `from` may set (none unless decided). */
export function correctionStatuses(from: RequestStatus): readonly RequestStatus[] {
  return isDecided(from) ? CORRECTION_STATUSES : [];
}

/** A row of a request's history, as far as the rules below read it. */
export interface HistoryStep {
  status: RequestStatus;
  certificate: string | null;
  /** This row corrects a decision (its note is the reason). */
  correction: boolean;
}

/**
 * The certificate a request's current decision issued (its validity-check id), or null: the
 * current outcome is the last row's. Only an `issued` request has one: the last `issued` row
 * that names a certificate, looking back through the trailing `issued` rows (a later note with
 * the same status keeps the certificate), but never past a correction (a correction to `issued`
 * without a certificate takes a wrong one back) nor past another status.
 */
export function currentCertificate(history: readonly HistoryStep[]): string | null {
  for (let i = history.length - 1; i >= 0; i--) {
    const h = history[i] as HistoryStep;
    if (h.status !== 'issued') return null;
    if (h.certificate) return h.certificate;
    if (h.correction) return null;
  }
  return null;
}

/** The authority's note to the applicant: at most this many characters. */
export const STATUS_NOTE_MAX_LENGTH = 500;

/**
 * The access code's alphabet: digits and capital letters without 0, 1, I and O (nothing to
 * confuse with another character; the code is shown in capitals, so there is no l either).
 * 32 characters: 5 bits each.
 */
export const ACCESS_CODE_ALPHABET = '23456789ABCDEFGHJKLMNPQRSTUVWXYZ';
/** 12 characters: 60 bits. */
export const ACCESS_CODE_LENGTH = 12;

/**
 * The access code as typed (any case, spaces and dashes anywhere) in its canonical form, or null
 * when it cannot be one (a character outside the alphabet, another length).
 */
export function normalizeAccessCode(input: string): string | null {
  if (typeof input !== 'string' || input.length > 40) return null;
  const code = input.replace(/[\s-]/g, '').toUpperCase();
  if (code.length !== ACCESS_CODE_LENGTH) return null;
  for (const c of code) if (!ACCESS_CODE_ALPHABET.includes(c)) return null;
  return code;
}

/** 'ABCDEFGHJKLM' -> 'ABCD-EFGH-JKLM': easier to read aloud and to type. */
export function formatAccessCode(code: string): string {
  return code.replace(/(.{4})(?=.)/g, '$1-');
}

/** A reference number: ROS-YYYY-NNNNNN, numbers past 999999 longer (up to 9 digits). */
const REFERENCE_PATTERN = /^ROS-[0-9]{4}-[0-9]{6,9}$/;

/** A reference as typed or scanned (any case, spaces around); null when it cannot be one. */
export function parseReference(s: string): string | null {
  if (typeof s !== 'string' || s.length > 40) return null;
  const r = s.trim().toUpperCase();
  return REFERENCE_PATTERN.test(r) ? r : null;
}

/** The status page's two paths (the same page; its language is the `lang` of the link). */
export const STATUS_PAGE_PATHS = { cs: '/stav-zadosti', en: '/request-status' } as const;

/**
 * The status page's link with the reference and the access code in the fragment: a browser never
 * sends the fragment to a server, so neither appears in any access log.
 */
export function statusPagePath(lang: 'cs' | 'en', reference: string, code: string): string {
  return `${statusPageAddress(lang)}#${reference}/${code}`;
}

/**
 * The status page without a fragment: it asks for the reference and the access code. What a
 * status SMS links (issue 33: the SMS gateway is given the reference, never the code).
 */
export function statusPageAddress(lang: 'cs' | 'en'): string {
  return `${STATUS_PAGE_PATHS[lang]}${lang === 'en' ? '?lang=en' : ''}`;
}

/** Reads 'ROS-2026-000001/ABCDEFGHJKLM' (a link's fragment, without '#'). */
export function parseStatusFragment(fragment: string): { reference: string; code: string } | null {
  let text: string;
  try {
    text = decodeURIComponent(fragment.replace(/^#/, ''));
  } catch {
    return null;
  }
  const [ref = '', typed = '', ...rest] = text.split('/');
  const reference = parseReference(ref);
  const code = normalizeAccessCode(typed);
  return reference && code && rest.length === 0 ? { reference, code } : null;
}
