import { displayToIso, normalizeBirthNumber, normalizeName, parseIsoDate, parseReference } from '@ros/domain';
import type { Db } from '../db/database.js';
import { birthNumberKey, SEARCH_NAME_MAX } from '../requests/searchKeys.js';
import {
  ConsoleQueryError,
  heldOnly,
  pageLimit,
  type QueuePage,
  type QueueRow,
  ROW_COLUMNS,
  toQueueRow,
} from './queue.js';

/**
 * The console's search (issue 38, docs/console-data.md "Search"), by one of:
 * - `reference`: exact, in any case (ROS-2026-000001); the only way to an erased request, which
 *   comes back marked `erased`, without name or birth date;
 * - `name`: a prefix of "surname given names" as requests/searchKeys.ts keeps it (lower case, no
 *   diacritics): "novák", "Novak" and "novák j" all find "Jan Novák" (and "Eva Nováková");
 *   optionally narrowed by `birthDate` (ISO or dd.mm.yyyy); in order of the name, then reference;
 * - `birthNumber`: exact (with or without the slash), through its hash; by reference.
 * Every input is bounded before it is used; each search is a range of its index on both
 * databases (`requests_search_name`, `requests_birth_number_key`, the reference's unique index).
 */

export interface SearchQuery {
  reference?: string | undefined;
  name?: string | undefined;
  birthDate?: string | undefined;
  birthNumber?: string | undefined;
  /** `next` of the page before (the same search). */
  cursor?: string | undefined;
  limit: number;
}

export interface SearchRow extends Omit<QueueRow, 'name'> {
  /** Null for an erased request. */
  name: string | null;
  /** The personal data was erased (retention): only the reference, status and dates stay. */
  erased: boolean;
}

/** The longest inputs looked at (a name the form allows is at most 50 + 50 characters). */
const NAME_MAX = 120;
const BIRTH_NUMBER_MAX = 20;
const DATE_MAX = 12;
/** What a normalised name may hold: letters, digits, spaces, dots, apostrophes, hyphens. */
const NAME_CHARS = /^[\p{L}\p{N} .'’-]+$/u;

type Mode =
  | { kind: 'reference'; reference: string }
  | { kind: 'name'; prefix: string; birthDate: string | null }
  | { kind: 'birthNumber'; key: string };

const given = (s: string | undefined): s is string => typeof s === 'string' && s.trim() !== '';

function bounded(field: string, s: string, max: number): string {
  if (s.length > max) throw new ConsoleQueryError(field, `must be at most ${max} characters`);
  return s.trim();
}

/** The search asked for, checked: exactly one of reference, name, birth number. */
function modeOf(q: SearchQuery): Mode {
  const asked = (['reference', 'name', 'birthNumber'] as const).filter((k) => given(q[k]));
  if (asked.length !== 1)
    throw new ConsoleQueryError(asked[1] ?? 'name', 'search by one of reference, name or birth number');
  if (given(q.birthDate) && asked[0] !== 'name')
    throw new ConsoleQueryError('birthDate', 'narrows a search by name only');
  if (given(q.reference)) {
    const reference = parseReference(bounded('reference', q.reference, 40));
    if (!reference) throw new ConsoleQueryError('reference', 'must be a reference number (ROS-2026-000001)');
    return { kind: 'reference', reference };
  }
  if (given(q.birthNumber)) {
    const rc = normalizeBirthNumber(bounded('birthNumber', q.birthNumber, BIRTH_NUMBER_MAX));
    const key = /^\d{9,10}$/.test(rc) ? birthNumberKey(rc) : null;
    if (!key) throw new ConsoleQueryError('birthNumber', 'must be a birth number (9 or 10 digits)');
    return { kind: 'birthNumber', key };
  }
  const prefix = normalizeName(bounded('name', q.name ?? '', NAME_MAX)).slice(0, SEARCH_NAME_MAX);
  if (!NAME_CHARS.test(prefix))
    throw new ConsoleQueryError('name', 'may hold letters, spaces, dots, apostrophes and hyphens');
  let birthDate: string | null = null;
  if (given(q.birthDate)) {
    const d = bounded('birthDate', q.birthDate, DATE_MAX);
    birthDate = parseIsoDate(d) ? d : displayToIso(d);
    if (!birthDate) throw new ConsoleQueryError('birthDate', 'must be a date (dd.mm.yyyy)');
  }
  return { kind: 'name', prefix, birthDate };
}

/**
 * The first string after every string that starts with `prefix` (in code-point order, as both
 * databases compare these columns: docs/console-data.md "Collation"): its last character plus one.
 */
export function prefixEnd(prefix: string): string {
  const chars = [...prefix];
  const last = chars.pop()?.codePointAt(0) ?? 0;
  let next = last + 1;
  if (next >= 0xd800 && next <= 0xdfff) next = 0xe000;
  return chars.join('') + String.fromCodePoint(Math.min(next, 0x10ffff));
}

/** The cursor: the last row's sort key, base64url JSON; accepted only as written, for its search. */
type Cursor = { name: string | null; reference: string };

function encode(mode: Mode, last: { search_name: string | null; reference: string }): string {
  const v = mode.kind === 'name' ? ['n', last.search_name, last.reference] : ['b', last.reference];
  return Buffer.from(JSON.stringify(v)).toString('base64url');
}

function decode(mode: Mode, cursor: string): Cursor {
  const bad = () => new ConsoleQueryError('cursor', 'is not the cursor of a page of this search');
  if (mode.kind === 'reference' || !/^[A-Za-z0-9_-]{1,400}$/.test(cursor)) throw bad();
  let v: unknown;
  try {
    v = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw bad();
  }
  if (!Array.isArray(v) || !v.every((s) => typeof s === 'string')) throw bad();
  const reference = v[v.length - 1] as string;
  if (parseReference(reference) !== reference) throw bad();
  if (mode.kind === 'birthNumber' && v.length === 2 && v[0] === 'b') return { name: null, reference };
  const name = v[1] as string;
  if (
    mode.kind === 'name' &&
    v.length === 3 &&
    v[0] === 'n' &&
    name.length <= SEARCH_NAME_MAX &&
    name.startsWith(mode.prefix) &&
    NAME_CHARS.test(name) &&
    normalizeName(name) === name
  )
    return { name, reference };
  throw bad();
}

/**
 * The query of one page (exported for the plan test and the bench). Name: the prefix as a range
 * of `search_name` (the index's first column), the birth date as its second column; after a
 * cursor, the range starts at its name. Nothing else on the name: PostgreSQL estimates a plain
 * range from its statistics and reads the index in order, stopping after the page (a `substr`
 * guard, estimated at 0.5 %, made it fetch every match and sort them: 100 ms for "n" at 100,000
 * requests, bench/README.md).
 */
export function searchQuery(db: Db, q: SearchQuery) {
  const mode = modeOf(q);
  const limit = pageLimit(q.limit);
  const after = q.cursor === undefined ? null : decode(mode, q.cursor);
  const base = db.kysely.selectFrom('requests').select([...ROW_COLUMNS, 'search_name', 'erased_at']);
  if (mode.kind === 'reference')
    return { mode, query: base.where('reference', '=', mode.reference).limit(1) };
  if (mode.kind === 'birthNumber') {
    let query = base.where('birth_number_key', '=', mode.key).where(heldOnly(db));
    if (after) query = query.where('reference', '>', after.reference);
    return { mode, query: query.orderBy('reference').limit(limit + 1) };
  }
  const afterName = after?.name ?? null;
  let query = base
    .where('search_name', '>=', afterName ?? mode.prefix)
    .where('search_name', '<', prefixEnd(mode.prefix))
    .where(heldOnly(db));
  if (mode.birthDate) query = query.where('birth_date', '=', mode.birthDate);
  if (after && afterName !== null)
    query = query.where((eb) =>
      eb(eb.refTuple('search_name', 'reference'), '>', eb.tuple(afterName, after.reference)),
    );
  return {
    mode,
    query: query
      .orderBy('search_name')
      .orderBy('reference')
      .limit(limit + 1),
  };
}

/** One page of a search; throws ConsoleQueryError for a search or cursor it does not accept. */
export async function searchRequests(db: Db, q: SearchQuery): Promise<QueuePage<SearchRow>> {
  const { mode, query } = searchQuery(db, q);
  const rows = await query.execute();
  const page = rows.slice(0, q.limit);
  const last = page[page.length - 1];
  // The range is exactly the prefix in code-point order (SQLite; PostgreSQL with a "C" collation);
  // under another collation a name outside the prefix may fall into it: not shown.
  const shown =
    mode.kind === 'name' ? page.filter((r) => r.search_name?.startsWith(mode.prefix) === true) : page;
  return {
    rows: shown.map((r) =>
      r.erased_at !== null
        ? { ...toQueueRow(r), name: null, birthDate: null, erased: true }
        : { ...toQueueRow(r), erased: false },
    ),
    next: rows.length > q.limit && last && mode.kind !== 'reference' ? encode(mode, last) : null,
  };
}
