import { z } from 'zod';
import { parseBirthNumber } from './birthNumber.js';
import { type BodyLimits, flatBodyLimits, MATCH_TOKEN_MAX_LENGTH } from './bounds.js';
import { FIELDS } from './fields.js';
import { once } from './once.js';
import { textPolicyIssue } from './text.js';

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
  name: FIELDS.first_name.maxLength,
  documentNumber: FIELDS.document_number.maxLength,
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
    .check((c) => {
      const issue = textPolicyIssue(c.value);
      if (issue) c.issues.push({ code: 'custom', message: issue.key, params: issue.params, input: c.value });
    });

export const birthNumberSchema = once(() =>
  z
    .string({ error: 'required' })
    .max(SEARCH_MAX.birthNumber * 2, { error: 'maxlength', abort: true })
    .trim()
    .min(1, { error: 'required' })
    .max(SEARCH_MAX.birthNumber, { error: 'maxlength', abort: true })
    .refine((v) => parseBirthNumber(v) !== null, { error: 'birthNumberInvalidFormat' }),
);

/** POST /api/ros/search. Extra fields are refused: a public endpoint takes exactly what it needs. */
export const searchByDocumentSchema = once(() =>
  z
    .object({
      first_name: requiredText(SEARCH_MAX.name),
      last_name: requiredText(SEARCH_MAX.name),
      type: z.enum(FORM_DOCUMENT_TYPES, { error: 'required' }),
      number: requiredText(SEARCH_MAX.documentNumber),
      // Sent empty by a form that has no birth number yet: treated as absent.
      birth_number: z
        .union([z.literal(''), z.null(), birthNumberSchema()])
        .optional()
        .transform((v) => (v ? v : undefined)),
      duplicate: z.boolean({ error: 'pattern' }).optional(),
    })
    .strict(),
);
export type SearchByDocumentInput = z.input<ReturnType<typeof searchByDocumentSchema>>;
export type SearchByDocument = z.output<ReturnType<typeof searchByDocumentSchema>>;

/**
 * POST /api/ros/search-birth-number: the duplicate retry (spec section 4) of a search that found
 * a person without a certificate. It finds a person only when the birth number is that same
 * person's (issue 21): the body carries the proof of the search before, `match` (the search
 * answer's token), or else the names and document the retry keeps locked. Without either it
 * finds nobody. The proof's fields are optional in the shape, so that a body without one is
 * answered as "not found", never as a different error.
 */
export const searchByBirthNumberSchema = once(() =>
  z
    .object({
      birth_number: birthNumberSchema(),
      match: z.string().max(MATCH_TOKEN_MAX_LENGTH).optional(),
      first_name: requiredText(SEARCH_MAX.name).optional(),
      last_name: requiredText(SEARCH_MAX.name).optional(),
      type: z.enum(FORM_DOCUMENT_TYPES, { error: 'required' }).optional(),
      number: requiredText(SEARCH_MAX.documentNumber).optional(),
    })
    .strict(),
);
export type SearchByBirthNumber = z.output<ReturnType<typeof searchByBirthNumberSchema>>;

/** Size limits of the two search bodies (bounds.ts), from the fields' maximum lengths. */
export const SEARCH_BODY_LIMITS: BodyLimits = /* @__PURE__ */ flatBodyLimits([
  ['first_name', SEARCH_MAX.name],
  ['last_name', SEARCH_MAX.name],
  ['type', 5],
  ['number', SEARCH_MAX.documentNumber],
  ['birth_number', SEARCH_MAX.birthNumber],
  ['duplicate', 5],
]);
export const BIRTH_NUMBER_SEARCH_BODY_LIMITS: BodyLimits = /* @__PURE__ */ flatBodyLimits([
  ['birth_number', SEARCH_MAX.birthNumber],
  ['match', MATCH_TOKEN_MAX_LENGTH],
  ['first_name', SEARCH_MAX.name],
  ['last_name', SEARCH_MAX.name],
  ['type', 5],
  ['number', SEARCH_MAX.documentNumber],
]);
