import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { sendEncoded } from '../http/encodedBody.js';
import { clientKey } from '../http/ipRanges.js';
import type { ListName } from '../reference/index.js';
import { CODE_LIST_NAMES } from '../reference/lists.js';
import type { ServerContext } from '../services.js';

/**
 * The reference lists (spec section 7): GET /api/ros/countries, municipalities, districts,
 * delivery-types, duplicate-types, document-types, verification-types, dial-codes and
 * activity-types. Each answer is a JSON array sent from a string prepared once per data
 * load, with a strong ETag (304 on If-None-Match) and an hour of caching, in br, gzip, deflate or
 * as it is, each encoding made once per list version. Limited per client address
 * (ROS_RATE_LIMIT_LISTS, with /api/docs).
 */
export const LIST_CACHE_CONTROL = 'public, max-age=3600';

/** If-None-Match: a list of entity tags or "*"; weak tags compare equal to strong ones. */
export function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  const bare = (t: string) => t.trim().replace(/^W\//, '');
  return header.split(',').some((t) => bare(t) === etag);
}

async function sendList(ctx: ServerContext, name: ListName, req: FastifyRequest, reply: FastifyReply) {
  ctx.services.listsLimiter.hit(clientKey(req.ip, ctx.config.rateLimitIpv6Prefix));
  const list = await ctx.services.referenceLists.get(name);
  reply.header('ETag', list.etag).header('Cache-Control', LIST_CACHE_CONTROL);
  if (etagMatches(req.headers['if-none-match'], list.etag)) return reply.code(304).send();
  reply.type('application/json; charset=utf-8');
  // Every encoding made once per list version (http/encodedBody.ts), not per call: issue 21
  // (brotli, ~20 ms of CPU each for the municipalities) and issue 33 item 2 (deflate, identity).
  return sendEncoded(req, reply, list);
}

export const referenceRoutes: FastifyPluginAsync<ServerContext> = async (app, ctx) => {
  // Countries come sorted by their Czech name, or by their English name with ?lang=en.
  app.get<{ Querystring: { lang?: 'cs' | 'en' } }>(
    '/countries',
    {
      schema: {
        querystring: { type: 'object', properties: { lang: { type: 'string', enum: ['cs', 'en'] } } },
      },
    },
    (req, reply) => sendList(ctx, req.query.lang === 'en' ? 'countries.en' : 'countries', req, reply),
  );
  for (const name of ['districts', 'municipalities', ...CODE_LIST_NAMES] as const) {
    app.get(`/${name}`, (req, reply) => sendList(ctx, name, req, reply));
  }
};
