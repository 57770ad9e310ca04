import {
  prefillFromRegister,
  type SearchAnswer,
  SSO_ERROR_CODES,
  type SsoSessionAnswer,
  type SsoSessionTime,
} from '@ros/domain';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import { ApiError } from '../errors.js';
import { clearSessionCookie, ensureCookies, sessionCookie, setSessionCookie } from '../http/cookies.js';
import { SignInError } from '../nia/client.js';
import {
  activate,
  awaitFinished,
  claimPending,
  createPending,
  endSession,
  FROM_PAGES,
  type FromPage,
  findActive,
  findActiveSession,
  findSignIn,
  type NiaIdentity,
  PENDING_MINUTES,
} from '../nia/sessions.js';
import { sessionTime } from '../nia/sessionTime.js';
import { formTarget } from '../nia/settings.js';
import { niaTestProviderRoutes } from '../nia/testProvider.js';
import { getPerson, recordOf } from '../register/persons.js';
import { issueMatchToken } from '../requests/matchToken.js';
import type { ServerContext } from '../services.js';

export const SSO_CODES = SSO_ERROR_CODES;

/** The register's view of a signed-in person, looked up by NIA's PersonIdentifier. */
export async function sessionAnswer(
  ctx: AppContext,
  identity: NiaIdentity,
): Promise<Omit<SsoSessionAnswer, keyof SsoSessionTime>> {
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
  // The data mailbox the form will show read-only: the prefill's, so a register value that fails
  // its rule is not offered (the form could neither show nor correct it: issue 34, item 5).
  const databox = prefillFromRegister(person.person, { duplicate: false }).values.data_mailbox ?? null;
  return { nia, szr, record, aifo: person.aifo, databox };
}

/**
 * Whether a navigation to sso-redirect or sso-logout comes from the portal's own pages (Fetch
 * Metadata, docs/nia.md "A link cannot end a session"): `Sec-Fetch-Site: same-origin`. A browser
 * that sends no Sec-Fetch-Site (older than 2023) is let through, as the W3C Fetch Metadata
 * guidance advises; `cross-site`, `same-site` (another host of the domain) and `none` (a typed
 * address, a bookmark, a link from a mail program) are not the portal.
 */
export const fromPortal = (req: FastifyRequest): boolean => {
  const site = req.headers['sec-fetch-site'];
  return site === undefined || site === 'same-origin';
};

const isFrom = (s: unknown): s is FromPage =>
  typeof s === 'string' && (FROM_PAGES as readonly string[]).includes(s);

/**
 * NIA sign-in (spec section 7; docs/requirements.md, product decisions, "NIA sign-in"; docs/nia.md):
 * - GET /api/ros/sso-redirect?from=… starts the authorization code flow;
 * - GET /api/ros/sso-callback finishes it and returns the browser to its form with eid=nia
 *   (or sso=failed);
 * - GET /api/ros/sso-session answers the signed-in identity and what the register holds;
 * - GET /api/ros/sso-logout ends the session here and at NIA;
 * - GET /api/ros/sso-jwks publishes the portal's public keys for NIA.
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
    // A link from elsewhere never ends an active session: the signed-in person goes back to
    // their form, still signed in. From the portal's own pages a new sign-in replaces it.
    if (!fromPortal(req)) {
      const active = await findActiveSession(ctx.db, sessionCookie(req));
      if (active) {
        req.log.info({ nia: { reason: 'not_from_portal' } }, 'NIA sign-in not restarted');
        return reply.redirect(formTarget(config, active.from, true), 302);
      }
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
    const signIn = await findSignIn(ctx.db, cookie);
    const q = req.url.indexOf('?');
    const query = q === -1 ? '' : req.url.slice(q);
    const failed = (reason: string) => req.log.warn({ nia: { reason } }, 'NIA sign-in failed');
    if (!signIn || !cookie) {
      // A callback that belongs to no sign-in started in this browser (replayed, forged, cross-site)
      // never touches its session: a signed-in person goes back to their form, still signed in.
      failed('no_pending_sign_in');
      const active = await findActiveSession(ctx.db, cookie);
      return reply.redirect(formTarget(config, active?.from ?? 'form', !!active), 302);
    }
    if (new URLSearchParams(query).get('state') !== signIn.state) {
      // Not this sign-in's callback (a cross-site link with a made-up state): ignored, so the
      // real callback still finishes it (issue 33 item 8). Cookie and pending row stay.
      failed('state_mismatch');
      return reply.redirect(formTarget(config, signIn.from, false), 302);
    }
    if (signIn.status !== 'pending' || !(await claimPending(ctx.db, cookie))) {
      // The same callback again while (or just after) another request finishes it: the session
      // that one made, once it is there.
      const deadline = Date.now() + (3 * config.niaTimeoutSeconds + 5) * 1000;
      const id = await awaitFinished(ctx.db, cookie, deadline);
      if (!id) {
        failed('repeated_callback');
        clearSessionCookie(reply, config.publicUrl);
        return reply.redirect(formTarget(config, signIn.from, false), 302);
      }
      setSessionCookie(reply, id, config.publicUrl, config.sessionMinutes * 60);
      req.log.info('NIA sign-in callback repeated');
      return reply.redirect(formTarget(config, signIn.from, true), 302);
    }
    const { flow, from } = signIn;
    let finished: Awaited<ReturnType<typeof nia.client.finish>>;
    try {
      finished = await nia.client.finish(query, flow);
    } catch (err) {
      failed(err instanceof SignInError ? err.reason : 'callback_failed');
      await endSession(ctx.db, cookie);
      clearSessionCookie(reply, config.publicUrl);
      return reply.redirect(formTarget(config, from, false), 302);
    }
    const { identity, idToken } = finished;
    const id = await activate(ctx.db, cookie, from, identity, config.sessionMinutes, new Date(), idToken);
    setSessionCookie(reply, id, config.publicUrl, config.sessionMinutes * 60);
    req.log.info({ nia: { complete: identity.complete } }, 'NIA sign-in succeeded');
    return reply.redirect(formTarget(config, from, true), 302);
  });

  // The portal's public keys: NIA encrypts ID tokens and userinfo to the `enc` ones and checks
  // private_key_jwt client assertions with the `sig` one (docs/nia.md "Keys").
  app.get('/sso-jwks', async (_req, reply) => {
    reply.header('Cache-Control', 'public, max-age=300');
    reply.type('application/jwk-set+json');
    return (await ctx.services.nia.keys()).jwks;
  });

  // Signing out: ends this browser's session here and, when NIA advertises end_session_endpoint,
  // at NIA too (RP-initiated logout) on the way to the home page. After a submit the session is
  // already gone here: NIA is then asked with the client id alone (the web app's exit after a
  // NIA request comes this way).
  app.get<{ Querystring: { lang?: unknown } }>('/sso-logout', limited, async (req, reply) => {
    reply.header('Cache-Control', 'no-store');
    const { config, nia } = forRequest(req);
    const cookie = sessionCookie(req);
    const active = await findActiveSession(ctx.db, cookie);
    if (active && !fromPortal(req)) {
      // A link from elsewhere cannot sign anyone out either.
      req.log.info({ nia: { reason: 'not_from_portal' } }, 'NIA sign-out not done');
      return reply.redirect(formTarget(config, active.from, true), 302);
    }
    await endSession(ctx.db, cookie);
    clearSessionCookie(reply, config.publicUrl);
    const en = req.query.lang === 'en';
    const home = `${config.publicUrl}/`;
    const atNia = await nia.client.endSessionUrl(active?.idTokenHint, home, en ? 'en' : 'cs');
    return reply.redirect(atNia ?? (en ? `${home}?lang=en` : home), 302);
  });

  app.get('/sso-session', async (req, reply) => {
    reply.header('Cache-Control', 'no-store');
    const now = new Date();
    const identity = await findActive(ctx.db, sessionCookie(req), now);
    const time = identity && (await sessionTime(ctx.db, sessionCookie(req), ctx.config, now));
    if (!identity || !time) throw new ApiError(401, SSO_CODES.noSession, 'No NIA sign-in session');
    // How long it still lasts (routes/ssoExtend.ts, the expiry warning): issue 27.
    return { ...(await sessionAnswer(ctx, identity)), ...time };
  });
};

/** The local NIA-like provider under /nia-test (404 there when switched off). Register at the root. */
export const niaTestProvider: FastifyPluginAsync<ServerContext> = async (app, ctx) => {
  await app.register(
    niaTestProviderRoutes((req) => ctx.services.nia.forHost(req.headers.host).testProvider()),
    ctx,
  );
};
