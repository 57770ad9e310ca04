import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../context.js';

/** What the browser app needs at start: GET /api/ros/metadata (spec section 7). */
export interface MetadataAnswer {
  version: string;
  /** 'YES' offers NIA sign-in on the home page; 'NO' opens the form with ?eid=eid. */
  use_eid: 'YES' | 'NO';
  /** reCAPTCHA v3 site key; empty with the self-hosted altcha check. */
  recaptchaSiteKey: string;
  botCheckProvider: 'altcha' | 'recaptcha';
}

export const metadataRoutes: FastifyPluginAsync<AppContext> = async (app, ctx) => {
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
