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
import { ApiError } from '../errors.js';
import { type FoundPerson, findByDocument, findForRetry } from '../register/persons.js';
import { useBoundedJson } from '../requests/jsonBody.js';
import { issueMatchToken, lookUpMatch, provedBy } from '../requests/matchToken.js';
import type { ServerContext } from '../services.js';

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
 * POST /api/ros/search and POST /api/ros/search-birth-number (spec section 7; docs/requirements.md,
 * product decisions, "Search"). Both reveal whether a person exists, so both need a bot-check token
 * in the `Recaptcha` header and are rate-limited per client address. The body's shape is checked
 * before it is parsed (requests/jsonBody.ts), then its fields (a bad body does not use up the
 * token; both are cheap), then the token, and only then is the register searched. A found
 * person's answer carries `match`, the proof for the birth-number retry, validate and submit
 * that this search found this person (requests/matchToken.ts). The retry finds only that same
 * person (findForRetry, issue 21); every miss gets one answer.
 */
export const searchRoutes: FastifyPluginAsync<ServerContext> = async (app, ctx) => {
  const { botCheck } = ctx.services;
  const config = { rateLimit: { max: ctx.config.rateLimitSearchPerMinute, timeWindow: '1 minute' } };
  // One answer for every miss, whatever the reason (issue 21: a mismatch answers as "not found").
  const notFound = () => new ApiError(404, SEARCH_ERROR_CODES.notFound, 'No person matches');
  const found = async (person: FoundPerson): Promise<SearchAnswer> => ({
    ...person.answer,
    match: await issueMatchToken(ctx.db, person.id),
  });

  // Each route in a scope of its own: its own body limits.
  const route = (path: string, limits: BodyLimits, handler: RouteHandlerMethod) =>
    app.register(async (scope) => {
      useBoundedJson(scope, limits);
      // Every answer, found or not, carries the same headers (no-store: personal data).
      scope.addHook('onRequest', async (_req, reply) => {
        reply.header('Cache-Control', 'no-store');
      });
      scope.post(path, { bodyLimit: limits.maxBytes, config }, handler);
    });

  await route('/search', SEARCH_BODY_LIMITS, async (req) => {
    const q = parseBody(searchByDocumentSchema(), req);
    await botCheck.verify(recaptchaHeader(req), 'SearchAction', bareHostname(req.host));
    const person = await findByDocument(ctx.db, q);
    if (!person) throw notFound();
    return found(person);
  });

  await route('/search-birth-number', BIRTH_NUMBER_SEARCH_BODY_LIMITS, async (req) => {
    const q = parseBody(searchByBirthNumberSchema(), req);
    await botCheck.verify(recaptchaHeader(req), 'SearchAction', bareHostname(req.host));
    // The token is looked up whatever the body holds (one query), so that no path is quicker.
    const matched = provedBy(await lookUpMatch(ctx.db, q.match));
    const person = await findForRetry(ctx.db, {
      ...q,
      match: q.match !== undefined,
      matchedPersonId: matched,
    });
    if (!person) throw notFound();
    return found(person);
  });
};
