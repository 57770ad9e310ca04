import type { FastifyPluginAsync } from 'fastify';
import { ApiError } from '../errors.js';
import type { ServerContext } from '../services.js';

/**
 * GET /api/ros/altcha-challenge: a fresh proof-of-work challenge for the ALTCHA widget
 * (provider altcha only). Never cached: each challenge is solved and accepted once.
 */
export const botCheckRoutes: FastifyPluginAsync<ServerContext> = async (app, ctx) => {
  const { botCheck } = ctx.services;
  app.get(
    '/altcha-challenge',
    // A challenge costs the server one hash; the limit only stops floods.
    {
      config: {
        rateLimit: { max: Math.max(60, ctx.config.rateLimitSearchPerMinute * 5), timeWindow: '1 minute' },
      },
    },
    async (_req, reply) => {
      if (botCheck.provider !== 'altcha') {
        throw new ApiError(404, 'BOT_CHECK_PROVIDER', 'The bot check of this server is not ALTCHA');
      }
      reply.header('Cache-Control', 'no-store');
      return botCheck.createChallenge();
    },
  );
};
