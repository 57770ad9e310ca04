import {
  birthNumberSchema,
  type Catalogue,
  FIELDS,
  followsTextPolicy,
  issuesToProblems,
  MAX_PERSON_ID,
  type RegisterPerson,
  registerPersonSchema,
  type ScalarSpec,
  TEXT_POLICY_MESSAGE,
} from '@ros/domain';
import { z } from 'zod';
import type { Db } from '../db/database.js';
import {
  type FileFormat,
  type FileRow,
  formatProblems,
  type LineProblem,
  readCsvRows,
  readJsonRows,
} from '../imports/files.js';
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

/** A text of the register: trimmed, at most `max` long, under the one text policy (domain text.ts). */
const text = (max: number, opts: { multiline?: boolean } = {}) =>
  z
    .string()
    .trim()
    .max(max)
    .refine((v) => followsTextPolicy(v, opts), TEXT_POLICY_MESSAGE);
const opt = (max: number, opts: { multiline?: boolean } = {}) =>
  text(max, opts)
    .nullish()
    .transform((v) => (v ? v : undefined));
/** A value the register may not know: empty, null or absent are nothing, else `rule`. */
const optional = (rule: z.ZodType) =>
  z
    .union([z.literal(''), z.null(), rule])
    .optional()
    .transform((v) => (v ? v : undefined));
const code = z
  .string()
  .trim()
  .regex(/^(##|[A-Z0-9_]{1,16})$/, 'must be a code such as CZ, ID or EMAIL');
const optCode = optional(code);
const monthYear = z
  .string()
  .trim()
  .regex(/^(0?[1-9]|1[0-2])\/\d{4}$/, 'must be MM/YYYY');
const optMonthYear = optional(monthYear);
const isoDate = z
  .string()
  .trim()
  .regex(/^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/, 'must be a date YYYY-MM-DD');
const dataMailbox = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9]{7}$/, 'must be 7 letters or digits');

/**
 * The check of a register column that a catalogue entry prefills as it stands (fields.ts
 * `register`), by the entry: a code for a code kind (a country, an item of a code list), the
 * register's form of a month/year, a date, a birth number or a data mailbox, else a text of the
 * entry's length. Required where the register's person needs it (register.ts: jmeno, prijmeni),
 * else it may be empty, null or absent.
 */
function fieldColumn(spec: ScalarSpec, required: boolean): z.ZodType {
  switch (spec.kind) {
    case 'country':
    case 'list':
    case 'choice':
      return required ? code : optCode;
    case 'monthYear':
      return required ? monthYear : optMonthYear;
    case 'date':
      return required ? isoDate : optional(isoDate);
    case 'birthNumber':
      return required ? birthNumberSchema() : optional(birthNumberSchema());
    case 'dataMailbox':
      return required ? dataMailbox : optional(dataMailbox);
    default:
      return required ? text(spec.maxLength).min(1) : opt(spec.maxLength);
  }
}

/** Does the register's person always hold this column (register.ts: neither absent nor null)? */
const registerNeeds = (column: string): boolean =>
  !(registerPersonSchema.shape as Record<string, z.ZodType>)[column]?.safeParse(undefined).success;

/**
 * The register's columns that no entry prefills as they stand, each with its own check: those
 * prefill reads by a rule of its own (sex, the birth date, the home street with its numbers, the
 * document, the other citizenships, the rows) and one it keeps without prefilling.
 */
const OWN_COLUMNS = {
  pohlavi: optional(z.enum(['0', '1', '2', 'M', 'Z', 'Ž', 'F'])),
  dat_nar: optional(isoDate),
  // The register keeps the street with its numbers ("Dlouhá 12/5").
  ulice: opt(FIELDS.home_street.maxLength + 25),
  typ_op_pas: optCode,
  op_pas: opt(FIELDS.document_number.maxLength),
  web_op_pas: opt(FIELDS.document_number.maxLength),
  web_st5_kody: z.array(code).max(50).nullish(),
  funkce_platnost: opt(240),
  activities: z
    .array(
      z
        .object({
          zam_od: monthYear,
          zam_do: monthYear,
          typ: z.coerce.number().int().min(1).max(3),
          zamestnavatel: text(FIELDS.past_activities.columns.field1.maxLength),
          funkce: text(FIELDS.past_activities.columns.field2.maxLength).default(''),
        })
        .strict(),
    )
    .max(100)
    .nullish(),
  abroad_stay: z
    .array(
      z
        .object({
          stat: code,
          duvod: text(FIELDS.abroad_stay.columns.reason.maxLength, { multiline: true }),
        })
        .strict(),
    )
    .max(6)
    .nullish(),
} satisfies Partial<Record<keyof RegisterPerson, z.ZodType>>;

/**
 * The checks of a register person's columns, in the register's order (register.ts): a column an
 * entry of the catalogue prefills is checked by that entry (fieldColumn), the others by their own
 * (OWN_COLUMNS). A column with neither, or with both, is an error.
 */
export function registerColumns(catalogue: Catalogue = FIELDS): Record<keyof RegisterPerson, z.ZodType> {
  const byEntry = new Map<string, ScalarSpec>();
  for (const spec of Object.values(catalogue))
    if ('register' in spec && spec.register !== undefined) byEntry.set(spec.register, spec);
  const own: Partial<Record<string, z.ZodType>> = OWN_COLUMNS;
  return Object.fromEntries(
    Object.keys(registerPersonSchema.shape).map((column) => {
      const spec = byEntry.get(column);
      const rule = spec ? fieldColumn(spec, registerNeeds(column)) : own[column];
      if (!rule || (spec && own[column]))
        throw new Error(`the register column ${column} needs one check: an entry's or its own`);
      return [column, rule];
    }),
  ) as Record<keyof RegisterPerson, z.ZodType>;
}

/**
 * One person of a file, in the register's Czech field names: the person's identifiers and
 * documents, then the register's columns (registerColumns, by the catalogue).
 */
export function personRowSchemaOf(catalogue: Catalogue = FIELDS) {
  return z
    .object({
      id: z.number().int().positive().max(MAX_PERSON_ID).optional(),
      aifo: opt(100),
      nia_identifier: opt(200),
      documents: z
        .array(z.object({ type: code, number: text(FIELDS.document_number.maxLength).min(1) }).strict())
        .max(20)
        .optional(),
      ...registerColumns(catalogue),
    })
    .strict();
}

/** One person of a file, in the register's Czech field names (personRowSchemaOf: FIELDS's columns). */
export const personRowSchema = personRowSchemaOf();

type PersonRow = z.output<typeof personRowSchema>;

export function toInput(row: PersonRow): PersonInput {
  const { id, aifo, nia_identifier, documents, ...rest } = row;
  // Drop absent fields so that the stored JSON holds only what the register knows.
  const person = Object.fromEntries(
    Object.entries(rest).filter(([, v]) => v !== undefined && v !== null),
  ) as unknown as RegisterPerson;
  return { id, aifo, nia_identifier, documents, person };
}

/** The first few problems of a row, in one line. */
function describe(issues: z.core.$ZodIssue[]): string {
  return issuesToProblems(issues, { max: 5 })
    .map((p) => `${p.path ? `${p.path}: ` : ''}${p.message}`)
    .join('; ');
}

const CSV_LIST_SEPARATOR = /[;,]/;

/** A CSV row's cells as a person row: empty cells left out, lists and JSON columns read. */
function csvPerson(cells: Record<string, string>): unknown {
  const obj: Record<string, unknown> = {};
  for (const [name, raw] of Object.entries(cells)) {
    const cell = raw.trim();
    if (cell === '') continue;
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
  }
  return obj;
}

function readRows(
  text: string,
  format: PersonFileFormat,
): { rows: FileRow<unknown>[]; problems: LineProblem[] } {
  if (format === 'json') {
    const read = readJsonRows(text, {
      listKey: 'persons',
      notAList: 'a JSON file must hold an array of persons or { "persons": [...] }',
    });
    return read.ok ? { rows: read.rows, problems: [] } : { rows: [], problems: read.problems };
  }
  const read = readCsvRows(text, { columns: Object.keys(personRowSchema.shape) });
  if (!read.ok) return { rows: [], problems: read.problems };
  const rows: FileRow<unknown>[] = [];
  const problems: LineProblem[] = [];
  for (const { line, values } of read.rows) {
    try {
      rows.push({ line, values: csvPerson(values) });
    } catch (err) {
      problems.push({ line, message: err instanceof Error ? err.message : String(err) });
    }
  }
  return { rows, problems };
}

export type PersonFileFormat = FileFormat;

/** Checks every row of a file and returns what to store; throws PersonImportError listing bad rows. */
export function parsePersonFile(text: string, format: PersonFileFormat): PersonInput[] {
  const { rows, problems } = readRows(text, format);
  const inputs: PersonInput[] = [];
  const ids = new Set<number>();
  for (const { line, values } of rows) {
    const parsed = personRowSchema.safeParse(values);
    if (!parsed.success) {
      problems.push({ line, message: describe(parsed.error.issues) });
      continue;
    }
    if (parsed.data.id !== undefined) {
      if (ids.has(parsed.data.id)) {
        problems.push({ line, message: `id ${parsed.data.id} appears twice in the file` });
        continue;
      }
      ids.add(parsed.data.id);
    }
    inputs.push(toInput(parsed.data));
  }
  if (problems.length > 0) throw new PersonImportError(formatProblems(problems, MAX_PROBLEMS));
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
