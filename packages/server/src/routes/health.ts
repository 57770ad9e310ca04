import type { FastifyPluginAsync } from 'fastify';
import { pendingMigrations } from '../db/migrations.js';
import { API_SECURITY_HEADERS } from '../http/apiHeaders.js';
import { cachedCheck } from '../readiness.js';
import type { ServerContext } from '../services.js';

/**
 * Liveness (`/healthz`: the process answers) and readiness (`/readyz`: 200 only when the
 * database answers, every migration this version knows has run and start-up loads are done,
 * e.g. the validity index; else 503 saying why: `starting` with what is awaited, `draining`
 * while shutting down, `migrations pending`, `unavailable`). A load balancer sends traffic only
 * to a ready server. The database part of the answer is kept for a second (cachedCheck), so
 * /readyz costs about what /healthz does however often it is asked.
 */

/** How long /readyz reuses its database check. */
export const READY_CHECK_MS = 1000;
export const healthRoutes: FastifyPluginAsync<ServerContext> = async (app, ctx) => {
  const { readiness } = ctx.services;
  const migrationsPending = cachedCheck(
    () => pendingMigrations(ctx.db.kysely, ctx.db.dialect),
    READY_CHECK_MS,
  );
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
      const pending = await migrationsPending();
      if (pending > 0) return reply.status(503).send({ status: 'migrations pending', pending });
      return { status: 'ready' };
    } catch {
      return reply.status(503).send({ status: 'unavailable' });
    }
  });
};
