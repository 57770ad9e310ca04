import { existsSync } from 'node:fs';
import { join } from 'node:path';
import compress from '@fastify/compress';
import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { API_SECURITY_HEADERS } from './apiHeaders.js';
import type { AppContext } from './context.js';
import { ApiError, type ApiErrorBody, apiErrorBody, notFound } from './errors.js';
import { createMetrics, installMetrics } from './metrics/index.js';
import { ANY_JSON_LIMITS, useBoundedJson } from './requests/jsonBody.js';
import { botCheckRoutes } from './routes/botcheck.js';
import { healthRoutes } from './routes/health.js';
import { intakeRoutes } from './routes/intake.js';
import { metadataRoutes } from './routes/metadata.js';
import { pdfRoutes } from './routes/pdf.js';
import { referenceRoutes } from './routes/reference.js';
import { searchRoutes } from './routes/search.js';
import { niaTestProvider, ssoRoutes } from './routes/sso.js';
import { submitRoutes } from './routes/submit.js';
import { validateRoutes } from './routes/validate.js';
import { validityRoutes } from './routes/validity.js';

/**
 * What a request log line says of the address: the route's pattern when a route matched
 * (`/api/ros/:id/validity`, `/api/ros/pdf/:id`), since paths hold tokens (a certificate's check
 * code, a PDF link's id) and logs never hold personal data; else the path without its query string.
 */
function loggedPath(req: { url: string; routeOptions?: { url?: string } }): string {
  return req.routeOptions?.url || pathOnly(req.url);
}

function pathOnly(url: string): string {
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}

export function loggerOptions(level: string): FastifyServerOptions['logger'] {
  return {
    level,
    redact: ['req.headers.cookie', 'req.headers.recaptcha', 'req.headers.authorization'],
    serializers: {
      req: (req: { method: string; url: string; id: string; routeOptions?: { url?: string } }) => ({
        id: req.id,
        method: req.method,
        path: loggedPath(req),
      }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
    },
  };
}

export async function buildApp(
  ctx: AppContext,
  opts: { logger?: FastifyServerOptions['logger'] } = {},
): Promise<FastifyInstance> {
  const app = Fastify({
    logger: opts.logger ?? false,
    trustProxy: ctx.config.trustProxy,
    bodyLimit: 1024 * 1024,
    return503OnClosing: true,
    requestTimeout: 30000,
  });

  // No JSON body is parsed before its shape is bounded (issue 11); each public POST sets its own limits.
  useBoundedJson(app, ANY_JSON_LIMITS);
  await app.register(rateLimit, { global: false });

  app.setErrorHandler((err: FastifyError | ApiError, req, reply) => {
    if (err instanceof ApiError) {
      if (err.headers) reply.headers(err.headers);
      return reply.status(err.statusCode).send(apiErrorBody(err));
    }
    const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 600 ? err.statusCode : 500;
    if (status >= 500)
      req.log.error(
        { err: { type: err.name, code: err.code, message: err.message, stack: err.stack } },
        'request failed',
      );
    const code =
      status === 429
        ? 'RATE_LIMITED'
        : err.validation
          ? 'INVALID_REQUEST'
          : status === 413
            ? 'PAYLOAD_TOO_LARGE'
            : status === 415
              ? 'UNSUPPORTED_MEDIA_TYPE'
              : status >= 500
                ? 'INTERNAL_ERROR'
                : (err.code ?? 'BAD_REQUEST');
    const message = status >= 500 ? 'Internal server error' : err.message;
    return reply.status(status).send({ error: { code, message } } satisfies ApiErrorBody);
  });

  if (ctx.config.metricsToken) {
    ctx.metrics ??= createMetrics(ctx);
    installMetrics(app, ctx.metrics, ctx.config.metricsToken);
  }
  await app.register(healthRoutes, ctx);
  // The local NIA-like provider under /nia-test (404 there when ROS_NIA_TEST_PROVIDER is off).
  await app.register(niaTestProvider, ctx);
  await app.register(
    async (api) => {
      // JSON answers are never rendered as pages: a few fixed headers replace helmet's full set,
      // which costs every API call (see bench/README.md).
      // A callback hook, not an async one: no promise per request.
      api.addHook('onRequest', (_req, reply, done) => {
        reply.headers(API_SECURITY_HEADERS);
        done();
      });
      await api.register(metadataRoutes, ctx);
      // Compression where answers are large (the reference lists); small JSON answers skip its hooks.
      await api.register(async (lists) => {
        await lists.register(compress, { threshold: 1024 });
        await lists.register(referenceRoutes, ctx);
      });
      await api.register(validityRoutes, ctx);
      await api.register(botCheckRoutes, ctx);
      await api.register(searchRoutes, ctx);
      await api.register(validateRoutes, ctx);
      await api.register(ssoRoutes, ctx);
      await api.register(submitRoutes, ctx);
      await api.register(pdfRoutes, ctx);
      // Unknown paths get the same answer as an unknown record (see routes/validity.ts).
      api.all('/*', async () => {
        throw notFound();
      });
    },
    { prefix: '/api/ros' },
  );
  // The authority's back office (docs/intake.md): bearer tokens, apart from the public API.
  await app.register(intakeRoutes, { ...ctx, prefix: '/api/intake/v1' });

  const webDir = ctx.config.webDir;
  if (webDir && existsSync(join(webDir, 'index.html'))) {
    // The pages get helmet's full set of security headers, with a content security policy.
    await app.register(async (web) => {
      await web.register(helmet, {
        contentSecurityPolicy: {
          directives: {
            defaultSrc: ["'self'"],
            scriptSrc: ["'self'", 'https://www.google.com/recaptcha/', 'https://www.gstatic.com/recaptcha/'],
            frameSrc: ["'self'", 'https://www.google.com/recaptcha/'],
            workerSrc: ["'self'", 'blob:'],
            imgSrc: ["'self'", 'data:'],
            styleSrc: ["'self'", "'unsafe-inline'"],
            connectSrc: ["'self'", 'https://www.google.com/recaptcha/'],
            fontSrc: ["'self'", 'data:'],
            formAction: ["'self'"],
            upgradeInsecureRequests: null,
          },
        },
      });
      await web.register(compress, { threshold: 1024 });
      await web.register(fastifyStatic, {
        root: webDir,
        index: false,
        wildcard: false,
        setHeaders(res, path) {
          // Vite puts content hashes in asset names: those can be cached for good.
          if (/[\\/]assets[\\/].+-[A-Za-z0-9_-]{8,}\.(js|css|woff2?|svg|png)$/.test(path)) {
            res.raw.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
          } else {
            res.raw.setHeader('Cache-Control', 'no-cache');
          }
        },
      });
      // Client-side routes: every other GET gets the app, which redirects unknown paths to not-found.
      web.setNotFoundHandler((req, reply) => {
        const path = pathOnly(req.url);
        if (req.method === 'GET' && !path.startsWith('/api/') && !/\.[a-z0-9]+$/i.test(path)) {
          return reply.header('Cache-Control', 'no-cache').sendFile('index.html');
        }
        return reply
          .status(404)
          .send({ error: { code: 'NOT_FOUND', message: 'Not found' } } satisfies ApiErrorBody);
      });
    });
  }
  return app;
}
