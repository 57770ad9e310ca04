import { z } from 'zod';
import { LEGAL_VERSION_MAX_LENGTH, MATCH_TOKEN_MAX_LENGTH } from '../bounds.js';
import { FIELDS, type FormFieldName } from '../fields.js';
import { formShape } from '../form.js';
import { searchAnswerSchema, validityAnswerSchema } from '../register.js';
import { searchByBirthNumberSchema, searchByDocumentSchema } from '../search.js';
import { validateBodySchema } from '../validatePayload.js';
import {
  altchaChallengeSchema,
  metadataAnswerSchema,
  REFERENCE_LIST_SCHEMAS,
  ssoSessionAnswerSchema,
  ssoSessionTimeSchema,
  statusAnswerSchema,
  submitAnswerSchema,
  validateAnswerSchema,
} from './answers.js';
import {
  BOT_CHECK_CODES,
  PDF_ERROR_CODES,
  SEARCH_ERROR_CODES,
  SSO_ERROR_CODES,
  STATUS_ERROR_CODES,
  SUBMIT_ERROR_CODES,
} from './codes.js';
import type { ApiErrorCode } from './errors.js';

/** POST /api/ros/status's body: the reference and the access code as typed (docs/status.md). */
export const statusBodySchema = /* @__PURE__ */ z
  .object({ reference: z.string().max(40), code: z.string().max(40) })
  .strict();

const envelopeError = (i: { input: unknown }) => (i.input === undefined ? 'required' : 'pattern');

/** The submit body's envelope around the form values: the request's language and mode. */
export const submitEnvelopeSchema = /* @__PURE__ */ z.object({
  language: z.enum(['cs', 'en'], { error: envelopeError }),
  duplicate: z.boolean({ error: envelopeError }),
});

/**
 * What the applicant agreed to in the confirmation dialog (issue 22): the version of the legal
 * texts it showed (legalTexts/), the channel whose texts it showed (`paper`: the signed PDF;
 * `nia`: sent after NIA sign-in) and the three required declarations, each true. The two
 * notification consents are form values (send_notifications_email / _phone).
 */
export const legalEnvelopeSchema = /* @__PURE__ */ z.object({
  legal_version: z.string({ error: envelopeError }).max(LEGAL_VERSION_MAX_LENGTH),
  legal_channel: z.enum(['paper', 'nia'], { error: envelopeError }),
  declaration_signature: z.boolean({ error: envelopeError }),
  declaration_affidavit: z.boolean({ error: envelopeError }),
  declaration_purpose: z.boolean({ error: envelopeError }),
});

/**
 * POST /api/ros's body: the form's values (docs/form.md), the envelope and the search's `match`
 * token. The values' rules depend on the request (register person, NIA sign-in, duplicate):
 * the server checks them with buildFormSchema under the context it works out.
 */
export const submitBodySchema = /* @__PURE__ */ formShape()
  .extend(submitEnvelopeSchema.shape)
  .extend(legalEnvelopeSchema.shape)
  .extend({
    match: z.string().max(MATCH_TOKEN_MAX_LENGTH).optional(),
  })
  // A page loaded before a field existed sends none: the fields whose entry says what that means
  // (`absent`: the dial code, read as empty, decision 0003) are optional (backfill.ts).
  .extend(
    Object.fromEntries(
      Object.entries(FIELDS)
        .filter(([, spec]) => 'absent' in spec && spec.absent !== undefined)
        .map(([name]) => [name, formShape().shape[name as FormFieldName].optional()]),
    ),
  );

/** The pages a NIA sign-in starts from and returns to (GET /api/ros/sso-redirect?from=). */
export const SSO_FROM_PAGES = ['form', 'form-en', 'duplicate', 'duplicate-en'] as const;

/** One call of the public API: what it takes and what it answers. */
export interface ApiCall {
  method: 'get' | 'post' | 'put' | 'delete';
  /** Under its API's base (/api/ros), OpenAPI style: '/pdf/{id}'. */
  path: string;
  summary: string;
  query?: z.ZodObject;
  /** Headers the call reads (the bot-check token, the idempotency key). */
  headers?: Array<{ name: string; required: boolean; description: string }>;
  body?: z.ZodType;
  /** Status -> JSON answer schema; a string is a non-JSON answer (a media type or a redirect). */
  answers: Record<number, z.ZodType | string>;
  /** The media type of its schema answers when not plain JSON (a JWK Set's own type). */
  mediaType?: string;
  /** Error codes of this call beside those any call may answer (docs/errors.md). */
  errors?: ApiErrorCode[];
}

const botCheckHeader = {
  name: 'Recaptcha',
  required: true,
  description: 'The bot-check token (ALTCHA payload or reCAPTCHA v3 token)',
};
const botCheckErrors = /* @__PURE__ */ Object.values(BOT_CHECK_CODES).filter(
  (c) => c !== BOT_CHECK_CODES.provider,
);

/** Every call of spec section 7 (and the ALTCHA challenge), in the spec's order. */
export const PUBLIC_API_CALLS: ApiCall[] = [
  ...Object.entries(REFERENCE_LIST_SCHEMAS).map(
    ([name, item]): ApiCall => ({
      method: 'get',
      path: `/${name}`,
      summary: `The ${name} reference list (ETag, 304 on If-None-Match)`,
      ...(name === 'countries' ? { query: z.object({ lang: z.enum(['cs', 'en']).optional() }) } : {}),
      answers: { 200: z.array(item), 304: 'not modified' },
    }),
  ),
  {
    method: 'get',
    path: '/sso-session',
    summary: 'The NIA sign-in session and what the register holds of the person',
    answers: { 200: ssoSessionAnswerSchema },
    errors: [SSO_ERROR_CODES.noSession],
  },
  {
    method: 'post',
    path: '/sso-session/extend',
    summary: 'More time for the NIA sign-in session (up to its maximum lifetime)',
    answers: { 200: ssoSessionTimeSchema },
    errors: [SSO_ERROR_CODES.noSession],
  },
  {
    method: 'get',
    path: '/{id}/validity',
    summary: 'The public validity check of a certificate (id: {recordId}x{code})',
    answers: { 200: validityAnswerSchema },
  },
  {
    method: 'post',
    path: '/validate',
    summary:
      'Whether the request date and the duplicates are fine (the confirmation dialog), and when the date is not, which rule applies (`reason`); person-specific only with the `match` token or a NIA sign-in',
    body: validateBodySchema,
    answers: { 200: validateAnswerSchema },
  },
  {
    method: 'post',
    path: '/search',
    summary: 'Find a register person by name and document',
    headers: [botCheckHeader],
    body: searchByDocumentSchema(),
    answers: { 200: searchAnswerSchema },
    errors: [SEARCH_ERROR_CODES.notFound, ...botCheckErrors],
  },
  {
    method: 'post',
    path: '/search-birth-number',
    summary:
      'The duplicate retry: find the person a search found (its `match`, or the same names and document) by their birth number',
    headers: [botCheckHeader],
    body: searchByBirthNumberSchema(),
    answers: { 200: searchAnswerSchema },
    errors: [SEARCH_ERROR_CODES.notFound, ...botCheckErrors],
  },
  {
    method: 'post',
    path: '',
    summary: 'Submit a request (201 stored now, 200 a retry of a stored one)',
    headers: [
      botCheckHeader,
      {
        name: 'Idempotency-Key',
        required: false,
        description:
          '1-200 visible ASCII characters. A retry with the same key and body gets the first answer (200). Without a key every send is a new request, unless it carries the `match` token that a stored request with this body spent (a retry from the same browser): equal values alone are never a retry',
      },
    ],
    body: submitBodySchema,
    answers: { 200: submitAnswerSchema, 201: submitAnswerSchema },
    errors: [...new Set(Object.values(SUBMIT_ERROR_CODES)), ...botCheckErrors],
  },
  {
    method: 'post',
    path: '/status',
    summary:
      'Where a request is: its reference and the access code printed on its PDF (an unknown reference and a wrong code get the same 404)',
    body: statusBodySchema,
    answers: { 200: statusAnswerSchema },
    errors: [STATUS_ERROR_CODES.notFound],
  },
  {
    method: 'get',
    path: '/pdf/{id}',
    summary: 'The stored request as a PDF (a browser download)',
    answers: { 200: 'application/pdf' },
    errors: Object.values(PDF_ERROR_CODES),
  },
  {
    method: 'get',
    path: '/metadata',
    summary: 'What the browser app needs at start',
    answers: { 200: metadataAnswerSchema },
  },
  {
    method: 'get',
    path: '/sso-redirect',
    summary: 'Start the NIA sign-in (a browser navigation)',
    query: z.object({ from: z.enum(SSO_FROM_PAGES) }),
    answers: { 302: 'redirect to the identity provider' },
    errors: [SSO_ERROR_CODES.invalidRequest],
  },
  {
    method: 'get',
    path: '/sso-callback',
    summary: 'Finish the NIA sign-in and return to the form (a browser navigation)',
    answers: { 302: 'redirect to the form' },
  },
  {
    method: 'get',
    path: '/sso-logout',
    summary: 'End the NIA session here and at NIA, then the home page (a browser navigation)',
    query: z.object({ lang: z.enum(['cs', 'en']).optional() }),
    answers: { 302: "redirect to NIA's end_session_endpoint, or to the home page" },
  },
  {
    method: 'get',
    path: '/sso-jwks',
    summary: "The portal's public keys for NIA (JWK Set: encryption keys, private_key_jwt key)",
    mediaType: 'application/jwk-set+json',
    answers: { 200: z.object({ keys: z.array(z.record(z.string(), z.unknown())) }) },
  },
  {
    method: 'get',
    path: '/altcha-challenge',
    summary: 'A fresh ALTCHA proof-of-work challenge (bot check provider altcha)',
    answers: { 200: altchaChallengeSchema },
    errors: [BOT_CHECK_CODES.provider],
  },
];
