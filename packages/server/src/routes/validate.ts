import { issuesToProblems, VALIDATE_BODY_LIMITS, type ValidateAnswer } from '@ros/domain';
import type { FastifyPluginAsync } from 'fastify';
import { ApiError } from '../errors.js';
import { ensureCookies, sessionCookie } from '../http/cookies.js';
import { findActive } from '../nia/sessions.js';
import { useBoundedJson } from '../requests/jsonBody.js';
import { requestRules, validateBodySchema, validateRequest } from '../requests/validate.js';
import type { ServerContext } from '../services.js';

/**
 * POST /api/ros/validate (spec section 7; docs/requirements.md, product decisions, "Validate"):
 * `{ okDate, okDuplications }` for the confirmation dialog. No bot check (the spec sends none), but
 * the answer says whether a person holds a certificate, so the route is rate-limited like the
 * search, and the register person is the one the body's `match` token (or the NIA sign-in) proves,
 * never one looked up by the identifiers the body carries (requests/person.ts). The body's shape is
 * checked before it is parsed (requests/jsonBody.ts).
 */
export const validateRoutes: FastifyPluginAsync<ServerContext> = async (app, ctx) => {
  const rules = requestRules(ctx.config);
  await ensureCookies(app);
  useBoundedJson(app, VALIDATE_BODY_LIMITS);
  app.post(
    '/validate',
    {
      bodyLimit: VALIDATE_BODY_LIMITS.maxBytes,
      config: { rateLimit: { max: ctx.config.rateLimitSearchPerMinute, timeWindow: '1 minute' } },
    },
    async (req, reply): Promise<ValidateAnswer> => {
      const parsed = validateBodySchema.safeParse(req.body);
      if (!parsed.success) {
        const fields = issuesToProblems(parsed.error.issues, { messageKeys: true });
        throw new ApiError(400, 'INVALID_REQUEST', 'The request body is not valid', fields);
      }
      reply.header('Cache-Control', 'no-store');
      const nia = await findActive(ctx.db, sessionCookie(req));
      return validateRequest(ctx.db, parsed.data, rules, { nia });
    },
  );
};
