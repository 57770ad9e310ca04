import {
  BIRTH_NUMBER_SEARCH_BODY_LIMITS,
  type BodyLimits,
  issuesToProblems,
  SEARCH_BODY_LIMITS,
  SEARCH_ERROR_CODES,
  type SearchAnswer,
  searchByBirthNumberSchema,
  searchByDocumentSchema,
} from '@ros/domain';
import type { FastifyPluginAsync, FastifyRequest, RouteHandlerMethod } from 'fastify';
import type { z } from 'zod';
import { bareHostname } from '../botcheck/index.js';
import type { ServerContext } from '../context.js';
import { ApiError } from '../errors.js';
import { type FoundPerson, findByBirthNumber, findByDocument } from '../register/persons.js';
import { useBoundedJson } from '../requests/jsonBody.js';
import { issueMatchToken } from '../requests/matchToken.js';

/** A zod failure as the API's 400: code INVALID_REQUEST and the failing fields with their message keys. */
export function invalidRequest(error: z.ZodError): ApiError {
  return new ApiError(
    400,
    'INVALID_REQUEST',
    'The request body is not valid',
    issuesToProblems(error.issues),
  );
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
 * `Recaptcha` header and are rate-limited per client address. The body's shape is checked
 * before it is parsed (requests/jsonBody.ts), then its fields (a bad body does not use up the
 * token; both are cheap), then the token, and only then is the register searched. A found
 * person's answer carries `match`, the proof for validate and submit that this search found
 * this person (requests/matchToken.ts).
 */
export const searchRoutes: FastifyPluginAsync<ServerContext> = async (app, ctx) => {
  const { botCheck } = ctx.services;
  const config = { rateLimit: { max: ctx.config.rateLimitSearchPerMinute, timeWindow: '1 minute' } };
  const found = async (person: FoundPerson): Promise<SearchAnswer> => ({
    ...person.answer,
    match: await issueMatchToken(ctx.db, person.id),
  });

  // Each route in a scope of its own: its own body limits.
  const route = (path: string, limits: BodyLimits, handler: RouteHandlerMethod) =>
    app.register(async (scope) => {
      useBoundedJson(scope, limits);
      scope.post(path, { bodyLimit: limits.maxBytes, config }, handler);
    });

  await route('/search', SEARCH_BODY_LIMITS, async (req, reply) => {
    const q = parseBody(searchByDocumentSchema, req);
    await botCheck.verify(recaptchaHeader(req), 'SearchAction', bareHostname(req.host));
    const person = await findByDocument(ctx.db, q);
    if (!person) throw new ApiError(404, SEARCH_ERROR_CODES.notFound, 'No person matches the document');
    reply.header('Cache-Control', 'no-store');
    return found(person);
  });

  await route('/search-birth-number', BIRTH_NUMBER_SEARCH_BODY_LIMITS, async (req, reply) => {
    const q = parseBody(searchByBirthNumberSchema, req);
    await botCheck.verify(recaptchaHeader(req), 'SearchAction', bareHostname(req.host));
    const person = await findByBirthNumber(ctx.db, q.birth_number);
    if (!person) throw new ApiError(404, SEARCH_ERROR_CODES.notFound, 'No person has this birth number');
    reply.header('Cache-Control', 'no-store');
    return found(person);
  });
};
