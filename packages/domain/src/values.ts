// The request form's values (spec section 3): their shape and names (the spec's order), and the
// context the form carries beside them (duplicate mode, prefill, read-only fields). Types only, no
// rules and no defaults: conditions.ts, fields.ts (the catalogue, a field's default and kind) and
// form.ts build on this module.

/** sex: 1 Male, 2 Female, 0 Unspecified; '' while nothing is chosen. */
export type SexCode = '' | '0' | '1' | '2';
export const SEX_CODES = ['1', '2', '0'] as const;

/** Past activity type: 1 Employment, 2 Education, 3 Other; '' while nothing is chosen. */
export type ActivityTypeCode = '' | '1' | '2' | '3';
export const ACTIVITY_TYPES = ['1', '2', '3'] as const;

/** One row of past activities. from/to are month/year (MM/YYYY). */
export interface PastActivity {
  from: string;
  to: string;
  type: ActivityTypeCode;
  /** Employer, school or detailed information. */
  field1: string;
  /** Function or field of study; not used for type 3 (Other). */
  field2: string;
}

/** One row of stays abroad: a country code and the reason. */
export interface AbroadStay {
  state: string;
  reason: string;
}

/**
 * The request form values, by the spec's field names. Text values are strings ('' when
 * empty). birth_date is an ISO date `YYYY-MM-DD` (the date input shows dd.mm.yyyy and
 * stores ISO; anything else in it is reported as `pattern`); month/year values are
 * `MM/YYYY` (`M/YYYY` accepted). dial_code is not in the spec's field list: it is the
 * telephone's country calling code ('+420'), see docs/decisions/0003-dial-code.md.
 */
export interface FormValues {
  first_name: string;
  last_name: string;
  birth_name: string;
  sex: SexCode;
  birth_date: string;
  birth_number: string;
  birth_municipality: string;
  birth_district: string;
  birth_state: string;
  citizen_of_1: string;
  citizen_of_2: string;
  other_citizenships: string[];
  document_type: string;
  document_number: string;
  home_street: string;
  home_house_num: string;
  home_org_num: string;
  home_city: string;
  home_zip: string;
  home_state: string;
  employer_current_name: string;
  employer_current_from: string;
  employer_verification_type: string;
  employer_current_description: string;
  employer_current_position: string;
  reason_for_request: string;
  contact_company: string;
  contact_street: string;
  contact_house_num: string;
  contact_org_num: string;
  contact_city: string;
  contact_zip: string;
  contact_state: string;
  /** The telephone's country calling code ('+420'); required with a telephone. */
  dial_code: string;
  telephone: string;
  email: string;
  data_mailbox: string;
  delivery_type: string;
  duplicate_type: string[];
  aifo: string;
  past_activities: PastActivity[];
  abroad_stay: AbroadStay[];
  send_notifications_email: boolean;
  send_notifications_phone: boolean;
}

export type FormFieldName = keyof FormValues;

/**
 * The text (string) fields' names, derived from FormValues (the catalogue lists them at run time:
 * TEXT_FIELDS, fields.ts).
 */
export type TextFieldName = {
  [K in FormFieldName]: FormValues[K] extends string ? K : never;
}[FormFieldName];

/**
 * Every field name of the form, in the order of spec section 3 (dial_code before telephone): the
 * order of the shape, the issues, the codes and the CSV (specOrder, fields.ts). Every field of
 * FormValues is in it (a test holds it to the catalogue); its default and everything else about
 * it are its catalogue entry's (fields.ts: defaultFormValues, TEXT_FIELDS).
 */
export const FORM_FIELDS = [
  'first_name',
  'last_name',
  'birth_name',
  'sex',
  'birth_date',
  'birth_number',
  'birth_municipality',
  'birth_district',
  'birth_state',
  'citizen_of_1',
  'citizen_of_2',
  'document_type',
  'document_number',
  'home_street',
  'home_house_num',
  'home_org_num',
  'home_city',
  'home_zip',
  'home_state',
  'employer_current_name',
  'employer_current_from',
  'employer_verification_type',
  'employer_current_description',
  'employer_current_position',
  'reason_for_request',
  'contact_company',
  'contact_street',
  'contact_house_num',
  'contact_org_num',
  'contact_city',
  'contact_zip',
  'contact_state',
  'dial_code',
  'telephone',
  'email',
  'data_mailbox',
  'delivery_type',
  'aifo',
  'other_citizenships',
  'duplicate_type',
  'past_activities',
  'abroad_stay',
  'send_notifications_email',
  'send_notifications_phone',
] as const satisfies readonly FormFieldName[];

/** An empty past-activity row. */
export function emptyPastActivity(): PastActivity {
  return { from: '', to: '', type: '', field1: '', field2: '' };
}

/** An empty stay-abroad row. */
export function emptyAbroadStay(): AbroadStay {
  return { state: '', reason: '' };
}

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
