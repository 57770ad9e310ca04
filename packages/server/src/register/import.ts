import { birthNumberSchema, MAX_LENGTHS, type RegisterPerson } from '@ros/domain';
import { z } from 'zod';
import type { Db } from '../db/database.js';
import { CsvSyntaxError, parseCsv } from '../reference/csv.js';
import { type PersonInput, savePerson } from './persons.js';

/**
 * Loading the register of persons from an operator's file (JSON or CSV; format in
 * docs/register.md). Every row is checked first; one bad row stops the load and nothing is
 * stored. Rows with an `id` that exists replace that person; other rows add persons.
 */

export class PersonImportError extends Error {
  constructor(public readonly problems: string[]) {
    super(`The file was not loaded:\n${problems.map((p) => `  ${p}`).join('\n')}`);
  }
}

const MAX_PROBLEMS = 20;

const opt = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .nullish()
    .transform((v) => (v ? v : undefined));
const code = z
  .string()
  .trim()
  .regex(/^(##|[A-Z0-9_]{1,16})$/, 'must be a code such as CZ, ID or EMAIL');
const optCode = z
  .union([z.literal(''), z.null(), code])
  .optional()
  .transform((v) => (v ? v : undefined));
const monthYear = z
  .string()
  .trim()
  .regex(/^(0?[1-9]|1[0-2])\/\d{4}$/, 'must be MM/YYYY');
const optMonthYear = z
  .union([z.literal(''), z.null(), monthYear])
  .optional()
  .transform((v) => (v ? v : undefined));
const isoDate = z
  .string()
  .trim()
  .regex(/^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/, 'must be a date YYYY-MM-DD');

/** One person of a file, in the register's Czech field names. */
export const personRowSchema = z
  .object({
    id: z.number().int().positive().max(2_000_000_000).optional(),
    aifo: opt(100),
    nia_identifier: opt(200),
    documents: z
      .array(
        z.object({ type: code, number: z.string().trim().min(1).max(MAX_LENGTHS.document_number) }).strict(),
      )
      .max(20)
      .optional(),
    jmeno: z.string().trim().min(1).max(MAX_LENGTHS.first_name),
    prijmeni: z.string().trim().min(1).max(MAX_LENGTHS.last_name),
    rodne_prijm: opt(MAX_LENGTHS.birth_name),
    pohlavi: z
      .union([z.literal(''), z.null(), z.enum(['0', '1', '2', 'M', 'Z', 'Ž', 'F'])])
      .optional()
      .transform((v) => (v ? v : undefined)),
    rc: z
      .union([z.literal(''), z.null(), birthNumberSchema])
      .optional()
      .transform((v) => (v ? v : undefined)),
    dat_nar: z
      .union([z.literal(''), z.null(), isoDate])
      .optional()
      .transform((v) => (v ? v : undefined)),
    misto_nar: opt(MAX_LENGTHS.birth_municipality),
    okres_nar: opt(MAX_LENGTHS.birth_district),
    stat_nar: optCode,
    ulice: opt(MAX_LENGTHS.home_street + 25),
    mesto: opt(MAX_LENGTHS.home_city),
    psc: opt(MAX_LENGTHS.home_zip),
    stat: optCode,
    st_kod: optCode,
    typ_op_pas: optCode,
    op_pas: opt(MAX_LENGTHS.document_number),
    web_op_pas: opt(MAX_LENGTHS.document_number),
    web_st_kod2: optCode,
    web_st5_kody: z.array(code).max(50).nullish(),
    web_zamestnavatel: opt(MAX_LENGTHS.employer_current_name),
    web_zam_od: optMonthYear,
    web_funkce: opt(240),
    web_popis_cinnosti: opt(MAX_LENGTHS.employer_current_description),
    web_duvod_zadosti: opt(240),
    web_kont_firma: opt(MAX_LENGTHS.contact_company),
    web_kont_ulice: opt(MAX_LENGTHS.contact_street),
    web_kont_cp: opt(MAX_LENGTHS.contact_house_num),
    web_kont_co: opt(MAX_LENGTHS.contact_org_num),
    web_kont_mesto: opt(MAX_LENGTHS.contact_city),
    web_kont_psc: opt(MAX_LENGTHS.contact_zip),
    web_kont_stat: optCode,
    tel: opt(MAX_LENGTHS.telephone),
    email: opt(MAX_LENGTHS.email),
    dat_schranka: z
      .union([
        z.literal(''),
        z.null(),
        z
          .string()
          .trim()
          .regex(/^[A-Za-z0-9]{7}$/, 'must be 7 letters or digits'),
      ])
      .optional()
      .transform((v) => (v ? v : undefined)),
    typ_predani: optCode,
    funkce_platnost: opt(240),
    activities: z
      .array(
        z
          .object({
            zam_od: monthYear,
            zam_do: monthYear,
            typ: z.coerce.number().int().min(1).max(3),
            zamestnavatel: z.string().trim().max(MAX_LENGTHS.field1),
            funkce: z.string().trim().max(MAX_LENGTHS.field2).default(''),
          })
          .strict(),
      )
      .max(100)
      .nullish(),
    abroad_stay: z
      .array(z.object({ stat: code, duvod: z.string().trim().max(MAX_LENGTHS.reason) }).strict())
      .max(6)
      .nullish(),
  })
  .strict();

type PersonRow = z.output<typeof personRowSchema>;

export function toInput(row: PersonRow): PersonInput {
  const { id, aifo, nia_identifier, documents, ...rest } = row;
  // Drop absent fields so that the stored JSON holds only what the register knows.
  const person = Object.fromEntries(
    Object.entries(rest).filter(([, v]) => v !== undefined && v !== null),
  ) as unknown as RegisterPerson;
  return { id, aifo, nia_identifier, documents, person };
}

function describe(issues: z.core.$ZodIssue[]): string {
  return issues
    .slice(0, 5)
    .map((i) => `${i.path.length > 0 ? `${i.path.join('.')}: ` : ''}${i.message}`)
    .join('; ');
}

interface RawRow {
  line: number;
  value: unknown;
}

/**
 * The line on which each element of the top-level JSON array starts (or of `persons` in
 * `{ "persons": [...] }`), for error messages. Assumes the text is valid JSON.
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

function readJson(text: string): RawRow[] {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new PersonImportError([`not valid JSON: ${err instanceof Error ? err.message : String(err)}`]);
  }
  const list = Array.isArray(data)
    ? data
    : data && typeof data === 'object' && Array.isArray((data as { persons?: unknown }).persons)
      ? (data as { persons: unknown[] }).persons
      : undefined;
  if (!list)
    throw new PersonImportError(['a JSON file must hold an array of persons or { "persons": [...] }']);
  const lines = arrayElementLines(text);
  return list.map((value, i) => ({ line: lines[i] ?? 0, value }));
}

const CSV_LIST_SEPARATOR = /[;,]/;

function readCsv(text: string): RawRow[] {
  let records: ReturnType<typeof parseCsv>;
  try {
    const firstLine = text.slice(0, text.indexOf('\n') === -1 ? undefined : text.indexOf('\n'));
    records = parseCsv(text, firstLine.includes(';') && !firstLine.includes(',') ? ';' : ',');
  } catch (err) {
    if (err instanceof CsvSyntaxError) throw new PersonImportError([err.message]);
    throw err;
  }
  const [header, ...rows] = records;
  if (!header) throw new PersonImportError(['the CSV file is empty']);
  const names = header.fields.map((f) => f.trim());
  const known = new Set([...Object.keys(personRowSchema.shape)]);
  const unknown = names.filter((n) => !known.has(n));
  if (unknown.length > 0)
    throw new PersonImportError([`line ${header.line}: unknown columns: ${unknown.join(', ')}`]);
  const problems: string[] = [];
  const out: RawRow[] = [];
  for (const r of rows) {
    if (r.fields.length !== names.length) {
      problems.push(`line ${r.line}: ${r.fields.length} columns, the header has ${names.length}`);
      continue;
    }
    const obj: Record<string, unknown> = {};
    try {
      names.forEach((name, i) => {
        const cell = (r.fields[i] ?? '').trim();
        if (cell === '') return;
        if (name === 'id') obj.id = /^\d+$/.test(cell) ? Number(cell) : cell;
        else if (name === 'web_st5_kody')
          obj[name] = cell
            .split(CSV_LIST_SEPARATOR)
            .map((c) => c.trim())
            .filter(Boolean);
        else if (name === 'documents')
          obj[name] = cell
            .split(';')
            .map((d) => d.trim())
            .filter(Boolean)
            .map((d) => {
              const colon = d.indexOf(':');
              return colon === -1
                ? { type: '', number: d }
                : { type: d.slice(0, colon).trim(), number: d.slice(colon + 1).trim() };
            });
        else if (name === 'activities' || name === 'abroad_stay') {
          try {
            obj[name] = JSON.parse(cell);
          } catch {
            throw new Error(`${name}: must be a JSON array`);
          }
        } else obj[name] = cell;
      });
    } catch (err) {
      problems.push(`line ${r.line}: ${err instanceof Error ? err.message : String(err)}`);
      continue;
    }
    out.push({ line: r.line, value: obj });
  }
  if (problems.length > 0) throw new PersonImportError(problems.slice(0, MAX_PROBLEMS));
  return out;
}

export type PersonFileFormat = 'json' | 'csv';

/** Checks every row of a file and returns what to store; throws PersonImportError listing bad rows. */
export function parsePersonFile(text: string, format: PersonFileFormat): PersonInput[] {
  const raw = format === 'json' ? readJson(text) : readCsv(text);
  const problems: string[] = [];
  const inputs: PersonInput[] = [];
  const ids = new Set<number>();
  for (const r of raw) {
    const parsed = personRowSchema.safeParse(r.value);
    if (!parsed.success) {
      problems.push(`line ${r.line}: ${describe(parsed.error.issues)}`);
      continue;
    }
    if (parsed.data.id !== undefined) {
      if (ids.has(parsed.data.id)) {
        problems.push(`line ${r.line}: id ${parsed.data.id} appears twice in the file`);
        continue;
      }
      ids.add(parsed.data.id);
    }
    inputs.push(toInput(parsed.data));
  }
  if (problems.length > 0) {
    const shown = problems.slice(0, MAX_PROBLEMS);
    if (problems.length > MAX_PROBLEMS) shown.push(`… and ${problems.length - MAX_PROBLEMS} more`);
    throw new PersonImportError(shown);
  }
  return inputs;
}

/** Stores the persons in one transaction: all or nothing. */
export async function savePersons(
  db: Db,
  inputs: readonly PersonInput[],
  now: Date = new Date(),
): Promise<{ created: number; updated: number }> {
  return db.kysely.transaction().execute(async (trx) => {
    let created = 0;
    let updated = 0;
    for (const input of inputs) {
      const r = await savePerson(trx, db.dialect, input, now);
      if (r.created) created++;
      else updated++;
    }
    return { created, updated };
  });
}

export async function loadPersonFile(
  db: Db,
  text: string,
  format: PersonFileFormat,
): Promise<{ created: number; updated: number }> {
  return savePersons(db, parsePersonFile(text, format));
}
