import { SSO_ERROR_CODES } from '@ros/domain';
import type { FastifyPluginAsync } from 'fastify';
import { ApiError } from '../errors.js';
import { ensureCookies, sessionCookie, setSessionCookie } from '../http/cookies.js';
import { extendSession } from '../nia/sessionTime.js';
import type { ServerContext } from '../services.js';

/**
 * POST /api/ros/sso-session/extend: more time for the NIA sign-in (WCAG 2.2.1, issue 27). The
 * browser asks when its warning dialog's "more time" is chosen; the session gets the full
 * ROS_SESSION_MINUTES again, capped at ROS_SESSION_MAX_MINUTES after sign-in (nia/sessionTime.ts).
 * The cookie's Max-Age follows. 401 NO_SESSION when there is none (ended, expired, never).
 * SameSite=Lax keeps the cookie off cross-site POSTs, so another site cannot keep it alive.
 */
export const ssoExtendRoutes: FastifyPluginAsync<ServerContext> = async (app, ctx) => {
  await ensureCookies(app);
  const limited = {
    config: { rateLimit: { max: Math.max(30, ctx.config.rateLimitSearchPerMinute), timeWindow: '1 minute' } },
  };
  app.post('/sso-session/extend', limited, async (req, reply) => {
    reply.header('Cache-Control', 'no-store');
    const now = new Date();
    const id = sessionCookie(req);
    const time = await extendSession(ctx.db, id, ctx.config, now);
    if (!time || !id) throw new ApiError(401, SSO_ERROR_CODES.noSession, 'No NIA sign-in session');
    setSessionCookie(reply, id, ctx.config.publicUrl, time.expires_in);
    return time;
  });
};
