import { toValidityIsoDate } from '@ros/domain';
import type { RecordInput } from './repository.js';

/**
 * Reading a file of certificates for `ros-admin records load`. Two formats, same field names
 * (those of the `records` table):
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

export interface ImportError {
  /** 1-based line of the file where the certificate (or the problem) starts. */
  line: number;
  message: string;
}

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

export type FileFormat = 'json' | 'csv';

/** The format by file name, else by content (JSON starts with '['). */
export function detectFormat(fileName: string, text: string): FileFormat {
  const lower = fileName.toLowerCase();
  if (lower.endsWith('.json')) return 'json';
  if (lower.endsWith('.csv')) return 'csv';
  return stripBom(text).trimStart().startsWith('[') ? 'json' : 'csv';
}

function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

export function parseRecordsFile(text: string, format: FileFormat): ImportResult {
  const source = stripBom(text);
  const rows = format === 'json' ? jsonRows(source) : csvRows(source);
  if (!rows.ok) return rows;
  return validateRows(rows.rows);
}

interface RawRow {
  line: number;
  values: Record<string, unknown>;
}
type RowsResult = { ok: true; rows: RawRow[] } | { ok: false; errors: ImportError[] };

function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/** The line on which each element of the top-level array starts. */
function arrayElementLines(text: string): number[] {
  const lines: number[] = [];
  let line = 1;
  let depth = 0;
  let inString = false;
  let expectValue = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\n') line++;
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === ' ' || c === '\t' || c === '\r' || c === '\n') continue;
    if (depth === 1 && expectValue && c !== ']') {
      lines.push(line);
      expectValue = false;
    }
    if (c === '"') inString = true;
    else if (c === '[' || c === '{') {
      depth++;
      if (depth === 1) expectValue = true;
    } else if (c === ']' || c === '}') depth--;
    else if (c === ',' && depth === 1) expectValue = true;
  }
  return lines;
}

function jsonRows(text: string): RowsResult {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    const pos = /position (\d+)/.exec(message);
    const line = pos ? lineAt(text, Number(pos[1])) : 1;
    return { ok: false, errors: [{ line, message: `not valid JSON: ${message}` }] };
  }
  if (!Array.isArray(parsed)) {
    return { ok: false, errors: [{ line: 1, message: 'the file must hold a JSON array of certificates' }] };
  }
  const lines = arrayElementLines(text);
  const rows: RawRow[] = [];
  const errors: ImportError[] = [];
  parsed.forEach((item: unknown, i) => {
    const line = lines[i] ?? 1;
    if (item === null || typeof item !== 'object' || Array.isArray(item)) {
      errors.push({ line, message: `certificate ${i + 1} is not an object` });
    } else {
      rows.push({ line, values: item as Record<string, unknown> });
    }
  });
  return errors.length > 0 ? { ok: false, errors } : { ok: true, rows };
}

/** RFC 4180 fields with the given separator; each row with the line it starts on. */
function splitCsv(text: string, sep: string): Array<{ line: number; fields: string[] }> {
  const out: Array<{ line: number; fields: string[] }> = [];
  let fields: string[] = [];
  let field = '';
  let quoted = false;
  let line = 1;
  let rowLine = 1;
  let rowHasContent = false;
  const endRow = () => {
    fields.push(field);
    if (rowHasContent || fields.length > 1 || field !== '') out.push({ line: rowLine, fields });
    fields = [];
    field = '';
    rowHasContent = false;
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i++;
        } else quoted = false;
      } else {
        if (c === '\n') line++;
        field += c;
      }
      continue;
    }
    if (c === '"' && field === '') {
      quoted = true;
      rowHasContent = true;
    } else if (c === sep) {
      fields.push(field);
      field = '';
      rowHasContent = true;
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      endRow();
      line++;
      rowLine = line;
    } else field += c;
  }
  if (quoted) out.push({ line: rowLine, fields: ['\u0000unterminated'] });
  else endRow();
  return out;
}

function csvRows(text: string): RowsResult {
  const firstLine = text.slice(0, text.search(/\r?\n|$/));
  const sep = firstLine.includes(';') && !firstLine.includes(',') ? ';' : ',';
  const table = splitCsv(text, sep);
  const header = table.shift();
  if (!header)
    return { ok: false, errors: [{ line: 1, message: 'the file is empty: a header row is needed' }] };
  const columns = header.fields.map((h) => h.trim());
  const errors: ImportError[] = [];
  const seen = new Set<string>();
  for (const col of columns) {
    if (!(RECORD_FIELDS as readonly string[]).includes(col)) {
      errors.push({
        line: header.line,
        message: `unknown column "${col}" (known: ${RECORD_FIELDS.join(', ')})`,
      });
    } else if (seen.has(col)) errors.push({ line: header.line, message: `column "${col}" appears twice` });
    seen.add(col);
  }
  for (const req of REQUIRED) {
    if (!seen.has(req)) errors.push({ line: header.line, message: `column "${req}" is missing` });
  }
  if (errors.length > 0) return { ok: false, errors };
  const rows: RawRow[] = [];
  for (const { line, fields } of table) {
    if (fields[0] === '\u0000unterminated') {
      errors.push({ line, message: 'a quoted field is not closed' });
      continue;
    }
    if (fields.length !== columns.length) {
      errors.push({ line, message: `${fields.length} fields, the header has ${columns.length}` });
      continue;
    }
    const values: Record<string, unknown> = {};
    columns.forEach((col, i) => {
      values[col] = fields[i];
    });
    rows.push({ line, values });
  }
  return errors.length > 0 ? { ok: false, errors } : { ok: true, rows };
}

// Control characters (line breaks, tabs, NUL, …) have no place in a name.
const CONTROL = /\p{Cc}/u;

function text(v: unknown): string | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'string') return v.trim() === '' ? undefined : v.trim();
  if (typeof v === 'number') return String(v);
  return '\u0000'; // not a string: rejected by every check below
}

function wholeNumber(v: unknown): number | null {
  const s = text(v);
  if (s === undefined || !/^[0-9]{1,16}$/.test(s)) return null;
  const n = Number(s);
  return Number.isSafeInteger(n) && n >= 1 ? n : null;
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
  const id = wholeNumber(values.id);
  if (text(values.id) !== undefined && id === null) {
    problems.push('id must be a whole number from 1 to 9007199254740991');
  }
  const name = (field: 'first_name' | 'last_name'): string => {
    const s = text(values[field]);
    if (s === undefined) return '';
    if (typeof values[field] !== 'string' || CONTROL.test(s) || s.length > NAME_MAX) {
      problems.push(`${field} must be text of up to ${NAME_MAX} characters`);
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
    personId = wholeNumber(values.person_id);
    if (personId === null) problems.push('person_id must be a whole number from 1');
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
  const lines = errors.slice(0, MAX_REPORTED_ERRORS).map((e) => `${file}:${e.line}: ${e.message}`);
  if (errors.length > MAX_REPORTED_ERRORS)
    lines.push(`… and ${errors.length - MAX_REPORTED_ERRORS} more problems`);
  return lines;
}
