import { type SearchAnswer, SSO_ERROR_CODES, type SsoSessionAnswer } from '@ros/domain';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { AppContext, ServerContext } from '../context.js';
import { ApiError } from '../errors.js';
import { clearSessionCookie, ensureCookies, sessionCookie, setSessionCookie } from '../http/cookies.js';
import { SignInError } from '../nia/client.js';
import {
  activate,
  createPending,
  endSession,
  FROM_PAGES,
  type FromPage,
  findActive,
  findPending,
  type NiaIdentity,
  PENDING_MINUTES,
} from '../nia/sessions.js';
import { formTarget } from '../nia/settings.js';
import { niaTestProviderRoutes } from '../nia/testProvider.js';
import { getPerson, recordOf } from '../register/persons.js';
import { issueMatchToken } from '../requests/matchToken.js';

export const SSO_CODES = SSO_ERROR_CODES;

/** The register's view of a signed-in person, looked up by NIA's PersonIdentifier. */
export async function sessionAnswer(ctx: AppContext, identity: NiaIdentity): Promise<SsoSessionAnswer> {
  const nia = {
    complete: identity.complete,
    first_name: identity.first_name,
    last_name: identity.last_name,
    birth_date: identity.birth_date,
  };
  const row = await ctx.db.kysely
    .selectFrom('persons')
    .select('id')
    .where('nia_identifier', '=', identity.person_identifier)
    .executeTakeFirst();
  const person = row ? await getPerson(ctx.db, Number(row.id)) : undefined;
  if (!person) return { nia, szr: null, record: null, aifo: null, databox: null };
  const record = (await recordOf(ctx.db, person.id)) ?? null;
  // The same shape as POST /api/ros/search answers (register/persons.ts), with its match token
  // (requests/matchToken.ts): a retry after the session ended still proves the person.
  const match = await issueMatchToken(ctx.db, person.id);
  const szr: SearchAnswer = record ? { ...person.person, record, match } : { ...person.person, match };
  const box = person.person.dat_schranka;
  return {
    nia,
    szr,
    record,
    aifo: person.aifo,
    databox: typeof box === 'string' && box.trim() !== '' ? box.trim() : null,
  };
}

const isFrom = (s: unknown): s is FromPage =>
  typeof s === 'string' && (FROM_PAGES as readonly string[]).includes(s);

/**
 * NIA sign-in (spec section 7, PRODUCT.md "NIA sign-in", docs/nia.md):
 * - GET /api/ros/sso-redirect?from=… starts the authorization code flow;
 * - GET /api/ros/sso-callback finishes it and returns the browser to its form with eid=nia
 *   (or sso=failed);
 * - GET /api/ros/sso-session answers the signed-in identity and what the register holds.
 */
export const ssoRoutes: FastifyPluginAsync<ServerContext> = async (app, ctx) => {
  await ensureCookies(app);
  // Per request: in development the address the browser used (nia/publicUrl.ts).
  const forRequest = (req: FastifyRequest) => {
    const nia = ctx.services.nia.forHost(req.headers.host);
    return { config: nia.config, nia };
  };
  // Starting a sign-in writes a row: limited per client address like the search.
  const limited = {
    config: { rateLimit: { max: Math.max(30, ctx.config.rateLimitSearchPerMinute), timeWindow: '1 minute' } },
  };

  app.get<{ Querystring: { from?: unknown } }>('/sso-redirect', limited, async (req, reply) => {
    reply.header('Cache-Control', 'no-store');
    const { config, nia } = forRequest(req);
    const from = req.query.from;
    if (!isFrom(from)) {
      throw new ApiError(400, SSO_CODES.invalidRequest, `from must be one of: ${FROM_PAGES.join(', ')}`);
    }
    // A new sign-in replaces whatever this browser had.
    await endSession(ctx.db, sessionCookie(req));
    let start: Awaited<ReturnType<typeof nia.client.start>>;
    try {
      start = await nia.client.start();
    } catch (err) {
      const reason = err instanceof SignInError ? err.reason : 'start_failed';
      req.log.warn({ nia: { reason } }, 'NIA sign-in could not start');
      clearSessionCookie(reply, config.publicUrl);
      return reply.redirect(formTarget(config, from, false), 302);
    }
    const id = await createPending(ctx.db, from, start.flow);
    setSessionCookie(reply, id, config.publicUrl, PENDING_MINUTES * 60);
    return reply.redirect(start.url, 302);
  });

  app.get('/sso-callback', limited, async (req, reply) => {
    reply.header('Cache-Control', 'no-store');
    const { config, nia } = forRequest(req);
    const cookie = sessionCookie(req);
    const pending = await findPending(ctx.db, cookie);
    const q = req.url.indexOf('?');
    const query = q === -1 ? '' : req.url.slice(q);
    const fail = async (from: FromPage, reason: string) => {
      req.log.warn({ nia: { reason } }, 'NIA sign-in failed');
      await endSession(ctx.db, cookie);
      clearSessionCookie(reply, config.publicUrl);
      return reply.redirect(formTarget(config, from, false), 302);
    };
    if (!pending) return fail('form', 'no_pending_sign_in');
    let identity: NiaIdentity;
    try {
      identity = await nia.client.finish(query, pending.flow);
    } catch (err) {
      return fail(pending.from, err instanceof SignInError ? err.reason : 'callback_failed');
    }
    const id = await activate(ctx.db, cookie, pending.from, identity, config.sessionMinutes);
    setSessionCookie(reply, id, config.publicUrl, config.sessionMinutes * 60);
    req.log.info({ nia: { complete: identity.complete } }, 'NIA sign-in succeeded');
    return reply.redirect(formTarget(config, pending.from, true), 302);
  });

  app.get('/sso-session', async (req, reply) => {
    reply.header('Cache-Control', 'no-store');
    const identity = await findActive(ctx.db, sessionCookie(req));
    if (!identity) throw new ApiError(401, SSO_CODES.noSession, 'No NIA sign-in session');
    return sessionAnswer(ctx, identity);
  });
};

/** The local NIA-like provider under /nia-test (404 there when switched off). Register at the root. */
export const niaTestProvider: FastifyPluginAsync<ServerContext> = async (app, ctx) => {
  await app.register(
    niaTestProviderRoutes((req) => ctx.services.nia.forHost(req.headers.host).testProvider()),
    ctx,
  );
};
