import { CsvSyntaxError, parseCsv } from '../reference/csv.js';

/**
 * Reading an operator's file of rows, JSON or CSV: the one reader of `ros-admin records load`
 * (records/import.ts) and `ros-admin persons load` (register/import.ts). What a row means is
 * theirs; this file finds the rows and the line each starts on, so that every problem can be
 * reported by line, and cuts a long list of problems short.
 *
 *   JSON: an array of objects (or, where the caller allows it, `{ "<key>": [...] }`).
 *   CSV:  a header row naming the columns, then one row per line; separated by ',' or ';'
 *         (whichever the header uses); fields with the separator, quotes or line breaks in double
 *         quotes (RFC 4180, reference/csv.ts); CRLF or LF; an optional UTF-8 byte-order mark.
 */

export type FileFormat = 'json' | 'csv';

/** A problem of a file, on the 1-based line where it (or its row) starts. */
export interface LineProblem {
  line: number;
  message: string;
}

export interface FileRow<T> {
  /** 1-based line on which the row starts. */
  line: number;
  values: T;
}

export type ReadResult<T> = { ok: true; rows: FileRow<T>[] } | { ok: false; problems: LineProblem[] };

/** The longest line a CSV file may have: a longer one is not a table (a binary file, a wrong export). */
export const MAX_CSV_LINE_CHARS = 256 * 1024;

export function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** The format by file name, else by content (JSON starts with '[' or '{'). */
export function detectFormat(fileName: string, text: string): FileFormat {
  const lower = fileName.toLowerCase();
  if (lower.endsWith('.json')) return 'json';
  if (lower.endsWith('.csv')) return 'csv';
  return /^[[{]/.test(stripBom(text).trimStart()) ? 'json' : 'csv';
}

function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/**
 * The line on which each element of the top-level JSON array starts (or of the array that is
 * the first value of a top-level object, as in `{ "persons": [...] }`). Assumes valid JSON.
 */
export function arrayElementLines(text: string): number[] {
  const lines: number[] = [];
  let line = 1;
  let depth = 0;
  let arrayDepth = -1;
  let inString = false;
  let expectValue = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '\n') line++;
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === ' ' || ch === '\t' || ch === '\r' || ch === '\n') continue;
    if (expectValue && ch !== ']') {
      lines.push(line);
      expectValue = false;
    }
    if (ch === '"') inString = true;
    else if (ch === '[' || ch === '{') {
      depth++;
      if (ch === '[' && arrayDepth === -1 && (depth === 1 || depth === 2)) {
        arrayDepth = depth;
        expectValue = true;
      }
    } else if (ch === ']' || ch === '}') {
      depth--;
      if (depth < arrayDepth) arrayDepth = -2;
    } else if (ch === ',' && depth === arrayDepth) expectValue = true;
  }
  return lines;
}

/**
 * The elements of a JSON file's array, each with its line. `listKey`: the file may also be
 * `{ "<listKey>": [...] }`. `notAList`: the problem when it is neither.
 */
export function readJsonRows(
  input: string,
  options: { notAList: string; listKey?: string },
): ReadResult<unknown> {
  const text = stripBom(input);
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    const pos = /position (\d+)/.exec(message);
    return {
      ok: false,
      problems: [{ line: pos ? lineAt(text, Number(pos[1])) : 1, message: `not valid JSON: ${message}` }],
    };
  }
  const inner =
    options.listKey !== undefined && data !== null && typeof data === 'object' && !Array.isArray(data)
      ? (data as Record<string, unknown>)[options.listKey]
      : undefined;
  const list = Array.isArray(data) ? data : Array.isArray(inner) ? inner : undefined;
  if (!list) return { ok: false, problems: [{ line: 1, message: options.notAList }] };
  const lines = arrayElementLines(text);
  return { ok: true, rows: list.map((values: unknown, i) => ({ line: lines[i] ?? 1, values })) };
}

/**
 * The rows of a CSV file as `{ column: cell }` by the header's (trimmed) names. Problems: a line
 * longer than `maxLineChars`, a quote out of place, a header naming a column not in `columns`,
 * twice, or missing one of `required`, a row with more or fewer fields than the header.
 */
export function readCsvRows(
  input: string,
  options: { columns: readonly string[]; required?: readonly string[]; maxLineChars?: number },
): ReadResult<Record<string, string>> {
  const text = stripBom(input);
  const maxLine = options.maxLineChars ?? MAX_CSV_LINE_CHARS;
  let lineNo = 1;
  for (let start = 0; start <= text.length; lineNo++) {
    const end = text.indexOf('\n', start);
    const length = (end === -1 ? text.length : end) - start;
    if (length > maxLine) {
      return {
        ok: false,
        problems: [{ line: lineNo, message: `the line is longer than ${maxLine} characters` }],
      };
    }
    if (end === -1) break;
    start = end + 1;
  }
  const firstLine = text.slice(0, text.search(/\r?\n|$/));
  const separator = firstLine.includes(';') && !firstLine.includes(',') ? ';' : ',';
  let records: ReturnType<typeof parseCsv>;
  try {
    records = parseCsv(text, separator);
  } catch (err) {
    if (!(err instanceof CsvSyntaxError)) throw err;
    return { ok: false, problems: [{ line: err.line, message: err.message.replace(/^line \d+: /, '') }] };
  }
  const [header, ...table] = records;
  if (!header)
    return { ok: false, problems: [{ line: 1, message: 'the file is empty: a header row is needed' }] };
  const names = header.fields.map((h) => h.trim());
  const problems: LineProblem[] = [];
  const seen = new Set<string>();
  for (const name of names) {
    if (!options.columns.includes(name)) {
      problems.push({
        line: header.line,
        message: `unknown column "${name}" (known: ${options.columns.join(', ')})`,
      });
    } else if (seen.has(name))
      problems.push({ line: header.line, message: `column "${name}" appears twice` });
    seen.add(name);
  }
  for (const name of options.required ?? []) {
    if (!seen.has(name)) problems.push({ line: header.line, message: `column "${name}" is missing` });
  }
  if (problems.length > 0) return { ok: false, problems };
  const rows: FileRow<Record<string, string>>[] = [];
  for (const { line, fields } of table) {
    if (fields.length !== names.length) {
      problems.push({ line, message: `${fields.length} fields, the header has ${names.length}` });
      continue;
    }
    rows.push({ line, values: Object.fromEntries(names.map((name, i) => [name, fields[i] ?? ''])) });
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, rows };
}

/**
 * Problems as lines for the operator, at most `max` of them and then how many more: a wrong file
 * would otherwise print thousands. `format` writes one problem (default `line N: message`).
 */
export function formatProblems(
  problems: readonly LineProblem[],
  max: number,
  format: (p: LineProblem) => string = (p) => `line ${p.line}: ${p.message}`,
): string[] {
  const lines = problems.slice(0, max).map(format);
  if (problems.length > max) lines.push(`… and ${problems.length - max} more problems`);
  return lines;
}
