import type { FastifyPluginAsync } from 'fastify';
import { API_SECURITY_HEADERS } from '../apiHeaders.js';
import { buildOpenApi } from '../openapi.js';
import type { ServerContext } from '../services.js';

/**
 * GET /api/docs: the OpenAPI 3.1 document of the API (openapi.ts, docs/api.md), built once at
 * start from the contract. Public: it holds shapes and codes, no settings and no data.
 */
export const docsRoutes: FastifyPluginAsync<ServerContext> = async (app, ctx) => {
  const body = JSON.stringify(buildOpenApi(ctx.version));
  app.addHook('onRequest', (_req, reply, done) => {
    reply.headers(API_SECURITY_HEADERS);
    done();
  });
  app.get('/api/docs', (_req, reply) =>
    reply.header('Cache-Control', 'no-cache').type('application/json; charset=utf-8').send(body),
  );
};
