import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { ListName } from '../reference/index.js';
import { CODE_LIST_NAMES } from '../reference/lists.js';
import type { ServerContext } from '../services.js';

/**
 * The reference lists (spec section 7): GET /api/ros/countries, municipalities, districts,
 * delivery-types, duplicate-types, document-types, verification-types, dial-codes and
 * activity-types. Each answer is a JSON array sent from a string prepared once per data
 * load, with a strong ETag (304 on If-None-Match) and an hour of caching; compression is
 * global (@fastify/compress).
 */
export const LIST_CACHE_CONTROL = 'public, max-age=3600';

/** If-None-Match: a list of entity tags or "*"; weak tags compare equal to strong ones. */
export function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  const bare = (t: string) => t.trim().replace(/^W\//, '');
  return header.split(',').some((t) => bare(t) === etag);
}

/** Smaller answers go as they are (as @fastify/compress's threshold). */
const COMPRESS_FROM = 1024;

/** The client's preferred encoding of ours: br, then gzip; none when it takes neither. */
export function listEncoding(acceptEncoding: string | undefined): 'br' | 'gzip' | undefined {
  const offered = new Map<string, number>();
  for (const part of (acceptEncoding ?? '').toLowerCase().split(',')) {
    const [coding = '', ...params] = part.trim().split(';');
    const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    offered.set(coding.trim(), q === undefined ? 1 : Number(q));
  }
  const ok = (c: string) => (offered.get(c) ?? offered.get('*') ?? 0) > 0;
  return ok('br') ? 'br' : ok('gzip') ? 'gzip' : undefined;
}

async function sendList(ctx: ServerContext, name: ListName, req: FastifyRequest, reply: FastifyReply) {
  const list = await ctx.services.referenceLists.get(name);
  reply.header('ETag', list.etag).header('Cache-Control', LIST_CACHE_CONTROL);
  if (etagMatches(req.headers['if-none-match'], list.etag)) return reply.code(304).send();
  reply.type('application/json; charset=utf-8');
  if (list.body.length < COMPRESS_FROM) return reply.send(list.body);
  // Compressed once per list version (reference/cache.ts), not per call (issue 21: ~20 ms of CPU
  // each for the municipalities); @fastify/compress leaves an encoded answer alone.
  reply.header('Vary', 'Accept-Encoding');
  const encoding = listEncoding(req.headers['accept-encoding']);
  if (!encoding) return reply.send(list.body);
  return reply.header('Content-Encoding', encoding).send(await list.encoded(encoding));
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
