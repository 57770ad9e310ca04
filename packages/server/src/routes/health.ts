import type { FastifyPluginAsync } from 'fastify';
import { sql } from 'kysely';
import { API_SECURITY_HEADERS } from '../apiHeaders.js';
import type { AppContext } from '../context.js';
import { readinessOf } from '../readiness.js';

/**
 * Liveness (`/healthz`: the process answers) and readiness (`/readyz`: 200 only when the
 * database answers and start-up loads are done, e.g. the validity index; else 503 naming what
 * is awaited). A load balancer sends traffic only to a ready server.
 */
export const healthRoutes: FastifyPluginAsync<AppContext> = async (app, ctx) => {
  const readiness = readinessOf(ctx.config);
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
    const waiting = readiness.pending();
    if (waiting.length > 0) return reply.status(503).send({ status: 'starting', waiting });
    try {
      await sql`select 1`.execute(ctx.db.kysely);
      return { status: 'ready' };
    } catch {
      return reply.status(503).send({ status: 'unavailable' });
    }
  });
};
