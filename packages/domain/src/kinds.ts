// The semantic kinds of the form's values (issue 34): what a value is, beyond being a string.
// Each kind owns what is true of every field of its kind: its format rule (run on a filled value
// of a field that is shown and enabled), the message keys that rule can give, the HTML input
// attributes of its text box, its stored form (`normalize`) and how a person reads it (`print`,
// the PDF). A catalogue entry (fields.ts) names its kind and adds what is the field's own: its
// length, section, required rule, when it is off. validateFormValues (form.ts) runs the entry's
// kind rule; nothing switches on a field's name. Every text also gets the rules of any text
// (maximum length, the text policy, `required`): those keys are not listed here.

import { birthNumberError, formatBirthNumber, normalizeBirthNumber } from './birthNumber.js';
import {
  dataMailboxError,
  dialCodeError,
  emailError,
  formatTelephone,
  normalizeTelephone,
  telephoneError,
} from './contact.js';
import {
  birthDateError,
  type CalendarDate,
  isIncompleteDateInput,
  isoToDisplay,
  parseIsoDate,
} from './dates.js';
import type { MessageKey } from './messages.js';
import { monthYearError, normalizeMonthYear } from './monthYear.js';

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
  /** An e-mail address (contact.ts). */
  | { kind: 'email'; maxLength: number }
  /** A national telephone number, its country code beside it (contact.ts). */
  | { kind: 'telephone'; maxLength: number }
  /** A Czech birth number (birthNumber.ts). */
  | { kind: 'birthNumber'; maxLength: number }
  /** An ISDS data mailbox id (contact.ts). */
  | { kind: 'dataMailbox'; maxLength: number }
  /** An ISO date 'YYYY-MM-DD' (dates.ts); `range: 'birth'`: a birth date's (birthDateRange). */
  | { kind: 'date'; maxLength: number; range?: 'birth' }
  /** A month and year 'MM/YYYY' (monthYear.ts); not after this month, or `monthsAhead` months ahead. */
  | { kind: 'monthYear'; maxLength: number; monthsAhead?: number }
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

/**
 * The other values a kind's rules read (the form's values, fields.ts FormValues, are these and
 * more): a birth number's date part agrees with the birth date, a telephone prints with its
 * country code (decision 0003). Written here, not taken from the catalogue: the catalogue is made
 * of the kinds, so this module imports nothing of it.
 */
export interface KindValues {
  readonly birth_date: string;
  readonly dial_code: string;
}

/** What a format rule may read besides the value: the other values, the context, the day, its entry. */
export interface KindCheck {
  values: KindValues;
  /** The form's context (fields.ts FormContext): the browser's dial codes, when it has them. */
  ctx: { readonly dialCodes?: ReadonlySet<string> };
  today: CalendarDate;
  spec: ValueSpec;
}

/** The HTML attributes of a kind's text box. */
export interface InputAttributes {
  type?: 'text' | 'email';
  inputMode?: 'text' | 'numeric' | 'email' | 'tel' | 'decimal';
  autoComplete?: string;
}

/** What a semantic kind owns. */
export interface Kind {
  /** The error of a filled value (trimmed or not, as typed), or null. Absent: any value of the kind's length. */
  format?: (value: string, check: KindCheck) => MessageKey | null;
  /**
   * 'required': the format rule runs only where the field is required (a birth number: a foreign
   * applicant, for whom it is optional, may write their number as they have it).
   */
  checkedWhen?: 'required';
  /** Every key `format` can give (a test holds the rule to it). */
  messages: readonly MessageKey[];
  /** Its text box's attributes (a list, a choice, a country: a picker, none). */
  input: InputAttributes;
  /** The stored form of a trimmed, NFC value (default: as it is). */
  normalize?: (value: string) => string;
  /** The value as a person reads it (the PDF), before a code is replaced by its name. */
  print?: (value: string, values: KindValues) => string;
}

/** The kind names: ValueSpec's `kind`, KINDS's keys. */
export type ValueKind = ValueSpec['kind'];

/** A Czech birth number as written (850315/1008); a foreign number as it was given. */
const printBirthNumber = (s: string) => (/^\d{9,10}$/.test(s) ? formatBirthNumber(s) : s);

/**
 * A code list's own form, beyond being one of its codes (the server checks that against its
 * reference data): a dial code is written as a calling code, and is one of the browser's list
 * when it has it (FormContext.dialCodes).
 */
const LIST_FORMATS: Partial<Record<CodeListName, NonNullable<Kind['format']>>> = {
  'dial-codes': (value, { ctx }) => dialCodeError(value, ctx.dialCodes),
};

/** The date kinds' range: a birth date lies in the last BIRTH_DATE_RANGE_YEARS up to today. */
const dateError = (value: string, { today, spec }: KindCheck): MessageKey | null => {
  if (spec.kind === 'date' && spec.range === 'birth') return birthDateError(value, today);
  const v = value.trim();
  if (parseIsoDate(v)) return null;
  return isIncompleteDateInput(v) ? 'dateIncomplete' : 'pattern';
};

/** The registry: every kind a value of the catalogue can be. */
export const KINDS: { readonly [K in ValueKind]: Kind } = {
  /** Free text: no format of its own. */
  text: { messages: [], input: {} },
  email: {
    format: (value) => emailError(value),
    messages: ['email'],
    input: { type: 'email', inputMode: 'email', autoComplete: 'email' },
  },
  /** The national number (9 digits), its country code beside it (the entry dial_code, decision 0003). */
  telephone: {
    format: (value) => telephoneError(value),
    messages: ['phoneInvalidPattern', 'phoneInvalidLength'],
    input: { inputMode: 'tel', autoComplete: 'tel-national' },
    normalize: normalizeTelephone,
    // '+420 603 123 456'; a request stored before the dial code existed shows the number alone.
    print: (telephone, values) => formatTelephone(telephone, values.dial_code ?? ''),
  },
  /** A Czech birth number; its date part agrees with the birth date when that is valid. */
  birthNumber: {
    format: (value, { values, today }) => {
      const date = birthDateError(values.birth_date, today) ? null : parseIsoDate(values.birth_date.trim());
      return birthNumberError(value, date);
    },
    checkedWhen: 'required',
    messages: [
      'birthNumberInvalidFormat',
      'birthNumberInvalidDay',
      'birthNumberInvalidMonth',
      'birthNumberInvalidYear',
    ],
    input: { inputMode: 'numeric' },
    normalize: normalizeBirthNumber,
    print: printBirthNumber,
  },
  /** An ISDS data mailbox id (7 letters and digits). */
  dataMailbox: {
    format: (value) => dataMailboxError(value),
    messages: ['dataMailboxAlphanumeric', 'dataMailboxLength'],
    input: {},
  },
  /** An ISO date 'YYYY-MM-DD' (dates.ts); the entry's `range` bounds it. */
  date: {
    format: dateError,
    messages: ['pattern', 'dateIncomplete', 'birthDateFuture', 'birthDateTooOld'],
    input: { inputMode: 'decimal' },
    print: (iso) => isoToDisplay(iso.trim()) ?? iso,
  },
  /** A month and year, stored 'MM/YYYY' (monthYear.ts); not after this month, or the entry's `monthsAhead`. */
  monthYear: {
    format: (value, { today, spec }) =>
      monthYearError(value, {
        today,
        maxMonthsAhead: spec.kind === 'monthYear' ? spec.monthsAhead : undefined,
      }),
    messages: [
      'monthDateInvalidPattern',
      'monthDateInvalidMonth',
      'monthDateInvalidYear',
      'monthDateFutureDate',
      'monthDateFarFutureDate',
    ],
    input: {},
    normalize: (s) => normalizeMonthYear(s) ?? s,
  },
  /** A code of the countries list: a picker. */
  country: { messages: [], input: {} },
  /** A code of the municipalities list (or free text where the entry's `freeText` says so). */
  municipality: { messages: [], input: {} },
  /** A code of the districts list. */
  district: { messages: [], input: {} },
  /** A code of one of the code lists; the list's own form (LIST_FORMATS: a dial code's). */
  list: {
    format: (value, check) =>
      check.spec.kind === 'list' ? (LIST_FORMATS[check.spec.list]?.(value, check) ?? null) : null,
    messages: ['pattern'],
    input: {},
  },
  /** One of a few fixed codes (the schema refuses any other). */
  choice: { messages: [], input: {} },
};

/** The kind of an entry. */
export function kindOf(spec: ValueSpec): Kind {
  return KINDS[spec.kind];
}

/** The input attributes of an entry's text box: its kind's. */
export function inputAttributes(spec: ValueSpec): InputAttributes {
  return kindOf(spec).input;
}

/** A value as a person reads it (the PDF): the entry's own `format`, else its kind's `print`, else as stored. */
export function printedValue<Values extends KindValues>(
  spec: ValueSpec & { format?: (value: string, values: Values) => string },
  value: string,
  values: Values,
): string {
  const print = spec.format ?? kindOf(spec).print;
  return print ? print(value, values) : value;
}

/** The stored form of a trimmed, NFC value: the entry's own `normalize`, else its kind's. */
export function normalizedValue(
  spec: ValueSpec & { normalize?: (value: string) => string },
  value: string,
): string {
  const normalize = spec.normalize ?? kindOf(spec).normalize;
  return normalize ? normalize(value) : value;
}
