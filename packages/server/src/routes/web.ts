import { existsSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import helmet from '@fastify/helmet';
import fastifyStatic from '@fastify/static';
import { canonicalAppPath, checkPageTarget, isAppPage } from '@ros/domain';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { AppContext } from '../context.js';
import { type ApiErrorBody, notFound } from '../errors.js';
import { API_SECURITY_HEADERS } from '../http/apiHeaders.js';
import { PERMISSIONS_POLICY, pageHeaders } from '../http/pageHeaders.js';

const pathOnly = (url: string): string => url.split('?', 1)[0] ?? url;

/**
 * The built web app (`ROS_WEB_DIR`, packages/web/dist): its files and, for every page path, its
 * index.html. Assets go out as the build compressed them (`preCompressed`: the `.br` file, brotli
 * at quality 11, when the browser accepts br, else the `.gz`, else the file; see
 * packages/web/vite.config.ts), so the server does no compression work per request for them;
 * nothing is compressed on the fly (issue 33 item 2: a `deflate` request must not buy CPU time):
 * a file without such a sibling (under 1 kB, or a source map) and any other encoding go as they are.
 */
export async function webRoutes(web: FastifyInstance, ctx: AppContext): Promise<void> {
  const webDir = ctx.config.webDir;
  if (!webDir) throw new Error('webRoutes needs ROS_WEB_DIR');
  // The pages get helmet's full set of security headers, with a content security policy
  // (http/pageHeaders.ts) and a Permissions-Policy.
  await web.register(helmet, pageHeaders(ctx.config));
  const pageAssets = readPageAssets(webDir);
  // The app's file under its own name is no page (issue 36): the not-found page, 404.
  web.addHook('onRequest', (req, reply, done) => {
    if ((req.method === 'GET' || req.method === 'HEAD') && pathOnly(req.url) === '/index.html') {
      void reply.status(404).header('link', pagePreloads(req.url, pageAssets)).sendFile('index.html');
      return;
    }
    done();
  });
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
  // A hashed asset is cached for good and never revalidated: its ETag and Last-Modified would
  // only add bytes to every first load (issue 26: the status page's 100 kB counts headers too).
  web.addHook('onSend', (_req, reply, payload, done) => {
    if (reply.getHeader('cache-control') === IMMUTABLE) {
      reply.removeHeader('etag');
      reply.removeHeader('last-modified');
    }
    done(null, payload);
  });
  await web.register(fastifyStatic, {
    root: webDir,
    index: false,
    wildcard: false,
    preCompressed: true,
    // Our own Cache-Control below, not send's `public, max-age=0`.
    cacheControl: false,
    // No script, stylesheet or font is fetched in parts: 22 bytes less on every asset (issue 26).
    acceptRanges: false,
    setHeaders(reply, path) {
      // index.html is every page: the page's own rule (the form is not stored, issue 28).
      const page = /[\\/]index\.html(\.br|\.gz)?$/.test(path) ? reply.request.url : undefined;
      const cacheControl = page === undefined ? cacheControlFor(path) : pageCacheControl(pathOnly(page));
      reply.header('cache-control', cacheControl);
      if (cacheControl === IMMUTABLE) assetSecurityHeaders(reply);
      // The build names no map in the files (vite.config.ts): the header does, when maps are served.
      const script = path.replace(/\.(br|gz)$/, '');
      if (ctx.config.sourceMaps && script.endsWith('.js') && existsSync(`${script}.map`)) {
        reply.header('sourcemap', `${basename(script)}.map`);
      }
    },
  });
  // Page paths (GET and HEAD) get the app; the status says whether the path is one of its pages.
  // A page's path written in other case or with a trailing slash (/FORM, /Check?id=…, /form/)
  // is sent to its own path, query kept (issue 22): the browser's router matches paths without
  // regard to case, so it would show the page under a 404.
  web.setNotFoundHandler((req, reply) => {
    const path = pathOnly(req.url);
    // A path with an extension is a missing file, unless a browser asks for a page (`/foo.html`
    // typed or linked: it gets the not-found page, issue 36); a script or image gets JSON.
    const wantsPage = !/\.[a-z0-9]+$/i.test(path) || /\btext\/html\b/.test(String(req.headers.accept ?? ''));
    if ((req.method === 'GET' || req.method === 'HEAD') && !path.startsWith('/api/') && wantsPage) {
      const canonical = canonicalAppPath(path);
      if (canonical !== null) {
        return reply
          .status(301)
          .header('cache-control', 'no-cache')
          .redirect(canonical + req.url.slice(path.length), 301);
      }
      // Cache-Control: pageCacheControl, set with the file (setHeaders above).
      return reply
        .status(isAppPage(path) && !malformedCheck(path, req.url) ? 200 : 404)
        .header('link', pagePreloads(req.url, pageAssets))
        .sendFile('index.html');
    }
    return reply
      .status(404)
      .send({ error: { code: 'NOT_FOUND', message: 'Not found' } } satisfies ApiErrorBody);
  });
}

/** `/check` with an `id` that is no check id: the browser shows not-found, so the status says 404 (issue 36). */
function malformedCheck(path: string, url: string): boolean {
  if (path !== '/check') return false;
  const query = url.slice(path.length).replace(/^\?/, '').split('#')[0] ?? '';
  return checkPageTarget(new URLSearchParams(query).get('id')) === 'not-found';
}

const IMMUTABLE = 'public, max-age=31536000, immutable';

/** What each page's own chunk needs, by page path, as the web build wrote it (`page-assets.json`). */
export type PageAssets = Readonly<Record<string, readonly string[]>>;

/**
 * The build's `page-assets.json` (packages/web/vite-plugin-page-assets.ts); none when the build
 * wrote none (an older build): the pages are then announced without their chunks. Only names of
 * the build's own hashed assets are kept.
 */
export function readPageAssets(webDir: string): PageAssets {
  const file = join(webDir, 'page-assets.json');
  if (!existsSync(file)) return {};
  const raw = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  const assets: Record<string, string[]> = {};
  for (const [path, files] of Object.entries(raw)) {
    if (!Array.isArray(files)) continue;
    assets[path] = files.filter(
      (f): f is string => typeof f === 'string' && /^assets\/[\w.-]+\.(js|css)$/.test(f),
    );
  }
  return assets;
}

/**
 * What every page fetches before it can show its content, announced with the page itself, so
 * that the browser fetches it while it loads the scripts instead of after them (issue 14: one
 * round trip and the scripts' run less before the first paint on a slow link): the texts of the
 * page's language (`?lang=en`, else Czech, as the app's `parseLang`) and the metadata, both as
 * `fetch` with `crossorigin`, which is how the app asks for them (same-origin `fetch()`), so the
 * browser uses the preloaded answers; and the page's own chunk with its stylesheet (issue 29:
 * the app renders a page opened at its address only once its chunk is there), as the app's
 * loader asks for them (modules, stylesheets with `crossorigin`).
 */
export function pagePreloads(url: string, assets: PageAssets = {}): string {
  const lang = new URLSearchParams(url.split('?')[1] ?? '').get('lang') === 'en' ? 'en' : 'cs';
  const fetches = [`/assets/i18n/${lang}.json`, '/api/ros/metadata'].map(
    (href) => `<${href}>; rel=preload; as=fetch; crossorigin`,
  );
  const chunk = (assets[pathOnly(url)] ?? []).map((file) =>
    file.endsWith('.css')
      ? `</${file}>; rel=preload; as=style; crossorigin`
      : `</${file}>; rel=modulepreload`,
  );
  return [...fetches, ...chunk].join(', ');
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
 * A page is revalidated on every use; the form's pages are not stored at all (issue 28): a page
 * sent with `no-store` stays out of the browser's back/forward cache, so Back on a shared
 * computer cannot bring up the previous applicant's success page with their details (the app
 * also replaces it on leaving, form/sentEntry.ts).
 */
export function pageCacheControl(path: string): string {
  return /\/form$/.test(path) ? 'no-store' : 'no-cache';
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
