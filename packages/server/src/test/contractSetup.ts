import type { FastifyInstance } from 'fastify';
import { afterEach, vi } from 'vitest';
import { recordAnswer, takeProblems } from './openapiCheck.js';

/**
 * Setup file of the server tests (vitest.config.ts): every Fastify app a test builds gets one
 * onSend hook, at its root so that every route inherits it, that checks the answer against the
 * OpenAPI document (openapiCheck.ts). An answer the document does not describe fails the test
 * that made it: a drift between the code and the description fails CI without each API test
 * asking for it. The hook only looks; it never changes an answer.
 */
vi.mock('fastify', async (importOriginal) => {
  const actual = await importOriginal<typeof import('fastify')>();
  const create = actual.default as unknown as (...args: unknown[]) => FastifyInstance;
  const checked = (...args: unknown[]) => {
    const app = create(...args);
    app.addHook('onSend', (req, reply, payload, done) => {
      recordAnswer({
        method: req.method,
        route: req.routeOptions.url,
        status: reply.statusCode,
        headers: reply.getHeaders(),
        payload: typeof payload === 'string' || Buffer.isBuffer(payload) ? payload : undefined,
        body: req.body,
      });
      done(null, payload);
    });
    return app;
  };
  return { ...actual, default: checked, fastify: checked };
});

afterEach(() => {
  const problems = takeProblems();
  if (problems.length > 0) {
    throw new Error(`Answers the OpenAPI document does not describe (docs/api.md):\n${problems.join('\n')}`);
  }
});
