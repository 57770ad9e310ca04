import type { FastifyPluginAsync } from 'fastify';
import { API_SECURITY_HEADERS } from '../http/apiHeaders.js';
import { encodedBody, sendEncoded } from '../http/encodedBody.js';
import { clientKey } from '../http/ipRanges.js';
import { buildOpenApi } from '../openapi.js';
import type { ServerContext } from '../services.js';

/**
 * GET /api/docs: the OpenAPI 3.1 document of the API (openapi.ts, docs/api.md), built once at
 * start from the contract, each encoding made once (http/encodedBody.ts). Public: it holds shapes
 * and codes, no settings and no data; limited per client address with the lists (ROS_RATE_LIMIT_LISTS).
 */
export const docsRoutes: FastifyPluginAsync<ServerContext> = async (app, ctx) => {
  const body = encodedBody(JSON.stringify(buildOpenApi(ctx.version)));
  app.addHook('onRequest', (_req, reply, done) => {
    reply.headers(API_SECURITY_HEADERS);
    done();
  });
  app.get('/api/docs', (req, reply) => {
    ctx.services.listsLimiter.hit(clientKey(req.ip, ctx.config.rateLimitIpv6Prefix));
    reply.header('Cache-Control', 'no-cache').type('application/json; charset=utf-8');
    return sendEncoded(req, reply, body);
  });
};
