import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { ApiErrorBody } from '../../errors.js';
import { API_SECURITY_HEADERS } from '../../http/apiHeaders.js';
import { ensureCookies } from '../../http/cookies.js';
import { audit } from '../../intake/audit.js';
import type { ServerContext } from '../../services.js';
import { CONSOLE_ABSOLUTE_HOURS } from '../config.js';
import { CONSOLE_PATH } from '../staff.js';
import { type ConsoleIdentity, SignInError } from './client.js';
import { CSRF_FIELD, csrfOk } from './csrf.js';
import { onwardPage, PAGE_HEADERS, refusedPage } from './pages.js';
import {
  CONSOLE_TEST_PROVIDER_PATH,
  PENDING_COOKIE,
  PENDING_MINUTES,
  SIGNED_OUT,
  SIGNIN_CALLBACK,
  SIGNIN_PAGE,
  SIGNIN_START,
  SIGNOUT,
  type SignInErrorCode,
  STAFF_COOKIE,
  secureCookies,
  signInFailed,
} from './paths.js';
import {
  cookieValue,
  createPending,
  createStaffSession,
  endStaffSession,
  flowOf,
  loadStaff,
  newCookieValue,
  pendingExists,
  purgeExpiredStaffSessions,
  takePending,
} from './sessions.js';
import { consoleTestProviderRoutes } from './testProviderRoutes.js';

/**
 * The console's staff sign-in (docs/console-signin.md):
 * - GET /urad/prihlaseni/zahajit: a new sign-in (its pending row and cookie), 303 to the provider;
 * - GET /urad/prihlaseni/navrat: the provider's redirect back; a session and 303 to /urad, or
 *   303 to /urad/prihlaseni?chyba=cancelled|failed|no_role|expired;
 * - POST /urad/odhlaseni (CSRF-checked): the session ends, 303 to /urad/prihlaseni?odhlaseno=1;
 * - /urad-test/…: the local staff provider, when switched on.
 * With the console off (ROS_CONSOLE=off) every one of them answers 404.
 */

const notFound = async (_req: FastifyRequest, reply: FastifyReply) =>
  reply
    .status(404)
    .headers(API_SECURITY_HEADERS)
    .send({ error: { code: 'NOT_FOUND', message: 'Not found' } } satisfies ApiErrorBody);

const sameText = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

async function signInRoutes(app: FastifyInstance, ctx: ServerContext): Promise<void> {
  const { db } = ctx;
  await ensureCookies(app);
  // The sign-out form's body (the console's forms post application/x-www-form-urlencoded).
  if (!app.hasContentTypeParser('application/x-www-form-urlencoded')) {
    app.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 4096 },
      (_req, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
    );
  }
  // Every sign-in writes a row: limited per client address like NIA's.
  const limited = {
    config: { rateLimit: { max: Math.max(30, ctx.config.rateLimitSearchPerMinute), timeWindow: '1 minute' } },
  };
  const forRequest = (req: FastifyRequest) => ctx.services.consoleAuth.forHost(req.headers.host);
  const secure = (req: FastifyRequest) => secureCookies(ctx.config, forRequest(req).publicUrl);
  const pendingCookie = (req: FastifyRequest, maxAge: number) => ({
    path: SIGNIN_PAGE,
    httpOnly: true,
    // Lax: the callback is a top-level GET that comes from the provider's site.
    sameSite: 'lax' as const,
    secure: secure(req),
    maxAge,
  });
  const staffCookie = (req: FastifyRequest, maxAge: number) => ({
    path: CONSOLE_PATH,
    httpOnly: true,
    sameSite: 'strict' as const,
    secure: secure(req),
    maxAge,
  });
  const clear = (req: FastifyRequest, reply: FastifyReply, name: string) => {
    const { maxAge: _drop, ...opts } = name === PENDING_COOKIE ? pendingCookie(req, 0) : staffCookie(req, 0);
    reply.clearCookie(name, opts);
  };
  const noStore = (reply: FastifyReply) =>
    reply.headers({ ...API_SECURITY_HEADERS, 'cache-control': 'no-store' });

  app.get(SIGNIN_START, limited, async (req, reply) => {
    noStore(reply);
    const now = new Date();
    await purgeExpiredStaffSessions(db, now);
    const value = newCookieValue();
    let url: string;
    try {
      url = await forRequest(req).client.start(flowOf(value));
    } catch (err) {
      const reason = err instanceof SignInError ? err.reason : 'start_failed';
      req.log.warn({ console: { reason } }, 'Console sign-in could not start');
      return reply.redirect(signInFailed('failed'), 303);
    }
    await createPending(db, value, now);
    reply.setCookie(PENDING_COOKIE, value, pendingCookie(req, PENDING_MINUTES * 60));
    return reply.redirect(url, 303);
  });

  app.get(SIGNIN_CALLBACK, limited, async (req, reply) => {
    noStore(reply);
    const now = new Date();
    const q = req.url.indexOf('?');
    const query = q === -1 ? '' : req.url.slice(q);
    const fail = (code: SignInErrorCode, reason: string) => {
      req.log.warn({ console: { reason } }, 'Console sign-in failed');
      return reply.redirect(signInFailed(code), 303);
    };
    const value = cookieValue(req, PENDING_COOKIE);
    if (!value || !(await pendingExists(db, value, now))) {
      // No sign-in under way in this browser (too late, used already, never started here):
      // a signed-in browser (a repeated callback, Back) stays signed in.
      if (value) clear(req, reply, PENDING_COOKIE);
      if (await loadStaff(db, req, now)) return reply.redirect(CONSOLE_PATH, 303);
      return fail('expired', 'no_pending_sign_in');
    }
    const flow = flowOf(value);
    if (!sameText(new URLSearchParams(query).get('state') ?? '', flow.state)) {
      // Not this sign-in's callback (a forged link): ignored, the real one still finishes it.
      return fail('failed', 'state_mismatch');
    }
    clear(req, reply, PENDING_COOKIE);
    // One callback takes the sign-in; a replay of it finds nothing.
    if (!(await takePending(db, value, now))) return fail('expired', 'repeated_callback');
    await purgeExpiredStaffSessions(db, now);
    let who: ConsoleIdentity;
    try {
      who = await forRequest(req).client.finish(query, flow);
    } catch (err) {
      const reason = err instanceof SignInError ? err.reason : 'callback_failed';
      return fail(reason === 'cancelled' ? 'cancelled' : 'failed', reason);
    }
    const actor = `staff:${who.subject}`;
    const role = who.role;
    if (!role) {
      // Nobody without a role gets a session; the attempt is in the audit trail.
      await audit(db, { actor, action: 'console.signin', outcome: 'denied', detail: 'no_role' }, now);
      return fail('no_role', 'no_role');
    }
    // A new sign-in in the same browser replaces its session.
    await endStaffSession(db, cookieValue(req, STAFF_COOKIE));
    const session = await createStaffSession(db, { subject: who.subject, name: who.name, role }, now);
    await audit(db, { actor, action: 'console.signin', outcome: 'ok', detail: `role=${role}` }, now);
    reply.setCookie(STAFF_COOKIE, session, staffCookie(req, CONSOLE_ABSOLUTE_HOURS * 3600));
    req.log.info({ console: { role } }, 'Console sign-in succeeded');
    // From a provider on another site the Strict cookie would not come with a redirect: a page
    // of ours takes the next step (pages.ts).
    if (req.headers['sec-fetch-site'] === 'cross-site') return reply.headers(PAGE_HEADERS).send(onwardPage());
    return reply.redirect(CONSOLE_PATH, 303);
  });

  app.post(SIGNOUT, limited, async (req, reply) => {
    noStore(reply);
    const staff = await loadStaff(db, req);
    if (staff) {
      const token = (req.body as Record<string, unknown> | null | undefined)?.[CSRF_FIELD];
      if (!csrfOk(req, staff, token)) {
        req.log.warn({ console: { reason: 'csrf' } }, 'Console sign-out refused');
        return reply.status(403).headers(PAGE_HEADERS).send(refusedPage());
      }
      await endStaffSession(db, cookieValue(req, STAFF_COOKIE));
      await audit(db, { actor: staff.actor, action: 'console.signout', outcome: 'ok' });
    }
    clear(req, reply, STAFF_COOKIE);
    return reply.redirect(SIGNED_OUT, 303);
  });
}

/** The console's sign-in routes and the local staff provider. Register at the root. */
export const consoleAuthRoutes: FastifyPluginAsync<ServerContext> = async (app, ctx) => {
  const { config } = ctx;
  if (config.consoleTestProvider) {
    await app.register(
      consoleTestProviderRoutes((req) => ctx.services.consoleAuth.forHost(req.headers.host).testProvider()),
    );
  } else {
    app.all(CONSOLE_TEST_PROVIDER_PATH, notFound);
    app.all(`${CONSOLE_TEST_PROVIDER_PATH}/*`, notFound);
  }
  if (!config.consoleEnabled) {
    app.all(SIGNIN_START, notFound);
    app.all(SIGNIN_CALLBACK, notFound);
    app.all(SIGNOUT, notFound);
    return;
  }
  await app.register(async (scope) => signInRoutes(scope, ctx));
};
