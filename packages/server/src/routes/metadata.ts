import type { MetadataAnswer } from '@ros/domain';
import type { FastifyPluginAsync } from 'fastify';
import type { ServerContext } from '../services.js';

/** What the browser app needs at start: GET /api/ros/metadata (spec section 7; its shape: @ros/domain). */
export const metadataRoutes: FastifyPluginAsync<ServerContext> = async (app, ctx) => {
  app.get('/metadata', async (_req, reply): Promise<MetadataAnswer> => {
    // Settings can change with a restart behind a long-lived page: never cached.
    reply.header('Cache-Control', 'no-cache');
    const { config } = ctx;
    return {
      version: ctx.version,
      use_eid: config.useEid,
      recaptchaSiteKey: config.botCheckProvider === 'recaptcha' ? config.recaptchaSiteKey : '',
      botCheckProvider: config.botCheckProvider,
    };
  });
};
