// The field catalogue (issue 13, issue 25): one entry per field of the request form, and per
// sub-field of its lists and rows: what kind of value it holds (kinds.ts: free text, an e-mail,
// a telephone, a birth number, a date, a country, an item of which code list...; the kind owns
// its format rule, input attributes, stored form and print), its maximum length, its section of the form
// (sections.ts), when it is off (hidden in a mode with its section or by `only`, disabled by
// another value: `enabled`, free text instead of a list choice: `freeText`), when it is required,
// whether and how the PDF prints it (`print`; `normalize` and `format` where an entry differs from
// its kind). The rules derived
// from the entries live here too: isFieldHidden, isFieldEnabled, isFieldRequired,
// normalizeFormValues, codedValues, isPrintedField; isFieldReadOnly is not one of them (read-only
// is the register's, FormContext.readOnly, not an entry's). The form's schema and storage form
// (form.ts), the server's code checks (requests/submission.ts), the PDF (pdf/model.ts), the CSV
// export (cli/requests.ts) and the web's controls (form/request/) read them rather than restate
// them. Not every fact of a field is written once yet (issue 34): its name and type are in
// values.ts (FormValues, and FORM_FIELDS for the spec's order; its default and TEXT_FIELDS are
// derived here), its register column is the entry's (`register`, read by prefill.ts; the server's import schema in register/import.ts names the columns again); the web's section components place it by hand (its section
// again, its order, a name's or address's autocomplete). Its labels are its texts: the web's i18n and
// the PDF's (server pdf/labels.ts), both by the field's name.

import {
  isBirthNumberRequired,
  isDataMailboxRequired,
  isDialCodeEnabled,
  isDistrictEnabled,
  isField2Enabled,
  isMunicipalityFreeText,
  isSecondCitizenshipEnabled,
} from './conditions.js';
import { EMAIL_MAX_LENGTH } from './contact.js';
import { DEFAULT_DIAL_CODE, DEFAULT_EMPLOYER_VERIFICATION_TYPE } from './formCodes.js';
import { type CodeListName, normalizedValue, type ValueSpec } from './kinds.js';
import {
  DEFAULT_MAX_LENGTH,
  EMPLOYER_START_MAX_MONTHS_AHEAD,
  MAX_ABROAD_STAYS,
  MAX_DUPLICATE_TYPES,
  MAX_OTHER_CITIZENSHIPS,
  MAX_PAST_ACTIVITIES,
} from './limits.js';
import type { RegisterPerson } from './register.js';
import { inRequest, type RequestKind, type SectionName, sectionOnly } from './sections.js';
import { normalizeText } from './text.js';
import {
  type AbroadStay,
  ACTIVITY_TYPES,
  FORM_FIELDS,
  type FormContext,
  type FormFieldName,
  type FormValues,
  type PastActivity,
  SEX_CODES,
  type TextFieldName,
} from './values.js';

export type { CodeListName, ValueKind, ValueSpec } from './kinds.js';

/** What every top-level entry may say besides its kind: where it is, when it is required, how it prints. */
export interface FieldRules {
  /** Its section of the form (sections.ts); none: not a box of the form (aifo, the dialog's choices). */
  section?: SectionName;
  /** Only in this kind of request, besides its section's rule (sex, other citizenships: new ones). */
  only?: RequestKind;
  /**
   * Required while it is shown and enabled: always (true), or when this says so. Absent: optional
   * (the web marks it "(optional)").
   */
  required?: true | ((values: FormValues, ctx: FormContext) => boolean);
  /**
   * How the PDF prints it (in its section): absent, a row while the field is shown and enabled;
   * 'always' a row also when it is off (empty); 'filled' only when it holds a value (a value the
   * form never shows, from the register: labelled so); 'none' never (part of another row, or not
   * the applicant's to read).
   */
  print?: 'always' | 'filled' | 'none';
}

/** A register person's column that holds a text (the register's Czech names, register.ts). */
export type RegisterTextColumn = {
  [K in keyof RegisterPerson]-?: NonNullable<RegisterPerson[K]> extends string ? K : never;
}[keyof RegisterPerson];

/** A top-level string field: its value, its rules and when it is off. */
export type ScalarSpec = ValueSpec &
  FieldRules & {
    /**
     * The register person's column that prefills it, copied trimmed as it stands, and only while
     * the field is enabled by what was prefilled before it (prefill.ts prefillFromRegister).
     * Absent: the register has none, or prefill reads it by a rule of its own (sex, the birth
     * date, the home street's numbers, the document).
     */
    register?: RegisterTextColumn;
    /** False: the field is disabled with these values (and stored empty, normalizeFormValues). */
    enabled?: (values: FormValues) => boolean;
    /** True: a list field is typed as free text with these values (a birth outside CZ). */
    freeText?: (values: FormValues) => boolean;
    /** The fields `enabled` and `freeText` read (the browser watches them to follow a change). */
    on?: readonly FormFieldName[];
    /** The stored form of a trimmed, NFC value, where it is not its kind's (kinds.ts). */
    normalize?: (value: string) => string;
    /** The value as a person reads it (the PDF), where it is not as its kind prints it (kinds.ts). */
    format?: (value: string, values: FormValues) => string;
    /**
     * A field added after requests were first stored and pages first loaded: what a body without
     * it means, where that is not its default (backfillFormValues, backfill.ts). The dial code:
     * '' (decision 0003: an older request's country code is not guessed, its PDF shows the number
     * alone), and an older page's submit body without one is read the same way.
     */
    absent?: string;
    /** Its value in a fresh form (defaultFormValues), where that is not empty. */
    default?: string;
  };
export type BooleanSpec = FieldRules & {
  kind: 'boolean';
  /** False: off with these values, and stored false (normalizeFormValues). */
  enabled?: (values: FormValues) => boolean;
};
/** A list of codes (other citizenships, duplicate types); `maxItems` is its length limit. */
export type ItemsSpec = FieldRules & {
  kind: 'items';
  maxItems: number;
  item: ValueSpec;
};
/** A row sub-field; `enabled` false: disabled with these values of its row (and stored empty). */
export type ColumnSpec<Row> = ValueSpec & {
  // A method, so that a column of typed rows is one of any rows (the catalogue's rules read both).
  enabled?(row: Row): boolean;
  /** The columns `enabled` reads. */
  on?: ReadonlyArray<keyof Row>;
};
/** Rows of several sub-fields (past activities, stays abroad); every column is required while shown and enabled. */
export type RowsSpec<Row> = FieldRules & {
  kind: 'rows';
  maxItems: number;
  columns: { readonly [K in keyof Row]: ColumnSpec<Row> };
};

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

/** Any entry, whatever its field. */
export type AnySpec =
  | ScalarSpec
  | BooleanSpec
  | ItemsSpec
  | RowsSpec<PastActivity>
  | RowsSpec<AbroadStay>
  | RowsSpec<Record<string, string>>;

/** A rows entry's columns, read as columns of any row. */
const columnsOf = (spec: Extract<AnySpec, { kind: 'rows' }>) =>
  spec.columns as unknown as Readonly<Record<string, ColumnSpec<Record<string, string>>>>;
/**
 * A catalogue: entries by field name, in the order the PDF prints them. The rules below take one
 * as their last parameter (FIELDS unless given), so a test can run them on a catalogue with a
 * field more (server requests/catalogueField.test.ts).
 */
export type Catalogue = { readonly [name: string]: AnySpec };

/**
 * Free text of at most `maxLength` characters: spec section 5's length where it gives one, else
 * DEFAULT_MAX_LENGTH (codes, identifiers, prefill-only fields). The entry is the one place of a
 * field's length (maxLengthFor reads it: the schema, the browser's maxlength, the body limits, the
 * register import's columns).
 */
const text = (maxLength: number = DEFAULT_MAX_LENGTH) => ({ kind: 'text', maxLength }) as const;
/** A text of a semantic kind (kinds.ts) of at most `maxLength` characters. */
const textOf = <K extends 'email' | 'telephone' | 'birthNumber' | 'dataMailbox'>(
  kind: K,
  maxLength: number = DEFAULT_MAX_LENGTH,
) => ({ kind, maxLength }) as const;
const country = { kind: 'country', maxLength: DEFAULT_MAX_LENGTH } as const;
const listOf = (list: CodeListName) => ({ kind: 'list', list, maxLength: DEFAULT_MAX_LENGTH }) as const;
const monthYear = { kind: 'monthYear', maxLength: DEFAULT_MAX_LENGTH } as const;
const required = true;

/** The type of the catalogue: an entry for every field of FormValues, of the sort its value calls for. */
export type Fields = { readonly [K in FormFieldName]: FieldSpec<K> };

/**
 * The catalogue's entries as written (`satisfies`, so their types keep what they say, such as
 * `print: 'none'`: PrintedFieldName reads it). A field of FormValues without an entry, or with
 * the wrong sort of entry, does not compile.
 */
const ENTRIES = {
  first_name: { ...text(50), section: 'personal', required, register: 'jmeno' },
  last_name: { ...text(50), section: 'personal', required, register: 'prijmeni' },
  birth_name: { ...text(50), section: 'personal', required, register: 'rodne_prijm' },
  sex: {
    kind: 'choice',
    options: SEX_CODES,
    names: 'sex',
    maxLength: DEFAULT_MAX_LENGTH,
    section: 'personal',
    only: 'new',
    required,
  },

  birth_date: {
    kind: 'date',
    maxLength: DEFAULT_MAX_LENGTH,
    range: 'birth',
    section: 'birth',
    required,
  },
  birth_state: { ...country, section: 'birth', required, register: 'stat_nar' },
  birth_municipality: {
    register: 'misto_nar',
    kind: 'municipality',
    maxLength: 240,
    section: 'birth',
    required,
    on: ['birth_state'],
    freeText: (v) => isMunicipalityFreeText(v.birth_state),
  },
  birth_district: {
    register: 'okres_nar',
    kind: 'district',
    maxLength: 240,
    section: 'birth',
    required,
    on: ['birth_state'],
    enabled: (v) => isDistrictEnabled(v.birth_state),
  },

  birth_number: {
    register: 'rc',
    ...textOf('birthNumber'),
    section: 'identity',
    required: isBirthNumberRequired,
  },
  document_type: { ...listOf('document-types'), section: 'identity', required },
  document_number: { ...text(240), section: 'identity', required },
  citizen_of_1: { ...country, section: 'identity', required, register: 'st_kod' },
  citizen_of_2: {
    register: 'web_st_kod2',
    ...country,
    section: 'identity',
    on: ['citizen_of_1'],
    enabled: (v) => isSecondCitizenshipEnabled(v.citizen_of_1),
    // A second citizenship beside ## is not one (stored empty): printed empty.
    print: 'always',
  },
  other_citizenships: {
    kind: 'items',
    maxItems: MAX_OTHER_CITIZENSHIPS,
    item: country,
    section: 'identity',
    only: 'new',
  },

  home_street: { ...text(80), section: 'home', required },
  home_house_num: { ...text(10), section: 'home' },
  home_org_num: { ...text(10), section: 'home' },
  home_city: { ...text(80), section: 'home', required, register: 'mesto' },
  home_zip: { ...text(11), section: 'home', required, register: 'psc' },
  home_state: { ...country, section: 'home', required, register: 'stat' },

  contact_company: { ...text(240), section: 'contact_address', register: 'web_kont_firma' },
  contact_street: { ...text(80), section: 'contact_address', required, register: 'web_kont_ulice' },
  contact_house_num: { ...text(10), section: 'contact_address', register: 'web_kont_cp' },
  contact_org_num: { ...text(10), section: 'contact_address', register: 'web_kont_co' },
  contact_city: { ...text(80), section: 'contact_address', required, register: 'web_kont_mesto' },
  contact_zip: { ...text(11), section: 'contact_address', required, register: 'web_kont_psc' },
  contact_state: { ...country, section: 'contact_address', required, register: 'web_kont_stat' },

  // The telephone's country code (decision 0003): only with a telephone; printed in its row.
  dial_code: {
    ...listOf('dial-codes'),
    section: 'contact',
    required,
    on: ['telephone'],
    enabled: (v) => isDialCodeEnabled(v.telephone),
    print: 'none',
    // A fresh form's is +420; an older body's none (decision 0003).
    default: DEFAULT_DIAL_CODE,
    absent: '',
  },
  telephone: { ...textOf('telephone', 80), section: 'contact', register: 'tel' },
  email: { ...textOf('email', EMAIL_MAX_LENGTH), section: 'contact', required, register: 'email' },
  data_mailbox: {
    register: 'dat_schranka',
    ...textOf('dataMailbox'),
    section: 'contact',
    required: isDataMailboxRequired,
  },
  delivery_type: { ...listOf('delivery-types'), section: 'contact', required, register: 'typ_predani' },

  employer_current_name: { ...text(240), section: 'employer', required, register: 'web_zamestnavatel' },
  // Up to 6 months ahead (a new job to start); past activities not after this month.
  employer_current_from: {
    register: 'web_zam_od',
    ...monthYear,
    monthsAhead: EMPLOYER_START_MAX_MONTHS_AHEAD,
    section: 'employer',
    required,
  },
  employer_verification_type: {
    ...listOf('verification-types'),
    section: 'employer',
    default: DEFAULT_EMPLOYER_VERIFICATION_TYPE,
  },
  employer_current_description: {
    ...text(240),
    section: 'employer',
    required,
    register: 'web_popis_cinnosti',
  },
  // The form does not show these two: only the register fills them (prefill), so the PDF prints
  // them only when it did, and says so (issue 28).
  employer_current_position: { ...text(), section: 'employer', print: 'filled', register: 'web_funkce' },
  reason_for_request: { ...text(), section: 'employer', print: 'filled', register: 'web_duvod_zadosti' },

  past_activities: {
    kind: 'rows',
    maxItems: MAX_PAST_ACTIVITIES,
    section: 'activities',
    columns: {
      from: monthYear,
      to: monthYear,
      type: {
        kind: 'choice',
        options: ACTIVITY_TYPES,
        names: 'activity-types',
        maxLength: DEFAULT_MAX_LENGTH,
      },
      field1: text(240),
      field2: { ...text(240), on: ['type'], enabled: (row) => isField2Enabled(row.type) },
    },
  },
  abroad_stay: {
    kind: 'rows',
    maxItems: MAX_ABROAD_STAYS,
    section: 'abroad',
    columns: {
      state: country,
      reason: { kind: 'text', maxLength: 3993, multiline: true },
    },
  },

  duplicate_type: {
    kind: 'items',
    maxItems: MAX_DUPLICATE_TYPES,
    item: listOf('duplicate-types'),
    section: 'duplicate',
    required,
  },

  // The NIA person's identifier (sent with the request after a sign-in): not the applicant's to type.
  aifo: { ...text(), print: 'none' },
  // The confirmation dialog's notification choices; the SMS one needs a telephone.
  send_notifications_email: { kind: 'boolean' },
  send_notifications_phone: { kind: 'boolean', enabled: (v) => isDialCodeEnabled(v.telephone) },
} satisfies Fields;

/** The catalogue, by the spec's field names, section by section in the order the PDF prints them. */
export const FIELDS: Fields = ENTRIES;

/**
 * The fields the PDF prints a row of under their own label (isPrintedField): not the booleans
 * (the dialog's choices, printed as the declarations' ticks), not the rows (a group per row,
 * labelled by column), not those with `print: 'none'`. The PDF's labels are a record over these
 * (server pdf/labels.ts), so a printed field without a label does not compile.
 */
export type PrintedFieldName = {
  [K in FormFieldName]: (typeof ENTRIES)[K] extends { kind: 'boolean' | 'rows' } | { print: 'none' }
    ? never
    : K;
}[FormFieldName];

/** Does the PDF print a row of this entry under its own label? PrintedFieldName, for any catalogue. */
export function isPrintedField(spec: AnySpec): boolean {
  return spec.kind !== 'boolean' && spec.kind !== 'rows' && spec.print !== 'none';
}

/** The printed fields of a catalogue (isPrintedField), in its order. */
export function printedFields(catalogue: Catalogue = FIELDS): string[] {
  return Object.keys(catalogue).filter((name) => isPrintedField(catalogue[name] as AnySpec));
}

/** The catalogue's fields in the spec's order (FORM_FIELDS), then any field the spec does not name. */
export function specOrder(catalogue: Catalogue = FIELDS): string[] {
  const spec: readonly string[] = FORM_FIELDS;
  return [
    ...spec.filter((name) => Object.hasOwn(catalogue, name)),
    ...Object.keys(catalogue).filter((name) => !spec.includes(name)),
  ];
}

const specOf = (name: string, catalogue: Catalogue = FIELDS): AnySpec | undefined =>
  Object.hasOwn(catalogue, name) ? catalogue[name] : undefined;

/**
 * Is the field hidden in this mode? Its section's rule (sections.ts: duplicate mode hides the
 * birth details, the employer, past activities and stays abroad; a new request the duplicate
 * types), unless its entry names its own (`only`: sex and other citizenships in new requests only).
 * What else turns a field off is its `enabled` (isFieldEnabled). Whether the data mailbox's box
 * is shown is the context's (conditions.ts isDataMailboxShown, read by the web), not the entry's.
 */
export function isFieldHidden(
  field: string,
  ctx: Pick<FormContext, 'duplicate'>,
  catalogue: Catalogue = FIELDS,
): boolean {
  const spec = specOf(field, catalogue);
  if (!spec) return false;
  return !inRequest(spec.only ?? (spec.section ? sectionOnly(spec.section) : undefined), ctx);
}

/**
 * Is the field on: not hidden in this mode and not disabled by another value (its `enabled`)?
 * A path of a row column ('past_activities.0.field2') asks the column's `enabled` of that row.
 */
export function isFieldEnabled(
  path: string,
  values: FormValues,
  ctx: Pick<FormContext, 'duplicate'>,
  catalogue: Catalogue = FIELDS,
): boolean {
  const [name = '', index, column] = path.split('.');
  const spec = specOf(name, catalogue);
  if (!spec || isFieldHidden(name, ctx, catalogue)) return false;
  if (spec.kind === 'rows') {
    if (column === undefined) return true;
    const columns = columnsOf(spec);
    const c = Object.hasOwn(columns, column) ? columns[column] : undefined;
    const row = ((values as unknown as Record<string, Array<Record<string, string>>>)[name] ?? [])[
      Number(index)
    ];
    return c !== undefined && (!c.enabled || !row || c.enabled(row));
  }
  return spec.kind === 'items' || !spec.enabled || spec.enabled(values);
}

/**
 * Is a field (or a row column, 'past_activities.0.from') required with these values and context?
 * Only while it is on (isFieldEnabled: hidden and disabled fields never are), then as its entry's
 * `required` says; a row's columns always are. The web marks every other field "(optional)".
 */
export function isFieldRequired(
  path: string,
  values: FormValues,
  ctx: FormContext,
  catalogue: Catalogue = FIELDS,
): boolean {
  if (!isFieldEnabled(path, values, ctx, catalogue)) return false;
  const [name = '', , column] = path.split('.');
  const spec = specOf(name, catalogue);
  if (!spec) return false;
  if (spec.kind === 'rows') return column !== undefined;
  return spec.required === true || (typeof spec.required === 'function' && spec.required(values, ctx));
}

/**
 * A field the register fixed (prefill): the user cannot change it (every rule still runs). Not
 * derived from its entry: the context's `readOnly` (registerFormContext) says which fields are.
 */
export function isFieldReadOnly(field: FormFieldName, ctx: Pick<FormContext, 'readOnly'>): boolean {
  return ctx.readOnly.has(field);
}

/** A string as it is stored: NFC, trimmed, then its entry's or its kind's form (kinds.ts: a month/year as MM/YYYY). */
function storedString(spec: ValueSpec & { normalize?: (value: string) => string }, value: string): string {
  return normalizedValue(spec, normalizeText(value).trim());
}

/**
 * The values as they are stored, after the schema accepted them, by the catalogue: every text
 * NFC-normalised and trimmed, then in its entry's form (`normalize`: the telephone without
 * spaces, the birth number without slash or spaces; month/years as MM/YYYY), and what is off
 * stored empty (an entry's `enabled`: birth_district outside CZ, citizen_of_2 beside ##, field2
 * for type Other, the dial code and the SMS notification without a telephone).
 */
export function normalizeFormValues(input: FormValues, catalogue: Catalogue = FIELDS): FormValues {
  const stored: Record<string, unknown> = { ...input };
  const raw = input as unknown as Record<string, unknown>;
  for (const [name, spec] of Object.entries(catalogue)) {
    if (spec.kind === 'boolean') continue;
    if (spec.kind === 'items') stored[name] = (raw[name] as string[]).map((s) => normalizeText(s).trim());
    else if (spec.kind === 'rows') {
      stored[name] = (raw[name] as Array<Record<string, string>>).map((row) => {
        const columns = Object.entries(columnsOf(spec));
        const out = Object.fromEntries(columns.map(([c, cs]) => [c, storedString(cs, row[c] ?? '')]));
        for (const [c, cs] of columns) if (cs.enabled && !cs.enabled(out)) out[c] = '';
        return out;
      });
    } else stored[name] = storedString(spec, raw[name] as string);
  }
  // What another value switches off, judged on the stored values.
  const judged = { ...stored } as unknown as FormValues;
  for (const [name, spec] of Object.entries(catalogue)) {
    if (spec.kind === 'items' || spec.kind === 'rows' || !spec.enabled || spec.enabled(judged)) continue;
    stored[name] = spec.kind === 'boolean' ? false : '';
  }
  return stored as unknown as FormValues;
}

/**
 * The catalogue entry of an issue path: 'first_name' the field's, 'other_citizenships.2' the
 * list's item, 'past_activities.0.from' the row column's (also 'past_activities.from' without the
 * index). Undefined for a path the form does not have.
 */
export function fieldSpec(
  path: string | ReadonlyArray<string | number>,
  catalogue: Catalogue = FIELDS,
): AnySpec | ValueSpec | ColumnSpec<never> | undefined {
  const parts = typeof path === 'string' ? path.split('.') : path.map(String);
  const top = specOf(parts[0] ?? '', catalogue);
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
export function maxLengthFor(
  path: string | ReadonlyArray<string | number>,
  catalogue: Catalogue = FIELDS,
): number {
  const spec = fieldSpec(path, catalogue);
  if (!spec || spec.kind === 'boolean') return DEFAULT_MAX_LENGTH;
  return spec.kind === 'items' || spec.kind === 'rows' ? spec.maxItems : spec.maxLength;
}

/** A text that may span lines (a textarea): the stay-abroad reason. */
export function isMultiline(
  path: string | ReadonlyArray<string | number>,
  catalogue: Catalogue = FIELDS,
): boolean {
  const spec = fieldSpec(path, catalogue);
  return spec?.kind === 'text' && spec.multiline === true;
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
 * birth municipality outside CZ). In the spec's field order (specOrder). The server checks the country and list
 * codes against its reference data; the PDF looks up their names.
 */
export function codedValues(
  values: FormValues,
  ctx: Pick<FormContext, 'duplicate'>,
  catalogue: Catalogue = FIELDS,
): CodedValue[] {
  const out: CodedValue[] = [];
  const add = (path: string, spec: ValueSpec, code: string) => {
    if (isCoded(spec) && code.trim() !== '') out.push({ path, spec, code });
  };
  const raw = values as unknown as Record<string, unknown>;
  for (const name of specOrder(catalogue)) {
    const spec = catalogue[name] as AnySpec;
    if (isFieldHidden(name, ctx, catalogue) || spec.kind === 'boolean') continue;
    if (spec.kind === 'items') {
      for (const [i, code] of (raw[name] as string[]).entries()) add(`${name}.${i}`, spec.item, code);
    } else if (spec.kind === 'rows') {
      (raw[name] as Array<Record<string, string>>).forEach((row, i) => {
        for (const [column, c] of Object.entries(columnsOf(spec))) {
          if (c.enabled && !c.enabled(row)) continue;
          add(`${name}.${i}.${column}`, c, String(row[column] ?? ''));
        }
      });
    } else {
      if (spec.enabled && !spec.enabled(values)) continue;
      if (spec.freeText?.(values)) continue;
      add(name, spec, raw[name] as string);
    }
  }
  return out;
}

/** A field's value in a fresh form: its entry's `default`, else empty ('', false, no items or rows). */
export function defaultValueOf(spec: AnySpec): FormValues[FormFieldName] {
  if (spec.kind === 'boolean') return false;
  if (spec.kind === 'items' || spec.kind === 'rows') return [];
  return spec.default ?? '';
}

/**
 * A fresh set of form values, by the catalogue: every field its entry's default (`default`:
 * employer_verification_type OSVEDCENI1, dial_code +420), else empty. In the spec's order.
 */
export function defaultFormValues(): FormValues {
  return Object.fromEntries(
    specOrder().map((name) => [name, defaultValueOf(FIELDS[name as FormFieldName] as AnySpec)]),
  ) as unknown as FormValues;
}

/** The string fields' names (every entry but booleans, lists and rows), in the spec's order. */
export const TEXT_FIELDS: readonly TextFieldName[] = FORM_FIELDS.filter((name): name is TextFieldName => {
  const kind = (FIELDS[name] as AnySpec).kind;
  return kind !== 'boolean' && kind !== 'items' && kind !== 'rows';
});

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
