import { SEARCH_ERROR_CODES, searchByBirthNumberSchema, searchByDocumentSchema } from '@ros/domain';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { type BotCheck, bareHostname, botCheckFor } from '../botcheck/index.js';
import type { AppContext } from '../context.js';
import { ApiError } from '../errors.js';
import { findByBirthNumber, findByDocument } from '../register/persons.js';

/** A search body is a few short fields: anything near this is not a search. */
const SEARCH_BODY_LIMIT = 16 * 1024;

/** A zod failure as the API's 400: code INVALID_REQUEST and the failing fields with their message keys. */
export function invalidRequest(error: z.ZodError): ApiError {
  const fields = error.issues.slice(0, 20).map((i) => ({
    path: i.path.map(String).join('.') || (i.code === 'unrecognized_keys' ? i.keys.join(',') : ''),
    message: i.code === 'unrecognized_keys' ? 'unrecognized' : i.message,
  }));
  return new ApiError(400, 'INVALID_REQUEST', 'The request body is not valid', fields);
}

function parseBody<T extends z.ZodType>(schema: T, req: FastifyRequest): z.output<T> {
  const parsed = schema.safeParse(req.body);
  if (!parsed.success) throw invalidRequest(parsed.error);
  return parsed.data;
}

function recaptchaHeader(req: FastifyRequest): string | undefined {
  const h = req.headers.recaptcha;
  return Array.isArray(h) ? h[0] : h;
}

/**
 * POST /api/ros/search and POST /api/ros/search-birth-number (spec section 7, PRODUCT.md
 * "Search"). Both reveal whether a person exists, so both need a bot-check token in the
 * `Recaptcha` header and are rate-limited per client address. The body is checked first (a
 * bad body does not use up the token), then the token, then the register is searched.
 */
export const searchRoutes: FastifyPluginAsync<AppContext> = async (app, ctx) => {
  const botCheck: BotCheck = botCheckFor(ctx);
  const routeConfig = {
    bodyLimit: SEARCH_BODY_LIMIT,
    config: { rateLimit: { max: ctx.config.rateLimitSearchPerMinute, timeWindow: '1 minute' } },
  };

  app.post('/search', routeConfig, async (req, reply) => {
    const q = parseBody(searchByDocumentSchema, req);
    await botCheck.verify(recaptchaHeader(req), 'SearchAction', bareHostname(req.host));
    const person = await findByDocument(ctx.db, q);
    if (!person) throw new ApiError(404, SEARCH_ERROR_CODES.notFound, 'No person matches the document');
    reply.header('Cache-Control', 'no-store');
    return person;
  });

  app.post('/search-birth-number', routeConfig, async (req, reply) => {
    const q = parseBody(searchByBirthNumberSchema, req);
    await botCheck.verify(recaptchaHeader(req), 'SearchAction', bareHostname(req.host));
    const person = await findByBirthNumber(ctx.db, q.birth_number);
    if (!person) throw new ApiError(404, SEARCH_ERROR_CODES.notFound, 'No person has this birth number');
    reply.header('Cache-Control', 'no-store');
    return person;
  });
};
