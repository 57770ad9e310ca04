// The field catalogue (issue 13, issue 25, issue 34): one entry per field of the request form, and
// per sub-field of its lists and rows: what kind of value it holds (kinds.ts: free text, an e-mail,
// a telephone, a birth number, a date, a country, an item of which code list...; the kind owns
// its format rule, input attributes, stored form and print, and gives the value its type:
// values.ts ValueOf), its maximum length, its section of the form (sections.ts), its place in the
// spec's order (`specPlace`), when it is off (hidden in a mode with its section or by `only`,
// disabled by another value: `enabled`, free text instead of a list choice: `freeText`), when it is
// required, the register person's column that prefills it (`register`) and whether a prefilled
// value is read-only (`prefilled`), the form it is compared in where it says who the person is
// (`compareAs`), what the applicant attaches because of it (`attachment`), whether and how the PDF
// prints it (`print`; `normalize` and `format` where an entry differs from its kind). A field's
// name is written once, as its entry's key: the form's values (FormValues, FormFieldName,
// TextFieldName, the rows' types) are derived from the entries, and so are FORM_FIELDS (the spec's
// order), the defaults and TEXT_FIELDS. The rules derived from the entries live here too:
// isFieldHidden, isFieldEnabled, isFieldRequired, normalizeFormValues, codedValues,
// isPrintedField, comparedValue; isFieldReadOnly reads the context (FormContext.readOnly: the
// prefill's set, from the entries' `prefilled`). The form's schema and storage form (form.ts), the
// prefill and the match token's bound fields (prefill.ts), the attachments (attachments.ts), the
// person keys (applicant.ts), the server's code checks (requests/submission.ts), its register import (the
// columns the entries name, register/import.ts), the PDF (pdf/model.ts), the CSV export
// (cli/requests.ts) and the web's controls (form/request/) read them rather than restate them. What is not the entry's: what a web
// section adds to the fields it draws from the catalogue (the employer's order, a name's or
// address's autocomplete, its reactions: form/request/SectionFields.tsx); its labels are its texts: the web's i18n and the PDF's (server pdf/labels.ts),
// both by the field's name.

import { normalizeBirthNumber } from './birthNumber.js';
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
import { normalizeDocumentNumber, normalizeName, normalizeText } from './text.js';
import { ACTIVITY_TYPES, SEX_CODES, type ValueOf } from './values.js';

export type { CodeListName, ValueKind, ValueSpec } from './kinds.js';

/**
 * The types of an entry's rules and of the names `on` gives. The catalogue's own (FormTyping) are
 * of the form's values, context and fields. ENTRIES is first checked as written with open ones
 * (WrittenTyping: a rule is any value, a name any string): the form's values, context and names
 * are derived from ENTRIES itself, and relating a rule's parameters to them while ENTRIES is
 * typed would read the type being derived (see ENTRIES).
 */
interface Typing {
  /** `enabled`, `freeText`: a test of the values. */
  test: unknown;
  /** `required`'s function: a test of the values in a context. */
  requirement: unknown;
  /** `format`: a value as a person reads it, with the other values. */
  format: unknown;
  /** A field's name. */
  name: string;
}
interface FormTyping extends Typing {
  test: (values: FormValues) => boolean;
  requirement: (values: FormValues, ctx: FormContext) => boolean;
  format: (value: string, values: FormValues) => string;
  name: FormFieldName;
}
interface WrittenTyping extends Typing {
  test: unknown;
  requirement: unknown;
  format: unknown;
  name: string;
}

/**
 * What an applicant may have to attach to the signed request because of a field (its entry's
 * `attachment`; attachments.ts requiredAttachments), in the order the PDF and the success screen
 * list them: `abroad`, an extract from the criminal record of each country of a stay abroad;
 * `identity`, a copy of the identity document, for someone without a Czech birth number.
 */
export const ATTACHMENTS = ['abroad', 'identity'] as const;
export type Attachment = (typeof ATTACHMENTS)[number];

/** What every top-level entry may say besides its kind: where it is, when it is required, how it prints. */
export interface FieldRules<T extends Typing = FormTyping> {
  /** Its section of the form (sections.ts); none: not a box of the form (aifo, the dialog's choices). */
  section?: SectionName;
  /** Only in this kind of request, besides its section's rule (sex, other citizenships: new ones). */
  only?: RequestKind;
  /**
   * Its place in the spec's order of the values (spec section 3's list, its texts first, then its
   * lists, rows and booleans; the dial code before the telephone, decision 0003): the order of the
   * values' shape, of their issues and coded values, and of the CSV export's columns (specOrder,
   * FORM_FIELDS). Absent: a field the spec does not name, after those, in catalogue order.
   */
  specPlace?: number;
  /**
   * Required while it is shown and enabled: always (true), or when this says so. Absent: optional
   * (the web marks it "(optional)").
   */
  required?: true | T['requirement'];
  /**
   * How the PDF prints it (in its section): absent, a row while the field is shown and enabled;
   * 'always' a row also when it is off (empty); 'filled' only when it holds a value (a value the
   * form never shows, from the register: labelled so); 'none' never (part of another row, or not
   * the applicant's to read).
   */
  print?: 'always' | 'filled' | 'none';
  /**
   * False: the form has no box for it, though it belongs to a section (the register fills it and
   * the PDF prints it then). Absent: its section's page shows it (sectionFields).
   */
  onPage?: false;
  /**
   * Read-only once the register filled it (prefill.ts prefillFromRegister; every rule still runs,
   * and a register value that fails its rule stays editable): 'readOnly' in both kinds of request,
   * 'readOnlyInNew' only in a new one (a duplicate's current names may follow a change of name).
   * Absent: the applicant may change what the register gave (contact, employer, activities).
   */
  prefilled?: 'readOnly' | 'readOnlyInNew';
  /**
   * What the applicant attaches to the signed request because of this field (attachments.ts
   * requiredAttachments), while it is shown: when it is 'empty' (no birth number: a copy of the
   * identity document) or 'filled' (stays abroad: the countries' extracts).
   */
  attachment?: { need: Attachment; when: 'empty' | 'filled' };
}

/** A register person's column that holds a text (the register's Czech names, register.ts). */
export type RegisterTextColumn = {
  [K in keyof RegisterPerson]-?: NonNullable<RegisterPerson[K]> extends string ? K : never;
}[keyof RegisterPerson];

/** A top-level string field: its value, its rules and when it is off. */
export type ScalarSpec<T extends Typing = FormTyping> = ValueSpec &
  FieldRules<T> & {
    /**
     * The register person's column that prefills it, copied trimmed as it stands, and only while
     * the field is enabled by what was prefilled before it (prefill.ts prefillFromRegister). The
     * register import checks that column by this entry (its length, or its kind's form: server
     * register/import.ts).
     * Absent: the register has none, or prefill reads it by a rule of its own (sex, the birth
     * date, the home street's numbers, the document).
     */
    register?: RegisterTextColumn;
    /** False: the field is disabled with these values (and stored empty, normalizeFormValues). */
    enabled?: T['test'];
    /** True: a list field is typed as free text with these values (a birth outside CZ). */
    freeText?: T['test'];
    /**
     * What the page shows while `enabled` says no: 'disabled' a disabled box, 'gone' no box; in
     * both the value is cleared. Absent: the box stays as it is (the dial code: "(optional)" until a
     * telephone is typed; its value is stored empty all the same, normalizeFormValues).
     */
    whenOff?: 'disabled' | 'gone';
    /** The fields `enabled` and `freeText` read (the browser watches them to follow a change). */
    on?: readonly T['name'][];
    /** The stored form of a trimmed, NFC value, where it is not its kind's (kinds.ts). */
    normalize?: (value: string) => string;
    /** The value as a person reads it (the PDF), where it is not as its kind prints it (kinds.ts). */
    format?: T['format'];
    /**
     * The form two values of a field that says who the person is are compared in (comparedValue):
     * a search's match token binds the fields with one that the prefill makes read-only
     * (prefill.ts MATCH_BOUND_FIELDS), and the person keys compare their fields so (applicant.ts
     * PERSON_KEYS). Names as the search compares them, the birth number by its digits, the
     * document number without spaces, the others trimmed.
     */
    compareAs?: (value: string) => string;
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
export type BooleanSpec<T extends Typing = FormTyping> = FieldRules<T> & {
  kind: 'boolean';
  /** False: off with these values, and stored false (normalizeFormValues). */
  enabled?: T['test'];
};
/** A list of codes (other citizenships, duplicate types); `maxItems` is its length limit. */
export type ItemsSpec<T extends Typing = FormTyping> = FieldRules<T> & {
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
export type RowsSpec<Row, T extends Typing = FormTyping> = FieldRules<T> & {
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

/** An entry as ENTRIES is first checked (WrittenTyping): its rules are not related to the form's types there. */
type WrittenSpec =
  | ScalarSpec<WrittenTyping>
  | BooleanSpec<WrittenTyping>
  | ItemsSpec<WrittenTyping>
  | (FieldRules<WrittenTyping> & {
      kind: 'rows';
      maxItems: number;
      columns: { readonly [column: string]: ValueSpec & { enabled?: unknown; on?: readonly string[] } };
    });

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
const trimmed = (value: string): string => value.trim();

/** The type of the catalogue: an entry for every field of FormValues, of the sort its value calls for. */
export type Fields = { readonly [K in FormFieldName]: FieldSpec<K> };

/**
 * The catalogue's entries as written, section by section in the order the PDF prints them (and
 * the page shows them). Their keys are the fields' names and their kinds the values' types: the
 * form's values (FormValues, below) are derived from this object, so nothing that types this
 * object may read FormValues, or TypeScript would need the type it is deriving (a circularity).
 * Hence: each rule names its parameters' types and its result (`(v: FormValues): boolean`,
 * `(row: PastActivity): boolean`; FormValues and PastActivity are interfaces, whose members are
 * read only when needed, so naming them here reads nothing yet), rather than taking them from a
 * type over the catalogue; and the object is checked twice. Here, as written (`satisfies
 * WrittenSpec`: the rules and `on`'s names left open, so no unknown property, no section or kind
 * that does not exist, nothing missing; `as const` keeps what the entries say, such as
 * `print: 'none'` and `on`'s names, which PrintedFieldName and the second check read); then as
 * FIELDS, once FormValues exists (Fields: each entry of the sort its value calls for, `on` naming
 * fields, every rule one of the form's values and context).
 */
const ENTRIES = {
  first_name: {
    ...text(50),
    section: 'personal',
    specPlace: 1,
    required,
    register: 'jmeno',
    prefilled: 'readOnlyInNew',
    compareAs: normalizeName,
  },
  last_name: {
    ...text(50),
    section: 'personal',
    specPlace: 2,
    required,
    register: 'prijmeni',
    prefilled: 'readOnlyInNew',
    compareAs: normalizeName,
  },
  birth_name: {
    ...text(50),
    section: 'personal',
    specPlace: 3,
    required,
    register: 'rodne_prijm',
    prefilled: 'readOnly',
  },
  sex: {
    kind: 'choice',
    options: SEX_CODES,
    names: 'sex',
    maxLength: DEFAULT_MAX_LENGTH,
    section: 'personal',
    specPlace: 4,
    only: 'new',
    required,
    prefilled: 'readOnly',
  },

  /**
   * An ISO date `YYYY-MM-DD` (the date input shows dd.mm.yyyy and stores ISO; anything else in it
   * is reported as `pattern`).
   */
  birth_date: {
    kind: 'date',
    maxLength: DEFAULT_MAX_LENGTH,
    range: 'birth',
    section: 'birth',
    specPlace: 5,
    required,
    prefilled: 'readOnly',
    compareAs: trimmed,
  },
  birth_state: {
    ...country,
    section: 'birth',
    specPlace: 9,
    required,
    register: 'stat_nar',
    prefilled: 'readOnly',
  },
  birth_municipality: {
    register: 'misto_nar',
    kind: 'municipality',
    maxLength: 240,
    section: 'birth',
    specPlace: 7,
    required,
    on: ['birth_state'],
    freeText: (v: FormValues): boolean => isMunicipalityFreeText(v.birth_state),
    prefilled: 'readOnly',
  },
  birth_district: {
    register: 'okres_nar',
    kind: 'district',
    maxLength: 240,
    section: 'birth',
    specPlace: 8,
    required,
    on: ['birth_state'],
    enabled: (v: FormValues): boolean => isDistrictEnabled(v.birth_state),
    // Only for a birth in the Czech Republic (spec section 2; issue 36: not a disabled box).
    whenOff: 'gone',
    prefilled: 'readOnly',
  },

  birth_number: {
    register: 'rc',
    ...textOf('birthNumber'),
    section: 'identity',
    specPlace: 6,
    required: isBirthNumberRequired,
    prefilled: 'readOnly',
    compareAs: normalizeBirthNumber,
    // Someone without a Czech birth number is not in the Czech registers.
    attachment: { need: 'identity', when: 'empty' },
  },
  document_type: {
    ...listOf('document-types'),
    section: 'identity',
    specPlace: 12,
    required,
    prefilled: 'readOnly',
    compareAs: trimmed,
  },
  document_number: {
    ...text(240),
    section: 'identity',
    specPlace: 13,
    required,
    prefilled: 'readOnly',
    compareAs: normalizeDocumentNumber,
  },
  citizen_of_1: {
    ...country,
    section: 'identity',
    specPlace: 10,
    required,
    register: 'st_kod',
    prefilled: 'readOnly',
  },
  citizen_of_2: {
    register: 'web_st_kod2',
    ...country,
    section: 'identity',
    specPlace: 11,
    on: ['citizen_of_1'],
    enabled: (v: FormValues): boolean => isSecondCitizenshipEnabled(v.citizen_of_1),
    whenOff: 'disabled',
    // A second citizenship beside ## is not one (stored empty): printed empty.
    print: 'always',
    prefilled: 'readOnly',
  },
  other_citizenships: {
    kind: 'items',
    maxItems: MAX_OTHER_CITIZENSHIPS,
    item: country,
    section: 'identity',
    specPlace: 39,
    only: 'new',
    prefilled: 'readOnly',
  },

  home_street: { ...text(80), section: 'home', specPlace: 14, required, prefilled: 'readOnly' },
  home_house_num: { ...text(10), section: 'home', specPlace: 15, prefilled: 'readOnly' },
  home_org_num: { ...text(10), section: 'home', specPlace: 16, prefilled: 'readOnly' },
  home_city: {
    ...text(80),
    section: 'home',
    specPlace: 17,
    required,
    register: 'mesto',
    prefilled: 'readOnly',
  },
  home_zip: { ...text(11), section: 'home', specPlace: 18, required, register: 'psc', prefilled: 'readOnly' },
  home_state: {
    ...country,
    section: 'home',
    specPlace: 19,
    required,
    register: 'stat',
    prefilled: 'readOnly',
  },

  contact_company: { ...text(240), section: 'contact_address', specPlace: 26, register: 'web_kont_firma' },
  contact_street: {
    ...text(80),
    section: 'contact_address',
    specPlace: 27,
    required,
    register: 'web_kont_ulice',
  },
  contact_house_num: { ...text(10), section: 'contact_address', specPlace: 28, register: 'web_kont_cp' },
  contact_org_num: { ...text(10), section: 'contact_address', specPlace: 29, register: 'web_kont_co' },
  contact_city: {
    ...text(80),
    section: 'contact_address',
    specPlace: 30,
    required,
    register: 'web_kont_mesto',
  },
  contact_zip: { ...text(11), section: 'contact_address', specPlace: 31, required, register: 'web_kont_psc' },
  contact_state: {
    ...country,
    section: 'contact_address',
    specPlace: 32,
    required,
    register: 'web_kont_stat',
  },

  // The telephone's country calling code ('+420', decision 0003; not in the spec's list): only
  // with a telephone, and then required; printed in the telephone's row.
  dial_code: {
    ...listOf('dial-codes'),
    section: 'contact',
    specPlace: 33,
    required,
    on: ['telephone'],
    enabled: (v: FormValues): boolean => isDialCodeEnabled(v.telephone),
    print: 'none',
    // A fresh form's is +420; an older body's none (decision 0003).
    default: DEFAULT_DIAL_CODE,
    absent: '',
  },
  telephone: { ...textOf('telephone', 80), section: 'contact', specPlace: 34, register: 'tel' },
  email: {
    ...textOf('email', EMAIL_MAX_LENGTH),
    section: 'contact',
    specPlace: 35,
    required,
    register: 'email',
  },
  data_mailbox: {
    register: 'dat_schranka',
    ...textOf('dataMailbox'),
    section: 'contact',
    specPlace: 36,
    required: isDataMailboxRequired,
    prefilled: 'readOnly',
  },
  delivery_type: {
    ...listOf('delivery-types'),
    section: 'contact',
    specPlace: 37,
    required,
    register: 'typ_predani',
  },

  employer_current_name: {
    ...text(240),
    section: 'employer',
    specPlace: 20,
    required,
    register: 'web_zamestnavatel',
  },
  // Up to 6 months ahead (a new job to start); past activities not after this month.
  employer_current_from: {
    register: 'web_zam_od',
    ...monthYear,
    monthsAhead: EMPLOYER_START_MAX_MONTHS_AHEAD,
    section: 'employer',
    specPlace: 21,
    required,
  },
  employer_verification_type: {
    ...listOf('verification-types'),
    section: 'employer',
    specPlace: 22,
    default: DEFAULT_EMPLOYER_VERIFICATION_TYPE,
  },
  employer_current_description: {
    ...text(240),
    section: 'employer',
    specPlace: 23,
    required,
    register: 'web_popis_cinnosti',
  },
  // The form does not show these two: only the register fills them (prefill), so the PDF prints
  // them only when it did, and says so (issue 28).
  employer_current_position: {
    ...text(),
    section: 'employer',
    specPlace: 24,
    print: 'filled',
    onPage: false,
    register: 'web_funkce',
  },
  reason_for_request: {
    ...text(),
    section: 'employer',
    specPlace: 25,
    print: 'filled',
    onPage: false,
    register: 'web_duvod_zadosti',
  },

  past_activities: {
    kind: 'rows',
    maxItems: MAX_PAST_ACTIVITIES,
    section: 'activities',
    specPlace: 41,
    columns: {
      /** Month/year MM/YYYY. */
      from: monthYear,
      to: monthYear,
      type: {
        kind: 'choice',
        options: ACTIVITY_TYPES,
        names: 'activity-types',
        maxLength: DEFAULT_MAX_LENGTH,
      },
      /** Employer, school or detailed information. */
      field1: text(240),
      /** Function or field of study; not used for type 3 (Other). */
      field2: {
        ...text(240),
        on: ['type'],
        enabled: (row: PastActivity): boolean => isField2Enabled(row.type),
      },
    },
  },
  abroad_stay: {
    kind: 'rows',
    maxItems: MAX_ABROAD_STAYS,
    section: 'abroad',
    specPlace: 42,
    columns: {
      state: country,
      reason: { kind: 'text', maxLength: 3993, multiline: true },
    },
    // An extract from the criminal record of each country of a stay.
    attachment: { need: 'abroad', when: 'filled' },
  },

  duplicate_type: {
    kind: 'items',
    maxItems: MAX_DUPLICATE_TYPES,
    item: listOf('duplicate-types'),
    section: 'duplicate',
    specPlace: 40,
    required,
  },

  // The NIA person's identifier (sent with the request after a sign-in): not the applicant's to type.
  aifo: { ...text(), specPlace: 38, print: 'none', compareAs: trimmed },
  // The confirmation dialog's notification choices (added on submit); the SMS one needs a telephone.
  send_notifications_email: { kind: 'boolean', specPlace: 43 },
  send_notifications_phone: {
    kind: 'boolean',
    specPlace: 44,
    enabled: (v: FormValues): boolean => isDialCodeEnabled(v.telephone),
  },
} as const satisfies { readonly [name: string]: WrittenSpec };

/** The form values as the entries' kinds make them (ValueOf), by field name. */
type ValuesOfEntries = { -readonly [K in keyof typeof ENTRIES]: ValueOf<(typeof ENTRIES)[K]> };

/**
 * The request form's values (spec section 3, and the dial code), by field name: one for every
 * entry of the catalogue, of its kind's type (values.ts ValueOf). Text values are strings ('' when
 * empty); the birth date an ISO date, month/years `MM/YYYY` (`M/YYYY` accepted). An interface
 * over the derived type, so that the rules above can name it (an interface's members are read
 * when they are needed, a type alias's at once).
 */
export interface FormValues extends ValuesOfEntries {}

export type FormFieldName = keyof FormValues;

/** The text (string) fields' names (the catalogue lists them at run time: TEXT_FIELDS). */
export type TextFieldName = {
  [K in FormFieldName]: FormValues[K] extends string ? K : never;
}[FormFieldName];

/** A rows field's row: its entry's columns, each of its kind's type. */
type RowOf<K extends 'past_activities' | 'abroad_stay'> = FormValues[K][number];
/** One row of past activities (its columns: `from`, `to`, `type`, `field1`, `field2`). */
export interface PastActivity extends RowOf<'past_activities'> {}
/** One row of stays abroad: a country code and the reason. */
export interface AbroadStay extends RowOf<'abroad_stay'> {}

/**
 * What the form knows beyond its values (spec section 3, "the form also carries").
 * - duplicate: duplicate mode (hides sex, birth details, other citizenships, employer,
 *   past activities and stays abroad; requires duplicate_type).
 * - noPrefill: no person was found / the user fills without a document; the data
 *   mailbox is then shown (required only for delivery by data mailbox).
 * - readOnly: fields filled by prefill. The user cannot change them in the browser; every
 *   rule still runs on them (a value equal to the register's is not trusted). It decides
 *   whether the data mailbox is shown.
 * - dataMailboxDelivery: a data mailbox is known for the person (register or NIA), so
 *   the DATOVKOU delivery type is offered.
 * - czechCitizen: the person is known to be a Czech citizen (register or NIA); the
 *   birth number is then required even before a citizenship is picked.
 * - dialCodes: the codes of GET /dial-codes, when the caller has the list (the browser);
 *   a dial code not in it is then `pattern`. Without it only the code's form is checked
 *   (the server checks the code against its reference data itself).
 */
export interface FormContext {
  duplicate: boolean;
  noPrefill: boolean;
  readOnly: ReadonlySet<FormFieldName>;
  dataMailboxDelivery: boolean;
  czechCitizen: boolean;
  dialCodes?: ReadonlySet<string>;
}

/** A context with every flag off and no read-only field. */
export function defaultFormContext(overrides: Partial<FormContext> = {}): FormContext {
  return {
    duplicate: false,
    noPrefill: false,
    readOnly: new Set(),
    dataMailboxDelivery: false,
    czechCitizen: false,
    ...overrides,
  };
}

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

/**
 * The fields whose entry says `rule` (as written, so the union stays literal): `prefilled`,
 * `compareAs`, `attachment` (prefill.ts MatchBoundField, attachments.ts AttachmentField).
 */
export type FieldsWith<Rule extends string> = {
  [K in FormFieldName]: (typeof ENTRIES)[K] extends { readonly [R in Rule]: unknown } ? K : never;
}[FormFieldName];

/**
 * A value as it is compared where it says who the person is (the entry's `compareAs`: a match
 * token's bound fields, the person keys); trimmed for a field without one.
 */
export function comparedValue(field: string, value: string, catalogue: Catalogue = FIELDS): string {
  const spec = specOf(field, catalogue);
  const compare = spec && 'compareAs' in spec ? spec.compareAs : undefined;
  return (compare ?? trimmed)(value);
}

/** Does the PDF print a row of this entry under its own label? PrintedFieldName, for any catalogue. */
export function isPrintedField(spec: AnySpec): boolean {
  return spec.kind !== 'boolean' && spec.kind !== 'rows' && spec.print !== 'none';
}

/** The printed fields of a catalogue (isPrintedField), in its order. */
export function printedFields(catalogue: Catalogue = FIELDS): string[] {
  return Object.keys(catalogue).filter((name) => isPrintedField(catalogue[name] as AnySpec));
}

/**
 * A catalogue's fields in the spec's order: those with a `specPlace` by it, then any field the
 * spec does not name (none: a catalogue with a field more, in a test), in catalogue order.
 */
export function specOrder(catalogue: Catalogue = FIELDS): string[] {
  const names = Object.keys(catalogue);
  const placeOf = (name: string) => (catalogue[name] as AnySpec).specPlace;
  const placed = names.filter((name) => placeOf(name) !== undefined);
  return [
    ...placed.sort((a, b) => (placeOf(a) as number) - (placeOf(b) as number)),
    ...names.filter((name) => placeOf(name) === undefined),
  ];
}

/**
 * Every field name of the form in the order of spec section 3 (specOrder: each entry's
 * `specPlace`): the order of the shape, the issues, the codes and the CSV.
 */
export const FORM_FIELDS: readonly FormFieldName[] = specOrder() as FormFieldName[];

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
 * The boxes of a section of the page, in the catalogue's order (the page's): its entries but those
 * the form has no box for (`onPage: false`) and those hidden in this mode (isFieldHidden). The
 * web's sections draw their fields from it, so a field added to the catalogue is on the page.
 */
export function sectionFields(
  section: SectionName,
  ctx: Pick<FormContext, 'duplicate'>,
  catalogue: Catalogue = FIELDS,
): string[] {
  return Object.keys(catalogue).filter((name) => {
    const spec = catalogue[name] as AnySpec;
    return spec.section === section && spec.onPage !== false && !isFieldHidden(name, ctx, catalogue);
  });
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
 * A field the register fixed (prefill): the user cannot change it (every rule still runs). The
 * context's `readOnly` (registerFormContext) says which fields are: those the register filled
 * whose entry says `prefilled` for the mode, unless the value fails its rule.
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
    FORM_FIELDS.map((name) => [name, defaultValueOf(FIELDS[name] as AnySpec)]),
  ) as unknown as FormValues;
}

/** An empty row of a rows entry (a list's add button): every column '' (a choice's too: nothing chosen). */
export const emptyRow = (spec: Extract<AnySpec, { kind: 'rows' }>): unknown =>
  Object.fromEntries(Object.keys(spec.columns).map((column) => [column, '']));

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
