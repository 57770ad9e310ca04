import { z } from 'zod';
import {
  BOT_CHECK_CODES,
  COMMON_ERROR_CODES,
  INTAKE_ERROR_CODES,
  PDF_ERROR_CODES,
  SEARCH_ERROR_CODES,
  SSO_ERROR_CODES,
  STATUS_ERROR_CODES,
  SUBMIT_ERROR_CODES,
} from './codes.js';

const values = <T extends Record<string, string>>(o: T) => Object.values(o) as Array<T[keyof T]>;
const unique = <T>(codes: T[]): T[] => [...new Set(codes)];

/** Every code, once. */
export const API_ERROR_CODES = unique([
  ...COMMON_ERROR_CODES,
  ...values(SEARCH_ERROR_CODES),
  ...values(BOT_CHECK_CODES),
  ...values(SUBMIT_ERROR_CODES),
  ...values(PDF_ERROR_CODES),
  ...values(SSO_ERROR_CODES),
  ...values(STATUS_ERROR_CODES),
  ...INTAKE_ERROR_CODES,
]);
export type ApiErrorCode = (typeof API_ERROR_CODES)[number];

/** A refused field: its path ('abroad_stay.0.state') and the spec's message key. */
export const fieldErrorSchema = /* @__PURE__ */ z.object({ path: z.string(), message: z.string() });
export type FieldError = z.infer<typeof fieldErrorSchema>;

/** The one shape of every error answer (docs/errors.md). */
export const apiErrorBodySchema = /* @__PURE__ */ z.object({
  error: z.object({
    code: z.enum(API_ERROR_CODES as [ApiErrorCode, ...ApiErrorCode[]]),
    message: z.string(),
    fields: z.array(fieldErrorSchema).optional(),
  }),
});
export type ApiErrorBody = z.infer<typeof apiErrorBodySchema>;
