import { z } from 'zod';
import { registerRecordSchema, searchAnswerSchema } from '../register.js';
import { REQUEST_STATUSES } from '../requestStatus.js';
import { refusalReasonSchema } from './refusalReason.js';

/**
 * The answers of the public API (spec section 7), as zod schemas with their inferred types.
 * The server types its routes' answers with them, the web app's api client reads them, and
 * the OpenAPI document (GET /api/docs) is generated from them: one contract for all three.
 * Answer objects are exact: z.toJSONSchema makes them `additionalProperties: false`.
 */

/** GET /api/ros/metadata: what the browser app needs at start. */
export const metadataAnswerSchema = /* @__PURE__ */ z.object({
  version: z.string(),
  /** 'YES' offers NIA sign-in on the home page; 'NO' opens the form with ?eid=eid. */
  use_eid: /* @__PURE__ */ z.enum(['YES', 'NO']),
  /** reCAPTCHA v3 site key; empty with the self-hosted altcha check. */
  recaptchaSiteKey: z.string(),
  botCheckProvider: /* @__PURE__ */ z.enum(['altcha', 'recaptcha']),
});
export type MetadataAnswer = z.infer<typeof metadataAnswerSchema>;

/** An item of the small code lists (delivery, document, verification types, dial codes, activity types). */
export const codeItemSchema = /* @__PURE__ */ z.object({
  code: z.string(),
  name_cz: z.string(),
  name_en: z.string(),
});
export type CodeItem = z.infer<typeof codeItemSchema>;
/** A duplicate reason; a `disabled` one is shown but cannot be chosen (the authority switched it off). */
export const duplicateTypeSchema = /* @__PURE__ */ codeItemSchema.extend({
  disabled: /* @__PURE__ */ z.boolean().optional(),
});
export type DuplicateType = z.infer<typeof duplicateTypeSchema>;
/** GET /api/ros/countries (?lang=en sorts by the English name). */
export const countrySchema = /* @__PURE__ */ codeItemSchema.extend({ code_csu: z.string() });
export type Country = z.infer<typeof countrySchema>;
export const municipalitySchema = /* @__PURE__ */ z.object({
  code: z.string(),
  name: z.string(),
  long_name: z.string(),
  district: z.string(),
});
export type Municipality = z.infer<typeof municipalitySchema>;
export const districtSchema = /* @__PURE__ */ z.object({ code: z.string(), name: z.string() });
export type District = z.infer<typeof districtSchema>;

/** The reference lists by path (GET /api/ros/{name}), each a JSON array of its items. */
export const REFERENCE_LIST_SCHEMAS = {
  countries: countrySchema,
  municipalities: municipalitySchema,
  districts: districtSchema,
  'delivery-types': codeItemSchema,
  'duplicate-types': duplicateTypeSchema,
  'document-types': codeItemSchema,
  'verification-types': codeItemSchema,
  'dial-codes': codeItemSchema,
  'activity-types': codeItemSchema,
} as const;

/** POST /api/ros/validate: the confirmation dialog's two checks. */
export const validateAnswerSchema = /* @__PURE__ */ z.object({
  okDate: z.boolean(),
  okDuplications: z.boolean(),
  reason: refusalReasonSchema().optional(),
});
export type ValidateAnswer = z.infer<typeof validateAnswerSchema>;

/** POST /api/ros: 201 when stored now, 200 for a retry of a stored request. */
export const submitAnswerSchema = /* @__PURE__ */ z.object({
  /** A short confirmation with the reference number, in the request's language. */
  text: z.string(),
  /** The request's unguessable id: GET /api/ros/pdf/{id}. */
  id: z.string(),
  /** The reference number the authority files the request under. */
  reference: z.string(),
  /** true when a confirmation e-mail with the PDF was queued (requests after NIA sign-in). */
  email: z.literal(true).optional(),
  /** The access code of the status page (docs/status.md), as printed: 'ABCD-EFGH-JKLM'. */
  access_code: z.string().optional(),
});
export type SubmitAnswer = z.infer<typeof submitAnswerSchema>;

/**
 * POST /api/ros/status (docs/status.md): where a request is, with no personal data: its status,
 * the channel (the paper route waits for the signed request), every change with its time (UTC)
 * and the authority's note (gone after the retention purge), and for an issued certificate its
 * validity-check id when the authority gave it. An event with `correction: true` corrects a
 * decision (issue 38): its status is the corrected outcome, its note the reason; the current
 * outcome is always the last event's.
 */
export const statusAnswerSchema = /* @__PURE__ */ z.object({
  reference: z.string(),
  status: z.enum(REQUEST_STATUSES),
  channel: z.enum(['pdf', 'nia']),
  submitted_at: z.string(),
  events: z.array(
    z.object({
      status: z.enum(REQUEST_STATUSES),
      at: z.string(),
      note: z.string().nullable(),
      correction: z.boolean(),
    }),
  ),
  certificate: z.string().nullable(),
});
export type StatusAnswer = z.infer<typeof statusAnswerSchema>;

/** The identity NIA released (spec section 3, "Sign-in session"). */
export const niaIdentitySchema = /* @__PURE__ */ z.object({
  /** False when NIA did not release the first name, the last name or the birth date. */
  complete: z.boolean(),
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
  /** YYYY-MM-DD */
  birth_date: z.string().nullable(),
});
export type NiaIdentityAnswer = z.infer<typeof niaIdentitySchema>;

/**
 * GET /api/ros/sso-session (docs/nia.md): the NIA identity, the register's data of that person
 * (`szr`, the search answer's shape), the certificate, the AIFO and the data mailbox; the
 * register parts are null when the register does not know the person.
 */
/**
 * How long the NIA session still lasts (GET /api/ros/sso-session and POST
 * /api/ros/sso-session/extend, docs/nia.md "The session's end"): seconds, so that the browser's
 * clock does not matter. The browser warns `warn_before` seconds before the end (WCAG 2.2.1);
 * `extendable` is false once the session's maximum lifetime is reached (sign in again then).
 */
export const ssoSessionTimeSchema = /* @__PURE__ */ z.object({
  expires_in: z.number().int().nonnegative(),
  warn_before: z.number().int().nonnegative(),
  extendable: z.boolean(),
});
export type SsoSessionTime = z.infer<typeof ssoSessionTimeSchema>;

export const ssoSessionAnswerSchema = /* @__PURE__ */ z
  .object({
    nia: niaIdentitySchema,
    szr: searchAnswerSchema.nullable(),
    record: registerRecordSchema.nullable(),
    aifo: z.string().nullable(),
    databox: z.string().nullable(),
  })
  .extend(ssoSessionTimeSchema.shape);
export type SsoSessionAnswer = z.infer<typeof ssoSessionAnswerSchema>;

/** GET /api/ros/altcha-challenge: an ALTCHA v2 proof-of-work challenge (altcha-lib). */
export const altchaChallengeSchema = /* @__PURE__ */ z
  .object({ parameters: z.record(z.string(), z.unknown()), signature: z.string().optional() })
  .loose();
