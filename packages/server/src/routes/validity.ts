import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../context.js';
import { ApiError } from '../errors.js';
import { readinessOf } from '../readiness.js';
import { createValidityCheck, type ValidityCheck } from '../records/validityCheck.js';

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

/** How long a check waits for the certificates' first load before answering 503 NOT_READY. */
const FIRST_LOAD_WAIT_MS = 5000;

/** Resolves once the certificates are read, or throws 503 NOT_READY after FIRST_LOAD_WAIT_MS. */
async function firstLoad(check: ValidityCheck): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    check.start(),
    new Promise((r) => {
      timer = setTimeout(r, FIRST_LOAD_WAIT_MS);
    }),
  ]);
  clearTimeout(timer);
  if (!check.loaded) {
    throw new ApiError(503, 'NOT_READY', 'Starting: the certificates are not read yet', undefined, {
      'retry-after': '5',
    });
  }
}

/**
 * GET /api/ros/{id}/validity: the public validity check (spec section 7), answered by the check
 * (records/validityCheck.ts) from memory, rate-limited per client address
 * (ROS_RATE_LIMIT_VALIDITY per minute).
 *
 * The certificates are first read when the app becomes ready (after start-up work such as the
 * demo data, main.ts), and /readyz answers 503 until then. A check that arrives before waits for
 * that read (or gets 503 NOT_READY): it never answers "not verified" for data not read yet.
 */
export const validityRoutes: FastifyPluginAsync<AppContext> = async (app, ctx) => {
  const check = createValidityCheck(ctx.db, {
    refreshMs: ctx.config.validityRefreshMs,
    // This instance's share when several run on one database (sharedLimits.ts).
    perMinute: () =>
      Math.max(1, Math.ceil(ctx.config.rateLimitValidityPerMinute / (ctx.instances?.live() ?? 1))),
    onError: (err) => app.log.warn({ err }, 'validity index: reading the certificates failed'),
  });
  app.addHook('onReady', async () => {
    const loaded = check.start();
    readinessOf(ctx.config).waitFor('validity index', loaded);
    void loaded.then(() => app.log.info('validity index loaded: ready to answer checks'));
  });
  app.addHook('onClose', async () => check.close());
  if (ctx.metrics) ctx.metrics.validityIndexLoadedAt = () => check.currentAt;

  app.get<{ Params: { id: string } }>(
    '/:id/validity',
    // The schema documents the answer; the answer itself is JSON the index made once a day.
    { schema: { response: { 200: answerSchema } } },
    (req, reply) => {
      reply.header('cache-control', 'no-store');
      const send = () => {
        const result = check.answer(req.params.id, req.ip);
        if ('error' in result) throw result.error;
        return reply.type('application/json; charset=utf-8').send(result.json);
      };
      // Only in the first moments after start; afterwards the check stays synchronous.
      if (!check.loaded) return firstLoad(check).then(send);
      return send();
    },
  );
};
