import { parseValidityId } from '@ros/domain';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../context.js';
import { notFound } from '../errors.js';
import { createFixedWindowLimiter } from '../ratelimit.js';
import { registerToday } from '../records/records.js';
import { openValidityIndex } from '../records/validityIndex.js';

const czechDate = { type: 'string' } as const;
const category = {
  type: 'object',
  properties: { valid_until: czechDate },
  required: ['valid_until'],
  additionalProperties: false,
} as const;

/** Serialises exactly the spec's fields (fast-json-stringify) and nothing else. */
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

/** Id that no certificate has (ids start at 1): the lookup a malformed id still makes. */
const NO_RECORD = 0;

/** Today's date in Prague, recomputed at most once a second instead of on every request. */
function todayCache(): () => string {
  let value = registerToday();
  let until = Date.now() + 1000;
  return () => {
    const now = Date.now();
    if (now >= until) {
      value = registerToday(new Date(now));
      until = now + 1000;
    }
    return value;
  };
}

/**
 * GET /api/ros/{id}/validity: the public validity check (spec section 7).
 *
 * `{id}` is the whole token of the check link, `{recordId}x{code}`. The record is answered only when
 * the code equals day + month + year of its `platnost_do`. A malformed id, an unknown id and a wrong
 * code all get the same 404 after the same work: one lookup in the in-memory index (a malformed id
 * looks up id 0, which never exists) and one comparison of two small integers, which takes constant
 * time. So the answers and their timing tell nothing about which certificate numbers exist.
 * The answers come from memory (records/validityIndex.ts), kept up to date by a version counter.
 * Rate-limited per client address (ROS_RATE_LIMIT_VALIDITY per minute).
 */
export const validityRoutes: FastifyPluginAsync<AppContext> = async (app, ctx) => {
  const index = await openValidityIndex(ctx.db, {
    refreshMs: ctx.config.validityRefreshMs,
    onError: (err) => app.log.warn({ err }, 'validity index: looking for changed certificates failed'),
  });
  app.addHook('onClose', async () => index.close());
  const today = todayCache();
  // A lean per-address counter, not @fastify/rate-limit: this endpoint must stay close to a bare
  // Fastify route in throughput (bench/validity.mjs).
  const limiter = createFixedWindowLimiter(ctx.config.rateLimitValidityPerMinute);

  app.get<{ Params: { id: string } }>(
    '/:id/validity',
    // The schema documents the answer; the answer itself is JSON the index made once a day.
    { schema: { response: { 200: answerSchema } } },
    (req, reply) => {
      limiter.hit(req.ip);
      const parsed = parseValidityId(req.params.id);
      let id = NO_RECORD;
      let given = -1;
      if (parsed) {
        const n = Number(parsed.recordId);
        if (Number.isSafeInteger(n)) id = n;
        // Codes are sums like 2069; a longer one cannot match, and Number() of it would round.
        if (parsed.code.length <= 6) given = Number(parsed.code);
      }
      const json = index.answer(id, given, today());
      if (json === undefined || id === NO_RECORD) throw notFound();
      return reply.header('cache-control', 'no-store').type('application/json; charset=utf-8').send(json);
    },
  );
};
