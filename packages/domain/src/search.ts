import { z } from 'zod';
import { parseBirthNumber } from './birthNumber.js';
import { type BodyLimits, flatBodyLimits } from './bounds.js';
import { MAX_LENGTHS } from './limits.js';
import { textPolicyError } from './text.js';

/**
 * The person search step (spec sections 2, 3, 4, 7): the search payloads, the register's
 * answer in its Czech field names, and the one mapping between the register's document
 * types and the form's.
 */

/** Document types of the form (code list `document-types`). */
export const FORM_DOCUMENT_TYPES = ['OP_CR', 'PAS'] as const;
export type FormDocumentType = (typeof FORM_DOCUMENT_TYPES)[number];

/** Document types as the register stores them in `typ_op_pas`: identity card and passport. */
export const REGISTER_DOCUMENT_TYPES = ['ID', 'P'] as const;
export type RegisterDocumentType = (typeof REGISTER_DOCUMENT_TYPES)[number];

/** Spec section 4: ID gives OP_CR, P gives PAS, anything else PAS. */
export function formDocumentType(registerType: string | null | undefined): FormDocumentType {
  return registerType === 'ID' ? 'OP_CR' : 'PAS';
}

/** The register's type for a form document type (the search looks documents up by it). */
export function registerDocumentType(formType: FormDocumentType): RegisterDocumentType {
  return formType === 'OP_CR' ? 'ID' : 'P';
}

/** Spec section 5 lengths used by the search step; a birth number may be written with spaces. */
export const SEARCH_MAX = {
  name: MAX_LENGTHS.first_name,
  documentNumber: MAX_LENGTHS.document_number,
  birthNumber: 20,
} as const;

/** Trimmed text that must not be empty; zod issue messages are the spec's message keys. */
const requiredText = (max: number) =>
  z
    .string({ error: 'required' })
    .max(max * 2, { error: 'maxlength', abort: true })
    .trim()
    .min(1, { error: 'required' })
    .max(max, { error: 'maxlength', abort: true })
    .refine((v) => textPolicyError(v) === null, { error: 'invalidCharacters' });

export const birthNumberSchema = /* @__PURE__ */ z
  .string({ error: 'required' })
  .max(SEARCH_MAX.birthNumber * 2, { error: 'maxlength', abort: true })
  .trim()
  .min(1, { error: 'required' })
  .max(SEARCH_MAX.birthNumber, { error: 'maxlength', abort: true })
  .refine((v) => parseBirthNumber(v) !== null, { error: 'birthNumberInvalidFormat' });

/** POST /api/ros/search. Extra fields are refused: a public endpoint takes exactly what it needs. */
export const searchByDocumentSchema = /* @__PURE__ */ z
  .object({
    first_name: requiredText(SEARCH_MAX.name),
    last_name: requiredText(SEARCH_MAX.name),
    type: z.enum(FORM_DOCUMENT_TYPES, { error: 'required' }),
    number: requiredText(SEARCH_MAX.documentNumber),
    // Sent empty by a form that has no birth number yet: treated as absent.
    birth_number: z
      .union([z.literal(''), z.null(), birthNumberSchema])
      .optional()
      .transform((v) => (v ? v : undefined)),
    duplicate: z.boolean({ error: 'pattern' }).optional(),
  })
  .strict();
export type SearchByDocumentInput = z.input<typeof searchByDocumentSchema>;
export type SearchByDocument = z.output<typeof searchByDocumentSchema>;

/** POST /api/ros/search-birth-number. */
export const searchByBirthNumberSchema = /* @__PURE__ */ z
  .object({ birth_number: birthNumberSchema })
  .strict();
export type SearchByBirthNumber = z.output<typeof searchByBirthNumberSchema>;

/** Size limits of the two search bodies (bounds.ts), from the fields' maximum lengths. */
export const SEARCH_BODY_LIMITS: BodyLimits = flatBodyLimits([
  ['first_name', SEARCH_MAX.name],
  ['last_name', SEARCH_MAX.name],
  ['type', 5],
  ['number', SEARCH_MAX.documentNumber],
  ['birth_number', SEARCH_MAX.birthNumber],
  ['duplicate', 5],
]);
export const BIRTH_NUMBER_SEARCH_BODY_LIMITS: BodyLimits = flatBodyLimits([
  ['birth_number', SEARCH_MAX.birthNumber],
]);

/** A past activity as the register keeps it. typ: 1 employment, 2 education, 3 other. */
export const registerActivitySchema = /* @__PURE__ */ z.object({
  /** MM/YYYY */
  zam_od: z.string(),
  /** MM/YYYY */
  zam_do: z.string(),
  typ: z.number(),
  /** employer, school or detailed information (form field1) */
  zamestnavatel: z.string(),
  /** function or field of study (form field2) */
  funkce: z.string(),
});
export type RegisterActivity = z.infer<typeof registerActivitySchema>;

/** A stay abroad as the register keeps it: state code and reason. */
export const registerAbroadStaySchema = /* @__PURE__ */ z.object({ stat: z.string(), duvod: z.string() });
export type RegisterAbroadStay = z.infer<typeof registerAbroadStaySchema>;

const categorySchema = /* @__PURE__ */ z.object({ valid_until: z.string() });

/** The person's certificate as the search answers it (spec section 3, validity record). */
export const registerRecordSchema = /* @__PURE__ */ z.object({
  id: z.number(),
  /** 'Ano' valid, 'Ne' not valid */
  stav: z.string(),
  /** dd.mm.yyyy */
  platnost_do: z.string(),
  a1a3: categorySchema.nullable(),
  a2: categorySchema.nullable(),
});
export type RegisterRecord = z.infer<typeof registerRecordSchema>;

/** A text the register may not know: absent or null. */
const maybe = () => z.string().nullable().optional();

/**
 * A person as the register knows them, in the register's Czech field names (spec section 3,
 * "Registry record fields read in prefill"). Text fields the register does not know are
 * absent or null. The birth data (dat_nar, misto_nar, okres_nar, stat_nar) are not in the
 * spec's list; the register holds them and the prefill uses them so a found person does not
 * have to type what the authority already knows.
 */
export const registerPersonSchema = /* @__PURE__ */ z.object({
  jmeno: z.string(),
  prijmeni: z.string(),
  /** birth surname */
  rodne_prijm: maybe(),
  /** '1' male, '2' female, '0' unspecified (also accepted: 'M', 'Z'/'Ž', 'F') */
  pohlavi: maybe(),
  /** birth number, with or without slash */
  rc: maybe(),
  /** birth date, YYYY-MM-DD */
  dat_nar: maybe(),
  /** birth municipality: a municipality code for a birth in CZ, free text elsewhere */
  misto_nar: maybe(),
  /** birth district code (CZ births only) */
  okres_nar: maybe(),
  /** birth state, country code */
  stat_nar: maybe(),
  /** home street with house number and optional orientation number ("Dlouhá 12/5") */
  ulice: maybe(),
  mesto: maybe(),
  psc: maybe(),
  /** home state, country code */
  stat: maybe(),
  /** first citizenship, country code */
  st_kod: maybe(),
  /** document type: 'ID' identity card, 'P' passport */
  typ_op_pas: maybe(),
  /** document number */
  op_pas: maybe(),
  /** document number given in the last web request */
  web_op_pas: maybe(),
  /** second citizenship */
  web_st_kod2: maybe(),
  /** other citizenships, country codes */
  web_st5_kody: z.array(z.string()).nullable().optional(),
  web_zamestnavatel: maybe(),
  /** MM/YYYY */
  web_zam_od: maybe(),
  web_funkce: maybe(),
  web_popis_cinnosti: maybe(),
  web_duvod_zadosti: maybe(),
  web_kont_firma: maybe(),
  web_kont_ulice: maybe(),
  web_kont_cp: maybe(),
  web_kont_co: maybe(),
  web_kont_mesto: maybe(),
  web_kont_psc: maybe(),
  web_kont_stat: maybe(),
  tel: maybe(),
  email: maybe(),
  /** data mailbox id (7 characters) */
  dat_schranka: maybe(),
  /** delivery type code, e.g. EMAIL, DATOVKOU */
  typ_predani: maybe(),
  /** function the certificate was issued for (kept, not prefilled) */
  funkce_platnost: maybe(),
  activities: z.array(registerActivitySchema).nullable().optional(),
  abroad_stay: z.array(registerAbroadStaySchema).nullable().optional(),
});
export type RegisterPerson = z.infer<typeof registerPersonSchema>;

/**
 * Answer of both search calls: the person, with `record` when they hold a certificate, and
 * `match`: the proof that this search found this person (a short-lived random token, see
 * docs/register.md). The browser sends it back with validate and submit; only through it
 * (or a NIA sign-in) does the server link a request to a register person.
 */
export const searchAnswerSchema = /* @__PURE__ */ registerPersonSchema.extend({
  record: registerRecordSchema.optional(),
  match: z.string().optional(),
});
export type SearchAnswer = z.infer<typeof searchAnswerSchema>;
