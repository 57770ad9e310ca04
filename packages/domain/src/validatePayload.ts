import { z } from 'zod';
import { type BodyLimits, flatBodyLimits, MATCH_TOKEN_MAX_LENGTH } from './bounds.js';
import { DEFAULT_MAX_LENGTH } from './limits.js';
import { textPolicyError } from './text.js';

/**
 * The body of POST /api/ros/validate (spec section 3, Payloads), plus `match`, the token of the
 * search answer (search.ts). Unknown keys are refused. Each text is bounded and follows the text
 * policy; the answer's rules themselves are the server's (PRODUCT.md "Validate").
 */

const FIELDS = [
  ['first_name', DEFAULT_MAX_LENGTH],
  ['last_name', DEFAULT_MAX_LENGTH],
  ['birth_date', 40],
  ['municipality', DEFAULT_MAX_LENGTH],
  ['aifo', DEFAULT_MAX_LENGTH],
  ['document_number', DEFAULT_MAX_LENGTH],
  ['birth_number', 40],
] as const;

const str = (max: number) =>
  z
    .string()
    .max(max, { abort: true })
    .refine((v) => textPolicyError(v) === null, { error: 'invalidCharacters' });

export const validateBodySchema = z
  .object({
    first_name: str(DEFAULT_MAX_LENGTH),
    last_name: str(DEFAULT_MAX_LENGTH),
    birth_date: str(40),
    municipality: str(DEFAULT_MAX_LENGTH).optional(),
    aifo: str(DEFAULT_MAX_LENGTH).nullable().optional(),
    document_number: str(DEFAULT_MAX_LENGTH),
    birth_number: str(40),
    duplicate: z.boolean(),
    match: z.string().max(MATCH_TOKEN_MAX_LENGTH).optional(),
  })
  .strict();
export type ValidateBody = z.output<typeof validateBodySchema>;

/** Size limits of the validate body (bounds.ts). */
export const VALIDATE_BODY_LIMITS: BodyLimits = flatBodyLimits([
  ...FIELDS,
  ['duplicate', 5],
  ['match', MATCH_TOKEN_MAX_LENGTH],
]);
