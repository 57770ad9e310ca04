import compress from '@fastify/compress';
import helmet from '@fastify/helmet';
import fastifyStatic from '@fastify/static';
import { isAppPage } from '@ros/domain';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { API_SECURITY_HEADERS } from '../apiHeaders.js';
import type { AppContext } from '../context.js';
import { type ApiErrorBody, notFound } from '../errors.js';
import { PERMISSIONS_POLICY, pageHeaders } from '../pageHeaders.js';

const pathOnly = (url: string): string => url.split('?', 1)[0] ?? url;

/**
 * The built web app (`ROS_WEB_DIR`, packages/web/dist): its files and, for every page path, its
 * index.html. Assets go out as the build compressed them (`preCompressed`: the `.br` file, brotli
 * at quality 11, when the browser accepts br, else the `.gz`, else the file; see
 * packages/web/vite.config.ts), so the server does no compression work per request for them;
 * anything without such a file (small ones) is compressed on the fly above 1 kB.
 */
export async function webRoutes(web: FastifyInstance, ctx: AppContext): Promise<void> {
  const webDir = ctx.config.webDir;
  if (!webDir) throw new Error('webRoutes needs ROS_WEB_DIR');
  // The pages get helmet's full set of security headers, with a content security policy
  // (pageHeaders.ts) and a Permissions-Policy.
  await web.register(helmet, pageHeaders(ctx.config));
  web.addHook('onRequest', (_req, reply, done) => {
    reply.header('permissions-policy', PERMISSIONS_POLICY);
    done();
  });
  // Source maps hold the app's sources: not served in production unless ROS_SOURCE_MAPS=true.
  if (!ctx.config.sourceMaps) {
    web.addHook('onRequest', (req, _reply, done) => {
      done(pathOnly(req.url).endsWith('.map') ? notFound() : undefined);
    });
  }
  await web.register(compress, { threshold: 1024 });
  await web.register(fastifyStatic, {
    root: webDir,
    index: false,
    wildcard: false,
    preCompressed: true,
    // Our own Cache-Control below, not send's `public, max-age=0`.
    cacheControl: false,
    setHeaders(reply, path) {
      const cacheControl = cacheControlFor(path);
      reply.header('cache-control', cacheControl);
      if (cacheControl === IMMUTABLE) assetSecurityHeaders(reply);
    },
  });
  // Page paths (GET and HEAD) get the app; the status says whether the path is one of its pages.
  web.setNotFoundHandler((req, reply) => {
    const path = pathOnly(req.url);
    if (
      (req.method === 'GET' || req.method === 'HEAD') &&
      !path.startsWith('/api/') &&
      !/\.[a-z0-9]+$/i.test(path)
    ) {
      return reply
        .status(isAppPage(path) ? 200 : 404)
        .header('cache-control', 'no-cache')
        .header('link', pagePreloads(req.url))
        .sendFile('index.html');
    }
    return reply
      .status(404)
      .send({ error: { code: 'NOT_FOUND', message: 'Not found' } } satisfies ApiErrorBody);
  });
}

const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * What every page fetches before it can show its content, announced with the page itself, so
 * that the browser fetches it while it loads the scripts instead of after them (issue 14: one
 * round trip and the scripts' run less before the first paint on a slow link): the texts of the
 * page's language (`?lang=en`, else Czech, as the app's `parseLang`) and the metadata. Both as
 * `fetch` with `crossorigin`, which is how the app asks for them (same-origin `fetch()`), so the
 * browser uses the preloaded answers.
 */
export function pagePreloads(url: string): string {
  const lang = new URLSearchParams(url.split('?')[1] ?? '').get('lang') === 'en' ? 'en' : 'cs';
  return [`/assets/i18n/${lang}.json`, '/api/ros/metadata']
    .map((href) => `<${href}>; rel=preload; as=fetch; crossorigin`)
    .join(', ');
}

/**
 * The headers helmet and the Permissions-Policy hook give every answer of this plugin that mean
 * something only for a document: a script, stylesheet or font is never one (issue 14: 0.8 kB per
 * file, 4 kB of the check page's 100 kB).
 */
const DOCUMENT_ONLY_HEADERS = [
  'content-security-policy',
  'cross-origin-opener-policy',
  'origin-agent-cluster',
  'permissions-policy',
  'x-dns-prefetch-control',
  'x-download-options',
  'x-frame-options',
  'x-permitted-cross-domain-policies',
  'x-xss-protection',
] as const;

/**
 * A hashed asset goes out with the API's few fixed headers instead of the page set: no sniffing
 * (a script is run only as what its type says), same-origin reads only, no referrer, HTTPS only,
 * and `default-src 'none'` for the one asset that runs as a document of its own: ALTCHA's
 * proof-of-work worker (`assets/sha-*.js`), which only hashes and loads nothing.
 */
function assetSecurityHeaders(reply: FastifyReply): void {
  for (const name of DOCUMENT_ONLY_HEADERS) reply.removeHeader(name);
  reply.headers(API_SECURITY_HEADERS);
}

/**
 * Vite puts content hashes in asset names (`assets/index-B1x2y3z4.js`): those never change, so they
 * are cached for good. Anything else (index.html, favicon.svg) is revalidated on every use.
 * `path` may be a precompressed sibling (`.js.br`, `.js.gz`): the same rule.
 */
export function cacheControlFor(path: string): string {
  return /[\\/]assets[\\/].+-[A-Za-z0-9_-]{8,}\.(js|css|woff2?|svg|png)(\.map)?(\.br|\.gz)?$/.test(path)
    ? IMMUTABLE
    : 'no-cache';
}
