import {
  type ApiCall,
  CORRECTION_STATUSES,
  parseIsoInstant,
  REQUEST_STATUSES,
  type RequestStatus,
  STATEMENT_KEYS,
  STATUS_NOTE_MAX_LENGTH,
} from '@ros/domain';
import { z } from 'zod';
import { personRowSchema } from '../register/import.js';
import { decodeCursor, MAX_PAGE } from './paging.js';
import type { Scope } from './tokens.js';

/**
 * The intake API's shapes (docs/intake.md) as zod schemas: server-only, so they live here, and
 * the OpenAPI document (openapi.ts) is generated from them. The routes (routes/intake.ts) type
 * their answers with the inferred types.
 */

/** The statuses the intake API speaks: those of @ros/domain requestStatus.ts (with their transitions). */
export { REQUEST_STATUSES, type RequestStatus };

/** One request in a list: no personal data. */
export const requestSummarySchema = z.object({
  reference: z.string(),
  status: z.enum(REQUEST_STATUSES),
  channel: z.enum(['pdf', 'nia']),
  language: z.enum(['cs', 'en']),
  duplicate: z.boolean(),
  created_at: z.string(),
  received_at: z.string().nullable(),
});

/**
 * What the applicant agreed to (issue 22): the version of the legal texts and each of the dialog's
 * five boxes, in its order, with its sentence in the request's language and whether it was ticked.
 */
export const agreedTextsSchema = z.object({
  version: z.string(),
  statements: z.array(
    z.object({
      key: z.enum(STATEMENT_KEYS),
      text: z.string(),
      ticked: z.boolean(),
    }),
  ),
});

/** One status change (docs/status.md): the new status, when, the note to the applicant, the certificate's validity id. */
export const historyEntrySchema = z.object({
  status: z.enum(REQUEST_STATUSES),
  at: z.string(),
  note: z.string().nullable(),
  certificate: z.string().nullable(),
  /** true: this change corrects a decision (POST …/correction); its note is the reason. */
  correction: z.boolean(),
});

/**
 * The detail: the summary, every form value under the spec's field names (docs/form.md), what
 * was agreed, and every status change since submission, oldest first.
 */
export const requestDetailSchema = requestSummarySchema.extend({
  values: z.record(z.string(), z.unknown()),
  legal: agreedTextsSchema,
  history: z.array(historyEntrySchema),
});

/** POST requests/{reference}/status's body (intake/status.ts checks it field by field). */
export const statusChangeBodySchema = z
  .object({
    status: z.enum(REQUEST_STATUSES.filter((s) => s !== 'new') as [RequestStatus, ...RequestStatus[]]),
    note: z.string().max(STATUS_NOTE_MAX_LENGTH).nullable().optional(),
    certificate: z.string().nullable().optional(),
  })
  .strict();

/** Its answer: the summary after the change, and whether it changed anything. */
export const statusChangeAnswerSchema = requestSummarySchema.extend({
  changed: z.boolean(),
  notifications: z.number(),
});

/**
 * POST requests/{reference}/correction's body (intake/correction.ts checks it field by field):
 * the corrected outcome, the reason for the applicant, and with `issued` the right certificate.
 */
export const correctionBodySchema = z
  .object({
    status: z.enum(CORRECTION_STATUSES as [RequestStatus, ...RequestStatus[]]),
    reason: z.string().min(1).max(STATUS_NOTE_MAX_LENGTH),
    certificate: z.string().nullable().optional(),
  })
  .strict();

/** Its answer: the summary after the correction, whether it changed anything, the notifications queued. */
export const correctionAnswerSchema = statusChangeAnswerSchema;
export type CorrectionAnswer = z.infer<typeof correctionAnswerSchema>;

/** A query parameter given twice (`?status=new&status=received`) arrives as a list. */
export const GIVEN_ONCE = 'must be given once';
const LIMIT_MESSAGE = `must be 1 to ${MAX_PAGE}`;
/** A parameter's text, parsed by `parse`: its value, or the issue `message` when it gives null. */
const parsedText = <T>(parse: (text: string) => T | null, message: string) =>
  z.string({ error: GIVEN_ONCE }).transform((text, ctx): T => {
    const value = parse(text);
    if (value === null) {
      ctx.addIssue({ code: 'custom', message });
      return z.NEVER;
    }
    return value;
  });

/**
 * GET requests' query, which routes/intake.ts parses with it: every parameter at most once, no
 * other parameter (each problem is a field of the 400 INVALID_REQUEST answer, its message the
 * issue's). The page size defaults to DEFAULT_PAGE (intake/paging.ts).
 */
export const requestListQuerySchema = z
  .object({
    status: z
      .enum(REQUEST_STATUSES, {
        error: (issue) =>
          typeof issue.input === 'string' ? `must be one of ${REQUEST_STATUSES.join(', ')}` : GIVEN_ONCE,
      })
      .optional(),
    // A day or time that exists (domain dates.ts): 2026-02-30 is refused, not rolled over.
    since: parsedText(parseIsoInstant, 'must be an ISO date or time').optional(),
    cursor: parsedText(decodeCursor, 'is not a cursor this API gave').optional(),
    limit: z
      .string({ error: GIVEN_ONCE })
      .regex(/^[0-9]{1,3}$/, LIMIT_MESSAGE)
      .transform(Number)
      .pipe(z.number().min(1, LIMIT_MESSAGE).max(MAX_PAGE, LIMIT_MESSAGE))
      .optional(),
  })
  .strict();

export const requestPageSchema = z.object({
  items: z.array(requestSummarySchema),
  next_cursor: z.string().nullable(),
});

const category = z.object({ valid_until: z.string() }).nullable();

/** PUT records/{id}: the certificate as stored. */
export const recordAnswerSchema = z.object({
  id: z.number(),
  /** id: null for a certificate of no register person. */
  person: z.object({ id: z.number().nullable(), first_name: z.string(), last_name: z.string() }),
  stav: z.string(),
  platnost_do: z.string(),
  a1a3: category,
  a2: category,
  revoked_at: z.string().nullable(),
});
export type RecordAnswer = z.infer<typeof recordAnswerSchema>;

/**
 * PUT records/{id}'s body (intake/register.ts checks it field by field and refuses any other
 * key, so the description is strict too).
 */
export const recordBodySchema = z
  .object({
    person: z.object({ first_name: z.string(), last_name: z.string(), id: z.number().optional() }).strict(),
    stav: z.enum(['Ano', 'Ne']),
    platnost_do: z.string(),
    a1a3: category.optional(),
    a2: category.optional(),
  })
  .strict();

export const personAnswerSchema = z.object({ id: z.number(), created: z.boolean() });
export type PersonAnswer = z.infer<typeof personAnswerSchema>;

const reference = 'The reference number (ROS-…)';

/** Where the intake API is served (app.ts); the calls' paths are under it. */
export const INTAKE_API_BASE = '/api/intake/v1';

/** An intake call: authenticated by a bearer token that holds these scopes (intake/tokens.ts). */
export interface IntakeCall extends ApiCall {
  scopes: Scope[];
}

/** An entry as written, its method and path kept as literal types (for IntakeCallKey). */
const call = <M extends IntakeCall['method'], P extends string>(entry: IntakeCall & { method: M; path: P }) =>
  entry;

/**
 * Every call of the intake API, under INTAKE_API_BASE: written once here. The OpenAPI document
 * (openapi.ts) describes these, routes/intake.ts registers each one with its method, path and
 * scopes from its entry (a handler for every call and no other, checked by the compiler and at
 * start-up) and the intake tests go through the list.
 */
export const INTAKE_API_CALLS = [
  call({
    method: 'get',
    path: '/requests',
    summary: 'Requests whose personal data is still held, oldest first',
    scopes: ['requests:read'],
    query: requestListQuerySchema,
    answers: { 200: requestPageSchema },
    errors: ['UNAUTHORIZED', 'FORBIDDEN'],
  }),
  call({
    method: 'get',
    path: '/requests/{reference}',
    summary: `One request with its values. ${reference}`,
    scopes: ['requests:read'],
    answers: { 200: requestDetailSchema },
    errors: ['UNAUTHORIZED', 'FORBIDDEN', 'REQUEST_NOT_FOUND', 'REQUEST_ERASED'],
  }),
  call({
    method: 'get',
    path: '/requests/{reference}/pdf',
    summary: 'The request as a PDF',
    scopes: ['requests:read'],
    answers: { 200: 'application/pdf' },
    errors: ['UNAUTHORIZED', 'FORBIDDEN', 'REQUEST_NOT_FOUND', 'REQUEST_ERASED', 'PDF_BUSY'],
  }),
  call({
    method: 'post',
    path: '/requests/{reference}/received',
    summary: 'Mark a request received',
    scopes: ['requests:receive'],
    answers: { 200: requestSummarySchema },
    errors: ['UNAUTHORIZED', 'FORBIDDEN', 'REQUEST_NOT_FOUND'],
  }),
  call({
    method: 'post',
    path: '/requests/{reference}/status',
    summary:
      'Move a request on (in_progress, documents_needed, issued, refused, withdrawn); a decided request stays decided',
    scopes: ['requests:status'],
    body: statusChangeBodySchema,
    answers: { 200: statusChangeAnswerSchema },
    errors: [
      'UNAUTHORIZED',
      'FORBIDDEN',
      'REQUEST_NOT_FOUND',
      'STATUS_TRANSITION',
      'REQUEST_ERASED',
      'CERTIFICATE_MISMATCH',
    ],
  }),
  call({
    method: 'post',
    path: '/requests/{reference}/correction',
    summary:
      'Correct a decided request (issued, refused, withdrawn): a new history row with the reason; also issued again with the right certificate',
    scopes: ['requests:status'],
    body: correctionBodySchema,
    answers: { 200: correctionAnswerSchema },
    errors: [
      'UNAUTHORIZED',
      'FORBIDDEN',
      'REQUEST_NOT_FOUND',
      'NOT_DECIDED',
      'STATUS_TRANSITION',
      'REQUEST_ERASED',
      'CERTIFICATE_MISMATCH',
    ],
  }),
  call({
    method: 'put',
    path: '/records/{id}',
    summary: 'Create or replace a certificate; stav Ne revokes it',
    scopes: ['records:write'],
    body: recordBodySchema,
    answers: { 200: recordAnswerSchema, 201: recordAnswerSchema },
    errors: ['UNAUTHORIZED', 'FORBIDDEN'],
  }),
  call({
    method: 'put',
    path: '/persons/{id}',
    summary: 'Create or replace a register person',
    scopes: ['persons:write'],
    // The server's own check of a person (the persons file's row, strict): what it accepts.
    body: personRowSchema,
    answers: { 200: personAnswerSchema, 201: personAnswerSchema },
    errors: ['UNAUTHORIZED', 'FORBIDDEN', 'NIA_IDENTIFIER_TAKEN'],
  }),
  call({
    method: 'delete',
    path: '/persons/{id}',
    summary: 'Delete a register person',
    scopes: ['persons:write'],
    answers: { 204: 'deleted' },
    errors: ['UNAUTHORIZED', 'FORBIDDEN', 'PERSON_NOT_FOUND'],
  }),
];

/** A call's key: its method and path as the contract writes them, e.g. `'get /requests/{reference}'`. */
export type IntakeCallKey = KeyOf<(typeof INTAKE_API_CALLS)[number]>;
type KeyOf<C> = C extends { method: infer M extends string; path: infer P extends string }
  ? `${M} ${P}`
  : never;
export const intakeCallKey = (c: IntakeCall): string => `${c.method} ${c.path}`;

export type StatusChangeAnswer = z.infer<typeof statusChangeAnswerSchema>;
