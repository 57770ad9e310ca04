// The field catalogue (issue 13): for every field of the request form, and every sub-field of
// its lists and rows, what kind of value it holds (text, a country, a municipality, a district,
// an item of which code list...), its maximum length, and when it is off: hidden (duplicate
// mode, isFieldHidden), disabled by another value (isDistrictEnabled, isField2Enabled...) or free
// text instead of a list choice (isMunicipalityFreeText). The form's schema (form.ts), the
// server's code checks (requests/submission.ts), the PDF (pdf/model.ts) and the web's choice of
// control (form/request/controls.tsx) read it, so each of these facts is written once.

import {
  isDataMailboxShown,
  isDialCodeEnabled,
  isDistrictEnabled,
  isField2Enabled,
  isFieldHidden,
  isMunicipalityFreeText,
  isSecondCitizenshipEnabled,
} from './conditions.js';
import {
  DEFAULT_MAX_LENGTH,
  MAX_ABROAD_STAYS,
  MAX_DUPLICATE_TYPES,
  MAX_LENGTHS,
  MAX_OTHER_CITIZENSHIPS,
  MAX_PAST_ACTIVITIES,
} from './limits.js';
import {
  ACTIVITY_TYPES,
  FORM_FIELDS,
  type FormContext,
  type FormFieldName,
  type FormValues,
  SEX_CODES,
  TEXT_FIELDS,
  type TextFieldName,
} from './values.js';

/** The code lists of the reference data (GET /api/ros/<name>) a field's codes come from. */
export type CodeListName =
  | 'document-types'
  | 'delivery-types'
  | 'dial-codes'
  | 'verification-types'
  | 'duplicate-types'
  | 'activity-types';

/** What one value (a string) is. Every one has a maximum length (the server stores no more). */
export type ValueSpec =
  /** Free text; `multiline`: may span lines (a textarea, text.ts's policy allows line breaks). */
  | { kind: 'text'; maxLength: number; multiline?: true }
  /** An ISO date 'YYYY-MM-DD' (dates.ts). */
  | { kind: 'date'; maxLength: number }
  /** A month and year 'MM/YYYY' (monthYear.ts). */
  | { kind: 'monthYear'; maxLength: number }
  /** A code of the countries list (GET /countries). */
  | { kind: 'country'; maxLength: number }
  /** A code of the municipalities list, or free text where `freeText` says so. */
  | { kind: 'municipality'; maxLength: number }
  /** A code of the districts list. */
  | { kind: 'district'; maxLength: number }
  /** A code of one of the code lists. */
  | { kind: 'list'; list: CodeListName; maxLength: number }
  /** One of a few fixed codes; `names`: where their names are (the sex labels, or a code list). */
  | { kind: 'choice'; options: readonly string[]; names: 'sex' | CodeListName; maxLength: number };

export type ValueKind = ValueSpec['kind'];

/** A top-level string field: its value and when it is off. */
export type ScalarSpec = ValueSpec & {
  /** False: the field is disabled with these values (and stored empty, normalizeFormValues). */
  enabled?: (values: FormValues) => boolean;
  /** True: a list field is typed as free text with these values (a birth outside CZ). */
  freeText?: (values: FormValues) => boolean;
  /** The fields `enabled` and `freeText` read (the browser watches them to follow a change). */
  on?: readonly FormFieldName[];
  /** False: not shown in this context (besides duplicate mode, which isFieldHidden covers). */
  shown?: (ctx: Pick<FormContext, 'readOnly' | 'noPrefill'>) => boolean;
};
export interface BooleanSpec {
  kind: 'boolean';
}
/** A list of codes (other citizenships, duplicate types); `maxItems` is its length limit. */
export interface ItemsSpec {
  kind: 'items';
  maxItems: number;
  item: ValueSpec;
}
/** A row sub-field; `enabled` false: disabled with these values of its row. */
export type ColumnSpec<Row> = ValueSpec & { enabled?: (row: Row) => boolean };
/** Rows of several sub-fields (past activities, stays abroad). */
export interface RowsSpec<Row> {
  kind: 'rows';
  maxItems: number;
  columns: { readonly [K in keyof Row]: ColumnSpec<Row> };
}

/** The catalogue entry a field's value type calls for: a missing or mistyped entry does not compile. */
export type FieldSpec<K extends FormFieldName = FormFieldName> = FormValues[K] extends boolean
  ? BooleanSpec
  : FormValues[K] extends string
    ? ScalarSpec
    : FormValues[K] extends string[]
      ? ItemsSpec
      : FormValues[K] extends Array<infer Row>
        ? RowsSpec<Row>
        : never;

const text = (maxLength: number = DEFAULT_MAX_LENGTH) => ({ kind: 'text', maxLength }) as const;
const country = { kind: 'country', maxLength: DEFAULT_MAX_LENGTH } as const;
const listOf = (list: CodeListName) => ({ kind: 'list', list, maxLength: DEFAULT_MAX_LENGTH }) as const;
const monthYear = { kind: 'monthYear', maxLength: DEFAULT_MAX_LENGTH } as const;
const lengthOf = (name: string): number =>
  (MAX_LENGTHS as Record<string, number>)[name] ?? DEFAULT_MAX_LENGTH;

/**
 * Free text, the kind of every string field the catalogue does not name otherwise: the maximum
 * length of spec section 5 (MAX_LENGTHS), DEFAULT_MAX_LENGTH where the spec gives none.
 */
const FREE_TEXT = Object.fromEntries(TEXT_FIELDS.map((name) => [name, text(lengthOf(name))])) as Record<
  TextFieldName,
  ScalarSpec
>;

/**
 * The catalogue, by the spec's field names: free text (FREE_TEXT) unless named here. Typed so
 * that a field of FormValues without an entry, or with the wrong sort of entry, does not compile.
 */
export const FIELDS: { readonly [K in FormFieldName]: FieldSpec<K> } = {
  ...FREE_TEXT,
  sex: { kind: 'choice', options: SEX_CODES, names: 'sex', maxLength: DEFAULT_MAX_LENGTH },
  birth_date: { kind: 'date', maxLength: DEFAULT_MAX_LENGTH },
  birth_municipality: {
    kind: 'municipality',
    maxLength: lengthOf('birth_municipality'),
    on: ['birth_state'],
    freeText: (v) => isMunicipalityFreeText(v.birth_state),
  },
  birth_district: {
    kind: 'district',
    maxLength: lengthOf('birth_district'),
    on: ['birth_state'],
    enabled: (v) => isDistrictEnabled(v.birth_state),
  },
  birth_state: country,
  citizen_of_1: country,
  citizen_of_2: {
    ...country,
    on: ['citizen_of_1'],
    enabled: (v) => isSecondCitizenshipEnabled(v.citizen_of_1),
  },
  other_citizenships: { kind: 'items', maxItems: MAX_OTHER_CITIZENSHIPS, item: country },
  document_type: listOf('document-types'),
  home_state: country,
  employer_current_from: monthYear,
  employer_verification_type: listOf('verification-types'),
  contact_state: country,
  dial_code: { ...listOf('dial-codes'), on: ['telephone'], enabled: (v) => isDialCodeEnabled(v.telephone) },
  data_mailbox: { ...text(lengthOf('data_mailbox')), shown: isDataMailboxShown },
  delivery_type: listOf('delivery-types'),
  duplicate_type: { kind: 'items', maxItems: MAX_DUPLICATE_TYPES, item: listOf('duplicate-types') },
  past_activities: {
    kind: 'rows',
    maxItems: MAX_PAST_ACTIVITIES,
    columns: {
      from: monthYear,
      to: monthYear,
      type: {
        kind: 'choice',
        options: ACTIVITY_TYPES,
        names: 'activity-types',
        maxLength: DEFAULT_MAX_LENGTH,
      },
      field1: text(lengthOf('field1')),
      field2: { ...text(lengthOf('field2')), enabled: (row) => isField2Enabled(row.type) },
    },
  },
  abroad_stay: {
    kind: 'rows',
    maxItems: MAX_ABROAD_STAYS,
    columns: {
      state: country,
      reason: { kind: 'text', maxLength: lengthOf('reason'), multiline: true },
    },
  },
  send_notifications_email: { kind: 'boolean' },
  send_notifications_phone: { kind: 'boolean' },
};

type AnySpec = ScalarSpec | BooleanSpec | ItemsSpec | RowsSpec<Record<string, string>>;
const specOf = (name: string): AnySpec | undefined =>
  Object.hasOwn(FIELDS, name) ? (FIELDS as Record<string, AnySpec>)[name] : undefined;

/**
 * The catalogue entry of an issue path: 'first_name' the field's, 'other_citizenships.2' the
 * list's item, 'past_activities.0.from' the row column's (also 'past_activities.from' without the
 * index). Undefined for a path the form does not have.
 */
export function fieldSpec(
  path: string | ReadonlyArray<string | number>,
): AnySpec | ValueSpec | ColumnSpec<never> | undefined {
  const parts = typeof path === 'string' ? path.split('.') : path.map(String);
  const top = specOf(parts[0] ?? '');
  if (!top || parts.length === 1) return top;
  if (top.kind === 'items') return parts.length === 2 ? top.item : undefined;
  if (top.kind !== 'rows') return undefined;
  // 'past_activities.0.from', or 'past_activities.from' for any row.
  const leaf =
    parts.length === 3 ? parts[2] : parts.length === 2 && !/^\d+$/.test(parts[1] ?? '') ? parts[1] : '';
  const columns = top.columns as Record<string, ColumnSpec<never>>;
  return leaf && Object.hasOwn(columns, leaf) ? columns[leaf] : undefined;
}

/**
 * Maximum length of a field by its issue path ('first_name', 'past_activities.0.field1'); for a
 * list or rows ('abroad_stay') the most items it may have. DEFAULT_MAX_LENGTH for anything else.
 */
export function maxLengthFor(path: string | ReadonlyArray<string | number>): number {
  const spec = fieldSpec(path);
  if (!spec || spec.kind === 'boolean') return DEFAULT_MAX_LENGTH;
  return spec.kind === 'items' || spec.kind === 'rows' ? spec.maxItems : spec.maxLength;
}

/** A text that may span lines (a textarea): the stay-abroad reason. */
export function isMultiline(path: string | ReadonlyArray<string | number>): boolean {
  const spec = fieldSpec(path);
  return spec?.kind === 'text' && spec.multiline === true;
}

/** A field the register fixed (prefill): the user cannot change it (every rule still runs). */
export function isFieldReadOnly(field: FormFieldName, ctx: Pick<FormContext, 'readOnly'>): boolean {
  return ctx.readOnly.has(field);
}

/** A code-valued kind: its codes have names in the reference data. */
export type CodedSpec = Extract<
  ValueSpec,
  { kind: 'country' | 'municipality' | 'district' | 'list' | 'choice' }
>;
const isCoded = (s: ValueSpec): s is CodedSpec =>
  s.kind === 'country' ||
  s.kind === 'municipality' ||
  s.kind === 'district' ||
  s.kind === 'list' ||
  s.kind === 'choice';

/** One filled code of the values: where, what (the catalogue entry) and the code. */
export interface CodedValue {
  path: string;
  spec: CodedSpec;
  code: string;
}

/**
 * Every filled code the values hold in fields that are on: not hidden in this mode
 * (isFieldHidden), not disabled by another value (`enabled`), and not free text (`freeText`, a
 * birth municipality outside CZ). In catalogue order. The server checks the country and list
 * codes against its reference data; the PDF looks up their names.
 */
export function codedValues(values: FormValues, ctx: Pick<FormContext, 'duplicate'>): CodedValue[] {
  const out: CodedValue[] = [];
  const add = (path: string, spec: ValueSpec, code: string) => {
    if (isCoded(spec) && code.trim() !== '') out.push({ path, spec, code });
  };
  for (const name of FORM_FIELDS) {
    if (isFieldHidden(name, ctx)) continue;
    const spec = FIELDS[name] as AnySpec;
    if (spec.kind === 'boolean') continue;
    if (spec.kind === 'items') {
      for (const [i, code] of (values[name] as string[]).entries()) add(`${name}.${i}`, spec.item, code);
    } else if (spec.kind === 'rows') {
      (values[name] as unknown as Array<Record<string, string>>).forEach((row, i) => {
        for (const [column, c] of Object.entries(spec.columns) as Array<
          [string, ColumnSpec<Record<string, string>>]
        >) {
          if (c.enabled && !c.enabled(row)) continue;
          add(`${name}.${i}.${column}`, c, String(row[column] ?? ''));
        }
      });
    } else {
      if (spec.enabled && !spec.enabled(values)) continue;
      if (spec.freeText?.(values)) continue;
      add(name, spec, values[name] as string);
    }
  }
  return out;
}

/** Every entry of the catalogue: top-level fields, list items and row columns, as paths with `*` for an index. */
export function catalogueEntries(): Array<{ path: string; spec: ValueSpec | BooleanSpec }> {
  const out: Array<{ path: string; spec: ValueSpec | BooleanSpec }> = [];
  for (const name of FORM_FIELDS) {
    const spec = FIELDS[name] as AnySpec;
    if (spec.kind === 'items') out.push({ path: `${name}.*`, spec: spec.item });
    else if (spec.kind === 'rows')
      for (const [column, c] of Object.entries(spec.columns))
        out.push({ path: `${name}.*.${column}`, spec: c });
    else out.push({ path: name, spec });
  }
  return out;
}
