import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../context.js';
import { openValidityCheck } from '../records/validityCheck.js';

const czechDate = { type: 'string' } as const;
const category = {
  type: 'object',
  properties: { valid_until: czechDate },
  required: ['valid_until'],
  additionalProperties: false,
} as const;

/** The spec's answer: exactly these fields and nothing else (documents the route). */
const answerSchema = {
  type: 'object',
  properties: {
    data: {
      type: 'object',
      properties: {
        stav: { type: 'string' },
        platnost_do: czechDate,
        jmeno: { type: 'string' },
        prijmeni: { type: 'string' },
      },
      required: ['stav', 'platnost_do', 'jmeno', 'prijmeni'],
      additionalProperties: false,
    },
    a1a3: category,
    a2: category,
  },
  required: ['data'],
  additionalProperties: false,
} as const;

/**
 * GET /api/ros/{id}/validity: the public validity check (spec section 7), answered by the check
 * (records/validityCheck.ts) from memory, rate-limited per client address
 * (ROS_RATE_LIMIT_VALIDITY per minute).
 */
export const validityRoutes: FastifyPluginAsync<AppContext> = async (app, ctx) => {
  const check = await openValidityCheck(ctx.db, {
    refreshMs: ctx.config.validityRefreshMs,
    perMinute: ctx.config.rateLimitValidityPerMinute,
    onError: (err) => app.log.warn({ err }, 'validity index: looking for changed certificates failed'),
  });
  app.addHook('onClose', async () => check.close());

  app.get<{ Params: { id: string } }>(
    '/:id/validity',
    // The schema documents the answer; the answer itself is JSON the index made once a day.
    { schema: { response: { 200: answerSchema } } },
    (req, reply) => {
      reply.header('cache-control', 'no-store');
      const result = check.answer(req.params.id, req.ip);
      if ('error' in result) throw result.error;
      return reply.type('application/json; charset=utf-8').send(result.json);
    },
  );
};
