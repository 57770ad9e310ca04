import { z } from 'zod';
import { PERSON_IDENTITY_FIELDS, type PersonIdentityField } from './applicant.js';
import { type BodyLimits, flatBodyLimits, MATCH_TOKEN_MAX_LENGTH } from './bounds.js';
import { maxLengthFor } from './fields.js';
import { textPolicyIssue } from './text.js';

/**
 * The body of POST /api/ros/validate (spec section 3, Payloads), plus `match`, the token of the
 * search answer (search.ts). Unknown keys are refused. Each text is bounded and follows the text
 * policy; the answer's rules themselves are the server's (docs/requirements.md, product decisions,
 * "Validate").
 */

/**
 * Each text of the body is a form field's value: the person's identity (PERSON_IDENTITY_FIELDS,
 * applicant.ts) and the birth municipality (`municipality`), so it has that field's maximum
 * length from the catalogue (fields.ts): the body accepts what the form accepts, and no more.
 */
const FIELDS = [
  ...PERSON_IDENTITY_FIELDS.map((name) => [name, maxLengthFor(name)] as const),
  ['municipality', maxLengthFor('birth_municipality')] as const,
];
const max = /* @__PURE__ */ Object.fromEntries(FIELDS) as Record<(typeof FIELDS)[number][0], number>;

const str = (max: number) =>
  z
    .string()
    .max(max, { abort: true })
    .check((c) => {
      const issue = textPolicyIssue(c.value);
      if (issue) c.issues.push({ code: 'custom', message: issue.key, params: issue.params, input: c.value });
    });

/** Each identity field (PERSON_IDENTITY_FIELDS) as a bounded text of the policy. */
const identity = /* @__PURE__ */ Object.fromEntries(
  PERSON_IDENTITY_FIELDS.map((name) => [name, str(max[name])]),
) as {
  [K in PersonIdentityField]: ReturnType<typeof str>;
};

export const validateBodySchema = /* @__PURE__ */ z
  .object({
    ...identity,
    // The NIA person's identifier comes only after a sign-in (null or absent without one).
    aifo: identity.aifo.nullable().optional(),
    municipality: str(max.municipality).optional(),
    duplicate: z.boolean(),
    match: z.string().max(MATCH_TOKEN_MAX_LENGTH).optional(),
  })
  .strict();
export type ValidateBody = z.output<typeof validateBodySchema>;

/** Size limits of the validate body (bounds.ts). */
export const VALIDATE_BODY_LIMITS: BodyLimits = /* @__PURE__ */ flatBodyLimits([
  ...FIELDS,
  ['duplicate', 5],
  ['match', MATCH_TOKEN_MAX_LENGTH],
]);
