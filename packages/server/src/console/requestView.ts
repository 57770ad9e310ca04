import { isRequestStatus, parseReference, type RequestStatus } from '@ros/domain';
import type { Db } from '../db/database.js';
import { agreedTexts, findByReference } from '../intake/requests.js';
import { type NoticeView, noticesOf } from '../notifications/notices.js';
import { PDF_LABELS, type PdfLanguage } from '../pdf/labels.js';
import { loadCodeNames, type PdfSection, pdfSections } from '../pdf/model.js';

/**
 * A request as a clerk reads it (issue 38, docs/console-data.md "The request"): every field with
 * its form label and its value as the PDF prints it (pdf/model.ts pdfSections: the same rows, the
 * codes by their names from the reference data), the legal texts the applicant agreed to with
 * their ticks, the history and the notifications. Times stay ISO (UTC) here: the pages show them
 * in Prague time (console/time.ts). After the erasure only what stays: the reference, the
 * statuses and the dates.
 */

export interface ViewSection {
  title: string;
  rows: Array<{ label: string; value: string }>;
  /** The section's sentence when it has nothing else ("Žádné pobyty v zahraničí nebyly uvedeny."). */
  note?: string;
}

export interface ViewHistoryEntry {
  /** The history row's id (a notification's `historyId`). */
  id: number;
  status: RequestStatus;
  at: string;
  /** The note to the applicant; null after the erasure. */
  note: string | null;
  /** The issued certificate's validity-check id; null after the erasure. */
  certificate: string | null;
  /** This row corrects a decision (its note is the reason). */
  correction: boolean;
}

export interface RequestView {
  reference: string;
  status: RequestStatus;
  viaNia: boolean;
  language: 'cs' | 'en';
  duplicate: boolean;
  createdAt: string;
  receivedAt: string | null;
  erased: boolean;
  /** The form's sections in the console's language; empty after the erasure. */
  sections: ViewSection[];
  /**
   * The legal texts' version and each box of the dialog, word for word as the applicant was
   * shown it (in the request's language) with its tick; null after the erasure.
   */
  legal: { version: string; items: Array<{ key: string; text: string; ticked: boolean }> } | null;
  /** Every change of status, oldest first (the submission itself is `createdAt`). */
  history: ViewHistoryEntry[];
  notices: NoticeView[];
}

export interface RequestViewDeps {
  /** The console's language: its labels and code names (default Czech). */
  lang?: PdfLanguage;
}

/**
 * The PDF's sections as the console lists them: a section's rows, then each of its groups (an
 * activity, a stay abroad) as a section of its own, titled "Předchozí činnosti – Činnost 1".
 */
function viewSections(sections: PdfSection[]): ViewSection[] {
  return sections.flatMap((s) => [
    { title: s.heading, rows: s.rows, ...(s.note ? { note: s.note } : {}) },
    ...s.groups.map((g) => ({ title: `${s.heading} – ${g.heading}`, rows: g.rows })),
  ]);
}

/** A request's history rows with their ids and correction flags, oldest first. */
async function historyOf(db: Db, requestId: string, erased: boolean): Promise<ViewHistoryEntry[]> {
  const rows = await db.kysely
    .selectFrom('request_status_history')
    .select(['id', 'status', 'at', 'note', 'certificate', 'correction'])
    .where('request_id', '=', requestId)
    .orderBy('id')
    .execute();
  return rows.map((r) => ({
    id: Number(r.id),
    status: isRequestStatus(r.status) ? r.status : 'received',
    at: r.at,
    note: erased ? null : r.note,
    certificate: erased ? null : r.certificate,
    correction: Number(r.correction) === 1,
  }));
}

/** The request's id (the secret of its PDF link: never shown) by its reference, for noticesOf/resendNotice. */
export async function requestIdOf(db: Db, reference: string): Promise<string | null> {
  const ref = parseReference(reference);
  if (!ref) return null;
  const row = await db.kysely
    .selectFrom('requests')
    .select('id')
    .where('reference', '=', ref)
    .executeTakeFirst();
  return row?.id ?? null;
}

/** The request by its reference (any case), or null when there is none. */
export async function requestView(
  db: Db,
  reference: string,
  deps: RequestViewDeps = {},
): Promise<RequestView | null> {
  const ref = parseReference(reference);
  if (!ref) return null;
  const found = await findByReference(db, ref);
  if (found.kind === 'none') return null;
  const s = found.summary;
  const summary = {
    reference: s.reference,
    status: s.status,
    viaNia: s.channel === 'nia',
    language: s.language,
    duplicate: s.duplicate,
    createdAt: s.created_at,
    receivedAt: s.received_at,
  };
  if (found.kind === 'erased') {
    const id = await requestIdOf(db, ref);
    const history = id === null ? [] : await historyOf(db, id, true);
    return { ...summary, erased: true, sections: [], legal: null, history, notices: [] };
  }
  const r = found.request;
  const lang = deps.lang ?? 'cs';
  const names = await loadCodeNames(db, r.values, lang);
  const agreed = agreedTexts(r);
  return {
    ...summary,
    erased: false,
    sections: viewSections(pdfSections(r.values, r.duplicate, PDF_LABELS[lang], names)),
    legal: { version: agreed.version, items: agreed.statements },
    history: await historyOf(db, r.id, false),
    notices: await noticesOf(db, r.id),
  };
}
