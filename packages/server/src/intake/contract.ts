import { type ApiCall, registerPersonSchema } from '@ros/domain';
import { z } from 'zod';
import { REQUEST_STATUSES } from './requests.js';

/**
 * The intake API's shapes (docs/intake.md) as zod schemas: server-only, so they live here, and
 * the OpenAPI document (openapi.ts) is generated from them. The routes (routes/intake.ts) type
 * their answers with the inferred types.
 */

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

/** The detail: the summary and every form value under the spec's field names (docs/form.md). */
export const requestDetailSchema = requestSummarySchema.extend({
  values: z.record(z.string(), z.unknown()),
});

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

/** PUT records/{id}'s body (intake/register.ts checks it field by field). */
export const recordBodySchema = z.object({
  person: z.object({ first_name: z.string(), last_name: z.string(), id: z.number().optional() }),
  stav: z.enum(['Ano', 'Ne']),
  platnost_do: z.string(),
  a1a3: category.optional(),
  a2: category.optional(),
});

export const personAnswerSchema = z.object({ id: z.number(), created: z.boolean() });
export type PersonAnswer = z.infer<typeof personAnswerSchema>;

const reference = 'The reference number (ROS-…)';
const bearer = [{ name: 'Authorization', required: true, description: 'Bearer {intake token}' }];

/** Every call of the intake API, under /api/intake/v1. */
export const INTAKE_API_CALLS: ApiCall[] = [
  {
    method: 'get',
    path: '/requests',
    summary: 'Requests whose personal data is still held, oldest first (scope requests:read)',
    headers: bearer,
    query: z.object({
      status: z.enum(REQUEST_STATUSES).optional(),
      since: z.string().optional(),
      cursor: z.string().optional(),
      limit: z.string().optional(),
    }),
    answers: { 200: requestPageSchema },
    errors: ['UNAUTHORIZED', 'FORBIDDEN'],
  },
  {
    method: 'get',
    path: '/requests/{reference}',
    summary: `One request with its values (scope requests:read). ${reference}`,
    headers: bearer,
    answers: { 200: requestDetailSchema },
    errors: ['UNAUTHORIZED', 'FORBIDDEN', 'REQUEST_NOT_FOUND', 'REQUEST_ERASED'],
  },
  {
    method: 'get',
    path: '/requests/{reference}/pdf',
    summary: 'The request as a PDF (scope requests:read)',
    headers: bearer,
    answers: { 200: 'application/pdf' },
    errors: ['UNAUTHORIZED', 'FORBIDDEN', 'REQUEST_NOT_FOUND', 'REQUEST_ERASED', 'PDF_BUSY'],
  },
  {
    method: 'post',
    path: '/requests/{reference}/received',
    summary: 'Mark a request received (scope requests:receive)',
    headers: bearer,
    answers: { 200: requestSummarySchema },
    errors: ['UNAUTHORIZED', 'FORBIDDEN', 'REQUEST_NOT_FOUND'],
  },
  {
    method: 'put',
    path: '/records/{id}',
    summary: 'Create or replace a certificate; stav Ne revokes it (scope records:write)',
    headers: bearer,
    body: recordBodySchema,
    answers: { 200: recordAnswerSchema, 201: recordAnswerSchema },
    errors: ['UNAUTHORIZED', 'FORBIDDEN'],
  },
  {
    method: 'put',
    path: '/persons/{id}',
    summary: 'Create or replace a register person (scope persons:write)',
    headers: bearer,
    body: registerPersonSchema.extend({ id: z.number().optional() }).loose(),
    answers: { 200: personAnswerSchema, 201: personAnswerSchema },
    errors: ['UNAUTHORIZED', 'FORBIDDEN', 'NIA_IDENTIFIER_TAKEN'],
  },
  {
    method: 'delete',
    path: '/persons/{id}',
    summary: 'Delete a register person (scope persons:write)',
    headers: bearer,
    answers: { 204: 'deleted' },
    errors: ['UNAUTHORIZED', 'FORBIDDEN', 'PERSON_NOT_FOUND'],
  },
];
