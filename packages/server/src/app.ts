import { existsSync } from 'node:fs';
import type { Socket } from 'node:net';
import { join } from 'node:path';
import rateLimit from '@fastify/rate-limit';
import Fastify, {
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyServerOptions,
} from 'fastify';
import { consoleRoutes } from './console/routes/index.js';
import type { AppContext } from './context.js';
import {
  ApiError,
  type ApiErrorBody,
  apiErrorBody,
  errorAnswer,
  notFound,
  rawErrorResponse,
} from './errors.js';
import { API_SECURITY_HEADERS } from './http/apiHeaders.js';
import { clientKey } from './http/ipRanges.js';
import { INTAKE_API_BASE } from './intake/contract.js';
import { installMetrics } from './metrics/index.js';
import { databaseRateLimitStore, MemoryRateLimitStore } from './ratelimit/stores.js';
import { ANY_JSON_LIMITS, useBoundedJson } from './requests/jsonBody.js';
import { botCheckRoutes } from './routes/botcheck.js';
import { docsRoutes } from './routes/docs.js';
import { healthRoutes } from './routes/health.js';
import { intakeRoutes } from './routes/intake.js';
import { metadataRoutes } from './routes/metadata.js';
import { pdfRoutes } from './routes/pdf.js';
import { referenceRoutes } from './routes/reference.js';
import { searchRoutes } from './routes/search.js';
import { niaTestProvider, ssoRoutes } from './routes/sso.js';
import { ssoExtendRoutes } from './routes/ssoExtend.js';
import { statusRoutes } from './routes/status.js';
import { submitRoutes } from './routes/submit.js';
import { validateRoutes } from './routes/validate.js';
import { validityRoutes } from './routes/validity.js';
import { webRoutes } from './routes/web.js';
import type { ServerContext } from './services.js';
import { createServices, type ServiceOptions, type Services } from './services.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The app's services (services.ts): main.ts drains readiness through it; tests look inside. */
    readonly services: Services;
  }
}

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

/**
 * Fastify's trustProxy from ROS_TRUST_PROXY. A hop count becomes "trust the nearest N addresses",
 * counted from the socket (Fastify 5 itself now refuses a bare number): right only when the
 * server can be reached through those proxies alone; naming the proxies is safer (docs/SECURITY.md).
 */
function trustProxyOption(setting: false | number | string[]): FastifyServerOptions['trustProxy'] {
  if (typeof setting === 'number') return (_addr: string, i: number) => i < setting;
  return setting;
}

/**
 * The Fastify instance of one app. Its services (services.ts) are built here once, from the
 * context, unless the caller passes them (`services`) or replaces some (`serviceOptions`, tests);
 * either way the app owns them: they start when it becomes ready and stop when it closes. The
 * route plugins receive them in their options (`ServerContext`), never build their own.
 */
export async function buildApp(
  base: AppContext,
  opts: {
    logger?: FastifyServerOptions['logger'];
    services?: Services;
    serviceOptions?: ServiceOptions;
  } = {},
): Promise<FastifyInstance> {
  const app = Fastify({
    logger: opts.logger ?? false,
    // Only the named proxies (or hop count) are believed: see config/config.ts trustProxySetting.
    trustProxy: trustProxyOption(base.config.trustProxy),
    bodyLimit: 1024 * 1024,
    // While closing (after the drain, main.ts) a request that still arrives on an open connection is
    // served, not answered with Fastify's own 503 (which is not our error shape).
    return503OnClosing: false,
    requestTimeout: 30000,
    // A URL the router cannot decode (`/%zz`): answered here, before any hook, in the one shape.
    frameworkErrors: (err, _req, reply) => {
      const { status, body } = errorAnswer(err);
      void (reply as FastifyReply).status(status).headers(API_SECURITY_HEADERS).send(body);
    },
    // What Node's HTTP parser refuses (a raw non-ASCII path, broken headers): no request exists,
    // so the answer is written to the socket, in the same shape and with the same headers.
    clientErrorHandler: (err: Error & { code?: string }, socket: Socket) => {
      if (err.code === 'ECONNRESET' || socket.destroyed) return;
      if (socket.writable) socket.end(rawErrorResponse(err.code));
      else socket.destroy(err);
    },
  });

  const services = opts.services ?? createServices(base, app.log, opts.serviceOptions);
  const ctx: ServerContext = { config: base.config, db: base.db, version: base.version, services };
  app.decorate('services', services);
  app.addHook('onReady', () => services.start());
  app.addHook('onClose', () => services.close());

  // JSON is the only body the API reads: Fastify's own text/plain parser goes, so any other
  // media type is 415 UNSUPPORTED_MEDIA_TYPE (docs/errors.md), not a 400 from a route's checks.
  app.removeContentTypeParser('text/plain');
  // No JSON body is parsed before its shape is bounded (issue 11); each public POST sets its own limits.
  useBoundedJson(app, ANY_JSON_LIMITS);
  // Several instances on PostgreSQL count in the database, so that they do not double a limit
  // (ratelimit/stores.ts); a database hiccup lets the request through to fail (or not) on its own.
  // One process on SQLite counts in memory. Both over a sliding minute.
  await app.register(rateLimit, {
    global: false,
    // IPv4 clients by address, IPv6 clients by their /64 (ROS_RATE_LIMIT_IPV6_PREFIX; http/ipRanges.ts).
    keyGenerator: (req) => clientKey(req.ip, ctx.config.rateLimitIpv6Prefix),
    ...(ctx.db.dialect === 'postgres'
      ? { store: databaseRateLimitStore(ctx.db), skipOnError: true }
      : { store: MemoryRateLimitStore }),
  });

  app.setErrorHandler((err: FastifyError | ApiError, req, reply) => {
    // Every answer carries security headers: pages have helmet's; anything else gets the API's.
    if (!reply.hasHeader('content-security-policy')) reply.headers(API_SECURITY_HEADERS);
    if (err instanceof ApiError) {
      if (err.headers) reply.headers(err.headers);
      return reply.status(err.statusCode).send(apiErrorBody(err));
    }
    const { status, body } = errorAnswer(err);
    if (status >= 500)
      req.log.error(
        { err: { type: err.name, code: err.code, message: err.message, stack: err.stack } },
        'request failed',
      );
    return reply.status(status).send(body);
  });

  if (services.metrics && ctx.config.metricsToken) {
    installMetrics(app, services.metrics, ctx.config.metricsToken);
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
      // The reference lists: each encoding made once per version (http/encodedBody.ts), none per call.
      await api.register(referenceRoutes, ctx);
      await api.register(validityRoutes, ctx);
      await api.register(botCheckRoutes, ctx);
      await api.register(searchRoutes, ctx);
      await api.register(validateRoutes, ctx);
      await api.register(ssoRoutes, ctx);
      await api.register(ssoExtendRoutes, ctx);
      await api.register(submitRoutes, ctx);
      await api.register(pdfRoutes, ctx);
      await api.register(statusRoutes, ctx);
      // Unknown paths get the same answer as an unknown record (see routes/validity.ts).
      api.all('/*', async () => {
        throw notFound();
      });
    },
    { prefix: '/api/ros' },
  );
  // The authority's back office (docs/intake.md): bearer tokens, apart from the public API.
  await app.register(intakeRoutes, { ...ctx, prefix: INTAKE_API_BASE });
  // The authority's console for its staff (docs/console.md): pages under /urad, its sign-in and,
  // outside production, the local staff provider under /urad-test.
  await app.register(consoleRoutes, ctx);
  // The OpenAPI document of both APIs (docs/api.md).
  await app.register(docsRoutes, ctx);

  const webDir = ctx.config.webDir;
  if (webDir && existsSync(join(webDir, 'index.html'))) {
    await app.register(webRoutes, ctx);
  } else {
    // API only: unknown paths in the one error shape, with the API's headers.
    app.setNotFoundHandler((_req, reply) =>
      reply
        .status(404)
        .headers(API_SECURITY_HEADERS)
        .send({ error: { code: 'NOT_FOUND', message: 'Not found' } } satisfies ApiErrorBody),
    );
  }
  return app;
}
