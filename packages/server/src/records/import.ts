import {
  followsTextPolicy,
  MAX_PERSON_ID,
  MAX_RECORD_ID,
  TEXT_POLICY_MESSAGE,
  toValidityIsoDate,
} from '@ros/domain';
import {
  type FileFormat,
  type FileRow,
  formatProblems,
  type LineProblem,
  type ReadResult,
  readCsvRows,
  readJsonRows,
} from '../imports/files.js';
import type { RecordInput } from './repository.js';

/**
 * Reading a file of certificates for `ros-admin records load`. Two formats (read by
 * imports/files.ts), same field names (those of the `records` table):
 *
 *   JSON: an array of objects, e.g.
 *     [{ "id": 1001, "first_name": "Jana", "last_name": "Nováková", "platnost_do": "2027-03-31",
 *        "a1a3_valid_until": "2027-03-31", "a2_valid_until": null, "person_id": null, "stav": "Ano" }]
 *   CSV: a header row naming the columns, then one certificate per row; separated by ',' or ';'
 *     (whichever the header uses), fields with the separator, quotes or line breaks in double quotes.
 *
 * Required: id (whole number from 1), first_name, last_name (up to 100 characters), platnost_do.
 * Optional: a1a3_valid_until, a2_valid_until (empty = category not held), person_id, stav ('Ano' or
 * 'Ne', default 'Ano'). Dates as 'YYYY-MM-DD' or 'dd.mm.yyyy'. Unknown fields are errors (a typo
 * must not drop data silently). Every problem is reported with its line; nothing is stored unless
 * the whole file is right.
 */

/** A problem of the file, on the line where the certificate (or the problem) starts. */
export type ImportError = LineProblem;

export type ImportResult = { ok: true; records: RecordInput[] } | { ok: false; errors: ImportError[] };

export const RECORD_FIELDS = [
  'id',
  'first_name',
  'last_name',
  'platnost_do',
  'a1a3_valid_until',
  'a2_valid_until',
  'person_id',
  'stav',
] as const;
type Field = (typeof RECORD_FIELDS)[number];
const REQUIRED: readonly Field[] = ['id', 'first_name', 'last_name', 'platnost_do'];
const NAME_MAX = 100;
/** More errors than this are summed up: a wrong file would otherwise print thousands of lines. */
export const MAX_REPORTED_ERRORS = 50;

export function parseRecordsFile(text: string, format: FileFormat): ImportResult {
  const rows = format === 'json' ? jsonRows(text) : csvRows(text);
  if (!rows.ok) return { ok: false, errors: rows.problems };
  return validateRows(rows.rows);
}

type RawRow = FileRow<Record<string, unknown>>;

function jsonRows(text: string): ReadResult<Record<string, unknown>> {
  const read = readJsonRows(text, { notAList: 'the file must hold a JSON array of certificates' });
  if (!read.ok) return read;
  const rows: RawRow[] = [];
  const problems: LineProblem[] = [];
  read.rows.forEach(({ line, values }, i) => {
    if (values === null || typeof values !== 'object' || Array.isArray(values)) {
      problems.push({ line, message: `certificate ${i + 1} is not an object` });
    } else rows.push({ line, values: values as Record<string, unknown> });
  });
  return problems.length > 0 ? { ok: false, problems } : { ok: true, rows };
}

function csvRows(text: string): ReadResult<Record<string, unknown>> {
  return readCsvRows(text, { columns: RECORD_FIELDS, required: REQUIRED });
}

function text(v: unknown): string | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'string') return v.trim() === '' ? undefined : v.trim();
  if (typeof v === 'number') return String(v);
  return '\u0000'; // not a string: rejected by every check below
}

/** A whole number from 1 to max (the column's range: never an overflow in the database). */
function wholeNumber(v: unknown, max: number): number | null {
  const s = text(v);
  if (s === undefined || !/^[0-9]{1,16}$/.test(s)) return null;
  const n = Number(s);
  return Number.isSafeInteger(n) && n >= 1 && n <= max ? n : null;
}

/** Checks one certificate's fields; the problems in words, or the record to store. */
export function validateRecordValues(
  values: Record<string, unknown>,
): { ok: true; record: RecordInput } | { ok: false; problems: string[] } {
  const problems: string[] = [];
  for (const key of Object.keys(values)) {
    if (!(RECORD_FIELDS as readonly string[]).includes(key)) problems.push(`unknown field "${key}"`);
  }
  for (const req of REQUIRED) {
    if (text(values[req]) === undefined) problems.push(`${req} is required`);
  }
  const id = wholeNumber(values.id, MAX_RECORD_ID);
  if (text(values.id) !== undefined && id === null) {
    problems.push(`id must be a whole number from 1 to ${MAX_RECORD_ID}`);
  }
  const name = (field: 'first_name' | 'last_name'): string => {
    const s = text(values[field]);
    if (s === undefined) return '';
    if (typeof values[field] !== 'string' || s.length > NAME_MAX) {
      problems.push(`${field} must be text of up to ${NAME_MAX} characters`);
    } else if (!followsTextPolicy(s)) {
      // The one text policy (domain text.ts), as for every text the portal stores.
      problems.push(`${field} ${TEXT_POLICY_MESSAGE}`);
    }
    return s.normalize('NFC');
  };
  const firstName = name('first_name');
  const lastName = name('last_name');
  const date = (field: 'platnost_do' | 'a1a3_valid_until' | 'a2_valid_until'): string | null => {
    const s = text(values[field]);
    if (s === undefined) return null;
    const iso = typeof values[field] === 'string' ? toValidityIsoDate(s) : null;
    if (iso === null) problems.push(`${field} "${s}" is not a date (YYYY-MM-DD or dd.mm.yyyy)`);
    return iso;
  };
  const platnostDo = date('platnost_do');
  const a1a3 = date('a1a3_valid_until');
  const a2 = date('a2_valid_until');
  let personId: number | null = null;
  if (text(values.person_id) !== undefined) {
    personId = wholeNumber(values.person_id, MAX_PERSON_ID);
    if (personId === null) problems.push(`person_id must be a whole number from 1 to ${MAX_PERSON_ID}`);
  }
  const stavText = text(values.stav) ?? 'Ano';
  const stav = stavText === 'Ano' || stavText === 'Ne' ? stavText : null;
  if (stav === null) problems.push(`stav must be "Ano" or "Ne", not "${stavText}"`);
  if (problems.length > 0 || id === null || platnostDo === null || stav === null)
    return { ok: false, problems };
  return {
    ok: true,
    record: {
      id,
      person_id: personId,
      stav,
      platnost_do: platnostDo,
      a1a3_valid_until: a1a3,
      a2_valid_until: a2,
      first_name: firstName,
      last_name: lastName,
    },
  };
}

function validateRows(rows: readonly RawRow[]): ImportResult {
  const errors: ImportError[] = [];
  const records: RecordInput[] = [];
  const firstLineOfId = new Map<number, number>();
  for (const { line, values } of rows) {
    const result = validateRecordValues(values);
    if (!result.ok) {
      for (const message of result.problems) errors.push({ line, message });
      continue;
    }
    const first = firstLineOfId.get(result.record.id);
    if (first !== undefined) {
      errors.push({ line, message: `id ${result.record.id} is already on line ${first}` });
      continue;
    }
    firstLineOfId.set(result.record.id, line);
    records.push(result.record);
  }
  if (errors.length > 0) return { ok: false, errors };
  return { ok: true, records };
}

/** Error lines for the operator, cut after MAX_REPORTED_ERRORS. */
export function formatImportErrors(file: string, errors: readonly ImportError[]): string[] {
  return formatProblems(errors, MAX_REPORTED_ERRORS, (e) => `${file}:${e.line}: ${e.message}`);
}
