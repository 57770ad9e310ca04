import { isField2Enabled } from './conditions.js';
import type { Today } from './dates.js';
import {
  type AnySpec,
  comparedValue,
  defaultFormContext,
  defaultFormValues,
  FIELDS,
  type FieldsWith,
  type FormContext,
  type FormFieldName,
  type FormValues,
  isFieldHidden,
} from './fields.js';
import { validateFormValues } from './form.js';
import { CZECH_REPUBLIC, DELIVERY_DATA_MAILBOX } from './formCodes.js';
import type { RegisterPerson } from './register.js';
import { FORM_DOCUMENT_TYPES, type FormDocumentType, formDocumentType } from './search.js';
import { ACTIVITY_TYPES, type ActivityTypeCode, type SexCode } from './values.js';

/**
 * Prefill (spec section 4, "Search"): a found person's register data (Czech field names)
 * become request form values, and the fields filled that way become read-only.
 */

/** The form fields a prefill can set. */
export type PrefillField = Exclude<
  FormFieldName,
  | 'employer_verification_type'
  | 'duplicate_type'
  | 'aifo'
  // The register keeps a telephone without its country code: the form's default stays.
  | 'dial_code'
  | 'send_notifications_email'
  | 'send_notifications_phone'
>;
export type PrefillValues = Pick<FormValues, PrefillField>;

export interface Prefill {
  /** Only the fields the register knows; the form keeps its defaults for the others. */
  values: Partial<PrefillValues>;
  /** Fields the user may not change. */
  readOnly: PrefillField[];
  /** The form context of the prefilled form (registerFormContext). */
  context: FormContext;
}

const text = (v: string | null | undefined): string | undefined => {
  const t = typeof v === 'string' ? v.trim() : '';
  return t === '' ? undefined : t;
};

/** Register sex codes to the form's: 1 male, 2 female, 0 unspecified. */
export function sexFromRegister(v: string | null | undefined): SexCode | undefined {
  const t = text(v)?.toUpperCase();
  if (t === undefined) return undefined;
  if (t === '1' || t === 'M') return '1';
  if (t === '2' || t === 'Z' || t === 'Ž' || t === 'F') return '2';
  return '0';
}

/** The register's birth date when it is an ISO date 'YYYY-MM-DD' (the form's format); else nothing. */
export function dateFromRegister(v: string | null | undefined): string | undefined {
  const t = text(v) ?? '';
  return /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/.test(t) ? t : undefined;
}

const activityType = (v: unknown): ActivityTypeCode =>
  (ACTIVITY_TYPES as readonly string[]).includes(String(v)) ? (String(v) as ActivityTypeCode) : '';

/**
 * The register knows the person as a Czech citizen: either of their citizenships is CZ. The
 * birth number is then required (FormContext.czechCitizen), whatever the form's citizenships say.
 */
export function isCzechCitizen(person: Pick<RegisterPerson, 'st_kod' | 'web_st_kod2'>): boolean {
  return text(person.st_kod) === CZECH_REPUBLIC || text(person.web_st_kod2) === CZECH_REPUBLIC;
}

/**
 * The register keeps the home street with its numbers in one field ("Dlouhá 12/5",
 * "Na Příkopě 1096a"); the form has street, house number and orientation number.
 * Text without a trailing number stays the street (villages without streets give "Lhota 12":
 * street "Lhota", number 12, as the post office writes them).
 */
export function splitStreet(v: string | null | undefined): { street?: string; house?: string; org?: string } {
  const t = text(v);
  if (t === undefined) return {};
  const m = /^(.*?\S)\s+(\d+[a-zA-Z]?)(?:\s*\/\s*(\d+[a-zA-Z]?))?$/.exec(t);
  if (!m) return { street: t };
  return { street: m[1], house: m[2], org: m[3] };
}

/**
 * Maps a found person to form values. The fields filled become read-only as their entries say
 * (`prefilled`); `duplicate` switches the current names' rule: read-only in a new request only.
 * In duplicate mode the register's document type is kept as it is when it is a form type.
 */
export function prefillFromRegister(
  person: RegisterPerson,
  opts: { duplicate: boolean; today?: Today },
): Prefill {
  const v: Partial<PrefillValues> = {};
  const set = <K extends PrefillField>(key: K, value: PrefillValues[K] | undefined) => {
    if (value !== undefined) v[key] = value;
  };

  // The fields the register holds as they stand: each entry's column (fields.ts `register`), in
  // the catalogue's order, each only while enabled by what came before it (a district only with a
  // birth in CZ, a second citizenship not beside the stateless ##).
  const defaults = defaultFormValues();
  for (const [name, spec] of Object.entries(FIELDS)) {
    if (!('register' in spec) || spec.register === undefined) continue;
    const value = text(person[spec.register]);
    if (value === undefined) continue;
    if (spec.enabled && !spec.enabled({ ...defaults, ...v })) continue;
    (v as Partial<Record<string, string>>)[name] = value;
  }
  set('sex', sexFromRegister(person.pohlavi));
  set('birth_date', dateFromRegister(person.dat_nar));
  const others = (person.web_st5_kody ?? []).map((c) => text(c)).filter((c): c is string => c !== undefined);
  if (others.length > 0) set('other_citizenships', others);

  const documentNumber = text(person.op_pas) ?? text(person.web_op_pas);
  if (documentNumber !== undefined || text(person.typ_op_pas) !== undefined) {
    const registerType = text(person.typ_op_pas);
    const keepOwn =
      opts.duplicate && (FORM_DOCUMENT_TYPES as readonly string[]).includes(registerType as FormDocumentType);
    set('document_type', keepOwn ? registerType : formDocumentType(registerType));
  }
  set('document_number', documentNumber);

  // The register keeps the home street with its numbers in one field.
  const home = splitStreet(person.ulice);
  set('home_street', home.street);
  set('home_house_num', home.house);
  set('home_org_num', home.org);

  const activities = (person.activities ?? []).map((a) => ({
    from: text(a.zam_od) ?? '',
    to: text(a.zam_do) ?? '',
    type: activityType(a.typ),
    field1: text(a.zamestnavatel) ?? '',
    // Type 3 (other) has no function or field of study.
    field2: isField2Enabled(String(a.typ)) ? (text(a.funkce) ?? '') : '',
  }));
  if (activities.length > 0) set('past_activities', activities);
  const abroad = (person.abroad_stay ?? []).map((s) => ({
    state: text(s.stat) ?? '',
    reason: text(s.duvod) ?? '',
  }));
  if (abroad.length > 0) set('abroad_stay', abroad);

  // What the register filled is read-only as its entry says (fields.ts `prefilled`): the identity,
  // the home address and the birth name in both modes, the current names only in a new request
  // (a duplicate may follow a change of name).
  const readOnly = new Set<PrefillField>();
  for (const [name, spec] of Object.entries(FIELDS) as Array<[PrefillField, AnySpec]>) {
    if (v[name] === undefined || spec.prefilled === undefined) continue;
    if (spec.prefilled === 'readOnly' || !opts.duplicate) readOnly.add(name);
  }
  // Every rule runs on read-only fields too (the server trusts no value): a register value that
  // fails its rule stays editable, so that the user can correct it.
  const czechCitizen = isCzechCitizen(person);
  const ctx = defaultFormContext({
    duplicate: opts.duplicate,
    readOnly,
    dataMailboxDelivery: v.data_mailbox !== undefined,
    czechCitizen,
  });
  for (const issue of validateFormValues({ ...defaultFormValues(), ...v }, ctx, opts.today)) {
    if (issue.key !== 'required') readOnly.delete(issue.path[0] as PrefillField);
  }
  // The data mailbox box is shown only read-only or without prefill (isDataMailboxShown, spec), so
  // a register mailbox that fails its rule could be neither seen nor corrected while its rule
  // still ran: it is not carried, and neither is delivery to it (issue 34, item 5). A mailbox is
  // known, and DATOVKOU offered, only when the register's one is valid.
  const dataMailboxDelivery = readOnly.has('data_mailbox');
  if (!dataMailboxDelivery) {
    delete v.data_mailbox;
    if (v.delivery_type === DELIVERY_DATA_MAILBOX) delete v.delivery_type;
  }
  const context = defaultFormContext({
    duplicate: opts.duplicate,
    noPrefill: false,
    readOnly: new Set<FormFieldName>(readOnly),
    dataMailboxDelivery,
    czechCitizen,
  });
  return { values: v, readOnly: [...readOnly], context };
}

/**
 * The form context of a form prefilled from a register person: the one function the browser
 * (step 2 after a search or a NIA sign-in) and the server (deriveContext, on submit) both use.
 * `noPrefill` off, the prefill's read-only fields, DATOVKOU offered when a data mailbox is known,
 * `czechCitizen` when either register citizenship is CZ (isCzechCitizen).
 */
export function registerFormContext(
  person: RegisterPerson,
  opts: { duplicate: boolean; today?: Today },
): FormContext {
  return prefillFromRegister(person, opts).context;
}

/**
 * The identity fields a search's match token binds (issue 21): those whose entry says the form
 * they are compared in (fields.ts `compareAs`) and makes them read-only once prefilled
 * (`prefilled`): the names, the birth date, the birth number, the document's type and number, in
 * the catalogue's order. The token proves one register person, so a request or a validate call
 * that carries it must carry that person's values in every one of these fields the prefill made
 * read-only and the mode shows. A field the prefill left editable (the register's value fails
 * its rule, or a duplicate's current names, which may follow a change of name) is not bound.
 */
export type MatchBoundField = FieldsWith<'compareAs'> & FieldsWith<'prefilled'>;
export const MATCH_BOUND_FIELDS: readonly MatchBoundField[] = Object.entries(FIELDS)
  .filter(([, spec]) => 'compareAs' in spec && spec.compareAs !== undefined && spec.prefilled !== undefined)
  .map(([name]) => name as MatchBoundField);

/**
 * The bound fields (MATCH_BOUND_FIELDS) whose value is not the register person's; a field
 * absent from `values` is not compared. Each is compared in its entry's form (comparedValue:
 * names as the search compares them, case, diacritics and spaces ignored; the birth number by its
 * digits; the document number without spaces). Empty: the values are the person's.
 */
export function matchMismatches(
  person: RegisterPerson,
  values: Partial<Record<MatchBoundField, string>>,
  opts: { duplicate: boolean; today?: Today },
): MatchBoundField[] {
  const prefill = prefillFromRegister(person, opts);
  const out: MatchBoundField[] = [];
  for (const field of MATCH_BOUND_FIELDS) {
    const value = values[field];
    const own = prefill.values[field];
    if (value === undefined || own === undefined || !prefill.readOnly.includes(field)) continue;
    if (isFieldHidden(field, prefill.context)) continue;
    if (comparedValue(field, value) !== comparedValue(field, own)) out.push(field);
  }
  return out;
}
