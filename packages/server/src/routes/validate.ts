import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../context.js';
import { ApiError } from '../errors.js';
import { requestRules, validateBodySchema, validateRequest } from '../requests/validate.js';

/**
 * POST /api/ros/validate (spec section 7, PRODUCT.md "Validate"): `{ okDate, okDuplications }`
 * for the confirmation dialog. No bot check (the spec sends none), but the answer says whether
 * a person holds a certificate, so the route is rate-limited like the search.
 */
export const validateRoutes: FastifyPluginAsync<AppContext> = async (app, ctx) => {
  const rules = requestRules(ctx.config);
  app.post(
    '/validate',
    {
      bodyLimit: 16 * 1024,
      config: { rateLimit: { max: ctx.config.rateLimitSearchPerMinute, timeWindow: '1 minute' } },
    },
    async (req, reply) => {
      const parsed = validateBodySchema.safeParse(req.body);
      if (!parsed.success) {
        const fields = parsed.error.issues.slice(0, 20).map((i) => ({
          path: i.path.map(String).join('.') || (i.code === 'unrecognized_keys' ? i.keys.join(',') : ''),
          message:
            i.code === 'unrecognized_keys' ? 'unrecognized' : i.input === undefined ? 'required' : 'pattern',
        }));
        throw new ApiError(400, 'INVALID_REQUEST', 'The request body is not valid', fields);
      }
      reply.header('Cache-Control', 'no-store');
      return validateRequest(ctx.db, parsed.data, rules);
    },
  );
};
