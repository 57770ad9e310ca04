import { isRequestStatus, type RequestStatus } from '@ros/domain';
import { type SqlBool, sql } from 'kysely';
import type { Db } from '../db/database.js';
import { decodeCursor, encodeCursor } from '../intake/paging.js';

/**
 * The console's queue (issue 38, docs/console-data.md): the open requests by tab, oldest first,
 * read through the index `requests_queue` (status, created_at, reference; migration 0014) with
 * keyset paging, so a page costs the same at the 50th page as at the first and requests that
 * come in meanwhile never shift one. Only requests whose personal data is held are listed.
 */

/**
 * The tabs: `new` split by route (on paper the authority waits for the signed PDF; after NIA
 * sign-in it has the request already), then the statuses a clerk works on.
 */
export const QUEUE_TABS = ['paper_new', 'nia_new', 'received', 'in_progress', 'documents_needed'] as const;
export type QueueTab = (typeof QUEUE_TABS)[number];

export const isQueueTab = (v: unknown): v is QueueTab =>
  typeof v === 'string' && (QUEUE_TABS as readonly string[]).includes(v);

const TAB_FILTER: Record<QueueTab, { status: RequestStatus; viaNia?: 0 | 1 }> = {
  paper_new: { status: 'new', viaNia: 0 },
  nia_new: { status: 'new', viaNia: 1 },
  received: { status: 'received' },
  in_progress: { status: 'in_progress' },
  documents_needed: { status: 'documents_needed' },
};

/** The most rows of one page (queue and search). */
export const CONSOLE_MAX_PAGE = 100;

/**
 * A query the console cannot answer as asked (a tab, a page size, a cursor or a search field
 * that is not one it accepts): the route answers 400 INVALID_REQUEST naming `field`.
 */
export class ConsoleQueryError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
    this.name = 'ConsoleQueryError';
  }
}

/**
 * "Personal data held" for a page's query. SQLite keeps no statistics here (the server never runs
 * ANALYZE) and takes `erased_at is null` for an equality on the first column of the retention
 * index (erased_at, status, received_at): it then read every held request and sorted them instead
 * of the range of the page's own index. Written as an expression no index serves, the filter
 * stays a filter. PostgreSQL estimates `is null` from its statistics and reads the right index.
 */
export const heldOnly = (db: Db) =>
  db.dialect === 'sqlite' ? sql<SqlBool>`coalesce(erased_at, '') = ''` : sql<SqlBool>`erased_at is null`;

/** The page size, checked: a whole number from 1 to CONSOLE_MAX_PAGE. */
export function pageLimit(limit: unknown): number {
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > CONSOLE_MAX_PAGE)
    throw new ConsoleQueryError('limit', `must be a whole number from 1 to ${CONSOLE_MAX_PAGE}`);
  return limit;
}

/** One request in the queue (and, with `erased`, in a search: console/search.ts). */
export interface QueueRow {
  reference: string;
  /** Given names and surname as the applicant wrote them ('Jan Novák'). */
  name: string;
  /** ISO 'YYYY-MM-DD', or null when the request holds none. */
  birthDate: string | null;
  viaNia: boolean;
  language: 'cs' | 'en';
  duplicate: boolean;
  status: RequestStatus;
  /** ISO instant (UTC); the page shows it in Prague time (console/time.ts). */
  createdAt: string;
}

export interface QueuePage<Row = QueueRow> {
  rows: Row[];
  /** The cursor of the next page, or null on the last one. */
  next: string | null;
}

/** The columns a queue or search row is made of. */
export const ROW_COLUMNS = [
  'reference',
  'status',
  'via_nia',
  'language',
  'duplicate',
  'created_at',
  'birth_date',
  'payload',
] as const;

interface RowColumns {
  reference: string;
  status: string;
  via_nia: number;
  language: string;
  duplicate: number;
  created_at: string;
  birth_date: string | null;
  payload: string;
}

/** The name as written: the payload's given names and surname (only these two are read). */
function writtenName(payload: string): string {
  try {
    const v = JSON.parse(payload) as { first_name?: unknown; last_name?: unknown };
    const part = (s: unknown) => (typeof s === 'string' ? s.trim() : '');
    return `${part(v.first_name)} ${part(v.last_name)}`.trim();
  } catch {
    return '';
  }
}

export function toQueueRow(r: RowColumns): QueueRow {
  return {
    reference: r.reference,
    name: writtenName(r.payload),
    birthDate: r.birth_date,
    viaNia: Number(r.via_nia) === 1,
    language: r.language === 'en' ? 'en' : 'cs',
    duplicate: Number(r.duplicate) === 1,
    status: isRequestStatus(r.status) ? r.status : 'new',
    createdAt: r.created_at,
  };
}

/**
 * The queries of the counts (exported for the bench): the worked statuses from the retention
 * index alone (erased_at, status: it covers them), and `new` split by route, which needs the
 * table's `via_nia` (one look-up per new request, not per open one).
 */
export function queueCountsQueries(db: Db) {
  const held = db.kysely.selectFrom('requests').where('erased_at', 'is', null);
  return {
    worked: held
      .select((eb) => ['status', eb.fn.countAll<number | string>().as('n')])
      .where('status', 'in', ['received', 'in_progress', 'documents_needed'])
      .groupBy('status'),
    fresh: held
      .select((eb) => ['via_nia', eb.fn.countAll<number | string>().as('n')])
      .where('status', '=', 'new')
      .groupBy('via_nia'),
  };
}

/** How many requests each tab holds (personal data held). */
export async function queueCounts(db: Db): Promise<Record<QueueTab, number>> {
  const q = queueCountsQueries(db);
  const counts = Object.fromEntries(QUEUE_TABS.map((t) => [t, 0])) as Record<QueueTab, number>;
  for (const r of await q.worked.execute()) if (isQueueTab(r.status)) counts[r.status] += Number(r.n);
  for (const r of await q.fresh.execute())
    counts[Number(r.via_nia) === 1 ? 'nia_new' : 'paper_new'] += Number(r.n);
  return counts;
}

export interface QueueQuery {
  tab: QueueTab;
  /** `next` of the page before. */
  cursor?: string | undefined;
  limit: number;
}

/**
 * The query of one page (exported for the plan test and the bench): the tab's status through
 * the index, after the cursor's (created_at, reference) as a row value, which both databases
 * read as a range of the index; one row more than the page tells whether there is a next.
 */
export function queuePageQuery(db: Db, q: QueueQuery) {
  if (!isQueueTab(q.tab)) throw new ConsoleQueryError('tab', `must be one of ${QUEUE_TABS.join(', ')}`);
  const limit = pageLimit(q.limit);
  const after = q.cursor === undefined ? null : decodeCursor(q.cursor);
  if (q.cursor !== undefined && after === null)
    throw new ConsoleQueryError('cursor', 'is not the cursor of a page of this queue');
  const filter = TAB_FILTER[q.tab];
  let query = db.kysely
    .selectFrom('requests')
    .select(ROW_COLUMNS)
    .where('status', '=', filter.status)
    .where(heldOnly(db));
  if (filter.viaNia !== undefined) query = query.where('via_nia', '=', filter.viaNia);
  if (after)
    query = query.where((eb) =>
      eb(eb.refTuple('created_at', 'reference'), '>', eb.tuple(after.created_at, after.reference)),
    );
  return query
    .orderBy('status')
    .orderBy('created_at')
    .orderBy('reference')
    .limit(limit + 1);
}

/** One page of a tab, oldest first; throws ConsoleQueryError for a bad tab, limit or cursor. */
export async function queuePage(db: Db, q: QueueQuery): Promise<QueuePage> {
  const rows = await queuePageQuery(db, q).execute();
  const page = rows.slice(0, q.limit);
  const last = page[page.length - 1];
  return {
    rows: page.map(toQueueRow),
    next: rows.length > q.limit && last ? encodeCursor(last) : null,
  };
}
