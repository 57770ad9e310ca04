import type { FastifyPluginAsync } from 'fastify';
import { API_SECURITY_HEADERS } from '../apiHeaders.js';
import type { ServerContext } from '../context.js';
import { pendingMigrations } from '../db/migrations.js';

/**
 * Liveness (`/healthz`: the process answers) and readiness (`/readyz`: 200 only when the
 * database answers, every migration this version knows has run and start-up loads are done,
 * e.g. the validity index; else 503 saying why: `starting` with what is awaited, `draining`
 * while shutting down, `migrations pending`, `unavailable`). A load balancer sends traffic only
 * to a ready server.
 */
export const healthRoutes: FastifyPluginAsync<ServerContext> = async (app, ctx) => {
  const { readiness } = ctx.services;
  app.addHook('onRequest', (_req, reply, done) => {
    reply.headers(API_SECURITY_HEADERS);
    done();
  });
  app.get('/healthz', async (_req, reply) => {
    reply.header('cache-control', 'no-store');
    return { status: 'ok' };
  });
  app.get('/readyz', async (_req, reply) => {
    reply.header('cache-control', 'no-store');
    if (readiness.draining) return reply.status(503).send({ status: 'draining' });
    const waiting = readiness.pending();
    if (waiting.length > 0) return reply.status(503).send({ status: 'starting', waiting });
    try {
      const pending = await pendingMigrations(ctx.db.kysely, ctx.db.dialect);
      if (pending > 0) return reply.status(503).send({ status: 'migrations pending', pending });
      return { status: 'ready' };
    } catch {
      return reply.status(503).send({ status: 'unavailable' });
    }
  });
};
