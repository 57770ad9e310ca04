// The request form (spec section 3): its values, defaults, context and the zod schema
// that both the browser (react-hook-form) and the server (submit) run.

import { z } from 'zod';
import { birthNumberError, normalizeBirthNumber } from './birthNumber.js';
import { type BodyLimits, formBodyLimits, MAX_ISSUES } from './bounds.js';
import {
  areRowsRequired,
  hasConflictingDuplicateTypes,
  isBirthNumberRequired,
  isDialCodeEnabled,
  isDistrictEnabled,
  isField2Enabled,
  isFieldHidden,
  isFieldRequired,
  isSecondCitizenshipEnabled,
} from './conditions.js';
import {
  dataMailboxError,
  dialCodeError,
  emailError,
  normalizeTelephone,
  telephoneError,
} from './contact.js';
import { birthDateError, parseIsoDate, resolveToday, type Today } from './dates.js';
import {
  DEFAULT_DIAL_CODE,
  DEFAULT_EMPLOYER_VERIFICATION_TYPE,
  DEFAULT_MAX_LENGTH,
  MAX_ABROAD_STAYS,
  MAX_DUPLICATE_TYPES,
  MAX_LENGTHS,
  MAX_OTHER_CITIZENSHIPS,
  MAX_PAST_ACTIVITIES,
} from './limits.js';
import { MESSAGE_KEYS, type MessageKey, type ValidationError } from './messages.js';
import { activityMonthError, employerStartError, fromToError, normalizeMonthYear } from './monthYear.js';
import { normalizeText, textPolicyError } from './text.js';

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

/** Names of the text (string) fields of the form. */
export const TEXT_FIELDS = [
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
] as const satisfies readonly FormFieldName[];

export type TextFieldName = (typeof TEXT_FIELDS)[number];

/** Size, nesting and value count of the largest valid submit body (bounds.ts). */
export const FORM_BODY_LIMITS: BodyLimits = formBodyLimits(TEXT_FIELDS);

/** Every field name of the form, in the order of spec section 3 (dial_code before telephone). */
export const FORM_FIELDS = [
  ...TEXT_FIELDS,
  'other_citizenships',
  'duplicate_type',
  'past_activities',
  'abroad_stay',
  'send_notifications_email',
  'send_notifications_phone',
] as const satisfies readonly FormFieldName[];

/** A fresh set of empty form values (employer_verification_type OSVEDCENI1, dial_code +420). */
export function defaultFormValues(): FormValues {
  return {
    first_name: '',
    last_name: '',
    birth_name: '',
    sex: '',
    birth_date: '',
    birth_number: '',
    birth_municipality: '',
    birth_district: '',
    birth_state: '',
    citizen_of_1: '',
    citizen_of_2: '',
    other_citizenships: [],
    document_type: '',
    document_number: '',
    home_street: '',
    home_house_num: '',
    home_org_num: '',
    home_city: '',
    home_zip: '',
    home_state: '',
    employer_current_name: '',
    employer_current_from: '',
    employer_verification_type: DEFAULT_EMPLOYER_VERIFICATION_TYPE,
    employer_current_description: '',
    employer_current_position: '',
    reason_for_request: '',
    contact_company: '',
    contact_street: '',
    contact_house_num: '',
    contact_org_num: '',
    contact_city: '',
    contact_zip: '',
    contact_state: '',
    dial_code: DEFAULT_DIAL_CODE,
    telephone: '',
    email: '',
    data_mailbox: '',
    delivery_type: '',
    duplicate_type: [],
    aifo: '',
    past_activities: [],
    abroad_stay: [],
    send_notifications_email: false,
    send_notifications_phone: false,
  };
}

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

// ---------------------------------------------------------------------------------
// The schema

/** Wrong JSON type (only a hand-made request can do that): `required` when missing, else `pattern`. */
const typeError = (iss: { input?: unknown }) => (iss.input === undefined ? 'required' : 'pattern');
const text = () => z.string({ error: typeError });
/**
 * A list whose length is checked before any of its items is looked at (issue 11: zod 4 checks
 * a z.array's `.max` only after every item, so 100,000 items cost seconds). Too long: one
 * `maxlength` issue and the items are never read.
 */
const list = <T extends z.ZodType>(item: T, max: number) =>
  z
    .any()
    .check((c) => {
      if (Array.isArray(c.value) && c.value.length > max) {
        c.issues.push({ code: 'custom', message: 'maxlength', params: { max }, input: undefined });
      }
    })
    .pipe(z.array(item, { error: typeError }));

const pastActivityShape = z.object({
  from: text(),
  to: text(),
  type: z.enum(['', '1', '2', '3'], { error: typeError }),
  field1: text(),
  field2: text(),
});

const abroadStayShape = z.object({ state: text(), reason: text() });

/** The shape alone: types of every field, no rules. */
/** The form values' shape without the rules (buildFormSchema adds them; the API contract describes the submit body with it). */
export const formShape = z.object({
  ...(Object.fromEntries(TEXT_FIELDS.map((f) => [f, text()])) as Record<
    TextFieldName,
    ReturnType<typeof text>
  >),
  sex: z.enum(['', '0', '1', '2'], { error: typeError }),
  other_citizenships: list(text(), MAX_OTHER_CITIZENSHIPS),
  duplicate_type: list(text(), MAX_DUPLICATE_TYPES),
  past_activities: list(pastActivityShape, MAX_PAST_ACTIVITIES),
  abroad_stay: list(abroadStayShape, MAX_ABROAD_STAYS),
  send_notifications_email: z.boolean({ error: typeError }),
  send_notifications_phone: z.boolean({ error: typeError }),
});

// The shape and the FormValues interface must stay the same type.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const shapeMatchesFormValues: Same<z.infer<typeof formShape>, FormValues> = true;
void shapeMatchesFormValues;

/** Maximum length of a field by its issue path ('first_name', 'past_activities.0.field1', 'abroad_stay'). */
export function maxLengthFor(path: string | ReadonlyArray<string | number>): number {
  const parts = typeof path === 'string' ? path.split('.') : path.map(String);
  const head = parts[0] ?? '';
  const leaf = parts[parts.length - 1] ?? '';
  if (parts.length === 1) {
    if (head === 'abroad_stay') return MAX_ABROAD_STAYS;
    if (head === 'past_activities') return MAX_PAST_ACTIVITIES;
    if (head === 'other_citizenships') return MAX_OTHER_CITIZENSHIPS;
    if (head === 'duplicate_type') return MAX_DUPLICATE_TYPES;
  }
  if ((head === 'past_activities' || head === 'abroad_stay') && parts.length === 3) {
    return (MAX_LENGTHS as Record<string, number>)[leaf] ?? DEFAULT_MAX_LENGTH;
  }
  return (MAX_LENGTHS as Record<string, number>)[head] ?? DEFAULT_MAX_LENGTH;
}

const isBlank = (s: string) => s.trim() === '';
const MESSAGE_KEY_SET: ReadonlySet<string> = new Set(MESSAGE_KEYS);

type Path = Array<string | number>;
type Report = (path: Path, key: MessageKey, params?: Record<string, string | number>) => void;

function checkMaxLength(report: Report, path: Path, value: string): boolean {
  const max = maxLengthFor(path);
  if (value.length <= max) return true;
  report(path, 'maxlength', { max });
  return false;
}

/** Free text that may span lines (a textarea): the stay-abroad reason. */
const MULTILINE_LEAVES: ReadonlySet<string> = new Set(['reason']);

/** Maximum length, then the text policy (text.ts): the two rules every text always gets. */
function checkText(report: Report, path: Path, value: string): boolean {
  if (!checkMaxLength(report, path, value)) return false;
  const error = textPolicyError(value, { multiline: MULTILINE_LEAVES.has(String(path[path.length - 1])) });
  if (!error) return true;
  report(path, error);
  return false;
}

/**
 * Every rule of spec section 5 over a complete set of values, reported in field order,
 * at most one issue per path and at most MAX_ISSUES in all. Pure: the same values, context
 * and today give the same issues. Read-only (prefilled) fields get every rule too: a value
 * equal to the register's is not trusted (issue 11); prefillFromRegister leaves a register
 * value that fails a rule editable, so that the user can correct it.
 */
export function validateFormValues(values: FormValues, ctx: FormContext, today?: Today): FormIssue[] {
  const now = resolveToday(today);
  const issues: FormIssue[] = [];
  const seen = new Set<string>();
  const report: Report = (path, key, params) => {
    const id = path.join('.');
    if (seen.has(id) || issues.length >= MAX_ISSUES) return;
    seen.add(id);
    issues.push(params ? { path, key, params } : { path, key });
  };
  const hidden = (f: FormFieldName) => isFieldHidden(f, ctx);

  // Text fields: maximum length and the text policy always (storage), then required, then each format.
  for (const field of TEXT_FIELDS) {
    const value = values[field];
    if (!checkText(report, [field], value)) continue;
    if (isBlank(value)) {
      if (isFieldRequired(field, values, ctx)) report([field], 'required');
      continue;
    }
    if (hidden(field)) continue;
    const error = formatError(field, values, ctx, now);
    if (error) report([field], error);
  }

  // Lists of codes.
  for (const field of ['other_citizenships', 'duplicate_type'] as const) {
    const items = values[field];
    // A list past its limit is one issue; its items are not looked at.
    if (items.length > maxLengthFor(field)) {
      report([field], 'maxlength', { max: maxLengthFor(field) });
      continue;
    }
    items.forEach((item, i) => {
      if (checkText(report, [field, i], item) && isBlank(item)) report([field, i], 'pattern');
    });
  }
  if (ctx.duplicate) {
    if (values.duplicate_type.length === 0) report(['duplicate_type'], 'required');
    else if (hasConflictingDuplicateTypes(values.duplicate_type)) report(['duplicate_type'], 'pattern');
  }

  // Rows: maximum lengths always; required fields and month rules except in duplicate mode.
  const rowsRequired = areRowsRequired(ctx);
  const tooManyActivities = values.past_activities.length > MAX_PAST_ACTIVITIES;
  if (tooManyActivities) report(['past_activities'], 'maxlength', { max: MAX_PAST_ACTIVITIES });
  (tooManyActivities ? [] : values.past_activities).forEach((row, i) => {
    const base: Path = ['past_activities', i];
    const fields = ['from', 'to', 'type', 'field1', 'field2'] as const;
    for (const f of fields) {
      if (!checkText(report, [...base, f], row[f])) continue;
      if (!rowsRequired) continue;
      if (f === 'field2' && !isField2Enabled(row.type)) continue;
      if (isBlank(row[f])) {
        report([...base, f], 'required');
        continue;
      }
      if (f === 'from' || f === 'to') {
        const error = activityMonthError(row[f], now);
        if (error) report([...base, f], error);
      }
    }
    if (rowsRequired) {
      const order = fromToError(row.from, row.to);
      if (order && !activityMonthError(row.from, now)) report([...base, 'to'], order);
    }
  });

  const tooManyStays = values.abroad_stay.length > MAX_ABROAD_STAYS;
  if (tooManyStays) report(['abroad_stay'], 'maxlength', { max: MAX_ABROAD_STAYS });
  (tooManyStays ? [] : values.abroad_stay).forEach((row, i) => {
    for (const f of ['state', 'reason'] as const) {
      const path: Path = ['abroad_stay', i, f];
      if (checkText(report, path, row[f]) && rowsRequired && isBlank(row[f])) report(path, 'required');
    }
  });

  return issues;
}

/** The format rule of a filled, visible, editable text field. */
function formatError(
  field: TextFieldName,
  values: FormValues,
  ctx: FormContext,
  today: Today,
): MessageKey | null {
  const value = values[field];
  switch (field) {
    case 'birth_date':
      return birthDateError(value, today);
    case 'birth_number': {
      // Checked only where it is required (a Czech citizen, spec section 4); a foreign
      // applicant may leave it empty or write their number as they have it.
      if (!isBirthNumberRequired(values, ctx)) return null;
      // The birth date takes part only when it is itself valid.
      const date = birthDateError(values.birth_date, today) ? null : parseIsoDate(values.birth_date.trim());
      return birthNumberError(value, date);
    }
    case 'employer_current_from':
      return employerStartError(value, today);
    case 'dial_code':
      // Only with a telephone: without one the dial code means nothing and is not stored.
      return isDialCodeEnabled(values.telephone) ? dialCodeError(value, ctx.dialCodes) : null;
    case 'telephone':
      return telephoneError(value);
    case 'email':
      return emailError(value);
    case 'data_mailbox':
      return dataMailboxError(value);
    default:
      return null;
  }
}

/** One failed rule: where (issue path by the spec's field names) and which message key. */
export interface FormIssue extends ValidationError {
  path: Path;
}

/**
 * The zod schema of the whole request form for a context and a day. The issue messages
 * are the spec's message keys; `maxlength` issues carry `params: { max }` (the UI can
 * also get it from maxLengthFor(path), since form resolvers drop params). The browser
 * runs it in react-hook-form (@hookform/resolvers/zod), the server on submit.
 * Values are not transformed: parse output = input (see normalizeFormValues for storage).
 */
export function buildFormSchema(context: FormContext, today?: Today): z.ZodType<FormValues, FormValues> {
  const day = resolveToday(today);
  return formShape.superRefine((values, zctx) => {
    for (const issue of validateFormValues(values, context, day)) {
      zctx.addIssue({
        code: 'custom',
        path: issue.path,
        message: issue.key,
        input: undefined,
        ...(issue.params ? { params: issue.params } : {}),
      });
    }
  });
}

/** Turns zod issues into `{ 'past_activities.0.from': { key, params } }`, the first issue per path. */
export function issuesToFieldErrors(
  issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string; params?: unknown }>,
): Record<string, ValidationError> {
  const out: Record<string, ValidationError> = {};
  for (const issue of issues.slice(0, MAX_ISSUES * 2)) {
    const id = issue.path.map(String).join('.');
    if (id in out) continue;
    const key = (MESSAGE_KEY_SET.has(issue.message) ? issue.message : 'pattern') as MessageKey;
    const params =
      issue.params && typeof issue.params === 'object'
        ? (issue.params as Record<string, string | number>)
        : undefined;
    out[id] = params ? { key, params } : { key };
  }
  return out;
}

/**
 * The values as they should be stored, after the schema accepted them: text NFC-normalised and trimmed,
 * telephone without spaces, birth number without slash or spaces, month/years as MM/YYYY,
 * and what the conditions disable emptied (birth_district outside CZ, citizen_of_2 for
 * ##, field2 for type Other, the dial code and the phone notification without a telephone).
 */
export function normalizeFormValues(input: FormValues): FormValues {
  const values = nfcValues(input);
  const out: FormValues = { ...values };
  for (const field of TEXT_FIELDS) {
    (out as unknown as Record<TextFieldName, string>)[field] = values[field].trim();
  }
  out.telephone = normalizeTelephone(values.telephone);
  out.birth_number = normalizeBirthNumber(values.birth_number);
  out.employer_current_from = normalizeMonthYear(out.employer_current_from) ?? out.employer_current_from;
  if (!isDistrictEnabled(out.birth_state)) out.birth_district = '';
  if (!isSecondCitizenshipEnabled(out.citizen_of_1)) out.citizen_of_2 = '';
  out.other_citizenships = values.other_citizenships.map((c) => c.trim());
  out.duplicate_type = values.duplicate_type.map((c) => c.trim());
  out.past_activities = values.past_activities.map((row) => ({
    from: normalizeMonthYear(row.from) ?? row.from.trim(),
    to: normalizeMonthYear(row.to) ?? row.to.trim(),
    type: row.type,
    field1: row.field1.trim(),
    field2: isField2Enabled(row.type) ? row.field2.trim() : '',
  }));
  out.abroad_stay = values.abroad_stay.map((row) => ({ state: row.state.trim(), reason: row.reason.trim() }));
  if (out.telephone === '') {
    out.dial_code = '';
    out.send_notifications_phone = false;
  }
  return out;
}

/** Every text of the values in Unicode NFC (the text policy's storage form). */
function nfcValues(v: FormValues): FormValues {
  const out: FormValues = { ...v };
  for (const field of TEXT_FIELDS)
    (out as unknown as Record<string, string>)[field] = normalizeText(v[field]);
  out.other_citizenships = v.other_citizenships.map(normalizeText);
  out.duplicate_type = v.duplicate_type.map(normalizeText);
  out.past_activities = v.past_activities.map((r) => ({
    ...r,
    from: normalizeText(r.from),
    to: normalizeText(r.to),
    field1: normalizeText(r.field1),
    field2: normalizeText(r.field2),
  }));
  out.abroad_stay = v.abroad_stay.map((r) => ({
    state: normalizeText(r.state),
    reason: normalizeText(r.reason),
  }));
  return out;
}
