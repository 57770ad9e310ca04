import type { FastifyPluginAsync } from 'fastify';
import { ApiError } from '../errors.js';
import { clientKey } from '../http/ipRanges.js';
import type { ValidityCheck } from '../records/validityCheck.js';
import type { ServerContext } from '../services.js';

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
 * demo data, main.ts; the app's services start then, services.ts), and /readyz answers 503 until then. A check that arrives before waits for
 * that read (or gets 503 NOT_READY): it never answers "not verified" for data not read yet.
 */
export const validityRoutes: FastifyPluginAsync<ServerContext> = async (app, ctx) => {
  const check = ctx.services.validity;

  app.get<{ Params: { id: string } }>(
    '/:id/validity',
    // The answer is JSON the index made once a day, in the contract's shape (validityAnswerSchema,
    // @ros/domain; checked in openapi.test.ts).
    (req, reply) => {
      reply.header('cache-control', 'no-store');
      const send = () => {
        const result = check.answer(req.params.id, clientKey(req.ip, ctx.config.rateLimitIpv6Prefix));
        if ('error' in result) throw result.error;
        return reply.type('application/json; charset=utf-8').send(result.json);
      };
      // Only in the first moments after start; afterwards the check stays synchronous.
      if (!check.loaded) return firstLoad(check).then(send);
      return send();
    },
  );
};
