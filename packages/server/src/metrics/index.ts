import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { Db } from '../db/database.js';
import { ApiError } from '../errors.js';

/**
 * Prometheus metrics (docs/OPERATIONS.md "Monitoring"): served at GET /metrics only with
 * `Authorization: Bearer <ROS_METRICS_TOKEN>`; without the setting nothing is kept and the path
 * does not exist. Counters
 * and histograms are per process (Prometheus scrapes each instance and sums); the gauges read from
 * the database describe the whole instance group (the mail queue, stored requests), so alert on them
 * with max(), not sum().
 */
export interface Metrics {
  registry: Registry;
  requestDuration: Histogram<'method' | 'route' | 'status'>;
  submissions: Counter<'channel'>;
  botCheckFailures: Counter<'code'>;
}

/** What the gauges read besides the database: the app's other services (services.ts). */
export interface MetricSources {
  /** When the validity index last knew it was current (ms), undefined before its first load. */
  validityIndexLoadedAt: () => number | undefined;
}

/** Latency buckets in seconds: the validity check answers in ~1 ms, a PDF takes ~0.5 s. */
const BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export function createMetrics(db: Db, sources: MetricSources): Metrics {
  const registry = new Registry();
  // Process metrics: CPU, memory, event-loop delay (nodejs_eventloop_lag_*), GC, handles.
  collectDefaultMetrics({ register: registry, prefix: 'ros_' });

  const metrics: Metrics = {
    registry,
    requestDuration: new Histogram({
      name: 'ros_http_request_duration_seconds',
      help: 'Time from request to answer, by route pattern (never the path: it may hold tokens)',
      labelNames: ['method', 'route', 'status'] as const,
      buckets: BUCKETS,
      registers: [registry],
    }),
    submissions: new Counter({
      name: 'ros_submissions_total',
      help: 'Requests stored by this process, by channel (pdf: to print and sign; nia: after NIA sign-in)',
      labelNames: ['channel'] as const,
      registers: [registry],
    }),
    botCheckFailures: new Counter({
      name: 'ros_bot_check_failures_total',
      help: 'Bot-check tokens refused, by error code',
      labelNames: ['code'] as const,
      registers: [registry],
    }),
  };

  new Gauge({
    name: 'ros_mail_queue',
    help: 'Queued messages of every kind (confirmation e-mails, status e-mails and SMS) by status, whole instance group (failed = gave up, needs an operator: ros-admin mails)',
    labelNames: ['status'] as const,
    registers: [registry],
    async collect() {
      const counts = new Map<string, number>(
        ['pending', 'sending', 'retry', 'sent', 'failed'].map((s) => [s, 0]),
      );
      for (const table of ['request_mails', 'status_notices'] as const) {
        const rows = await db.kysely
          .selectFrom(table)
          .select(['status', (eb) => eb.fn.countAll<number | string>().as('n')])
          .groupBy('status')
          .execute();
        for (const r of rows) counts.set(r.status, (counts.get(r.status) ?? 0) + Number(r.n));
      }
      this.reset();
      for (const [status, n] of counts) this.set({ status }, n);
    },
  });

  new Gauge({
    name: 'ros_validity_index_age_seconds',
    help: 'How old the validity check’s in-memory copy of the certificates is (reloaded on change)',
    registers: [registry],
    collect() {
      const at = sources.validityIndexLoadedAt();
      this.set(at === undefined ? -1 : (Date.now() - at) / 1000);
    },
  });

  return metrics;
}

/** The route pattern of a request, or a fixed word: label values must stay few. */
function routeLabel(req: { routeOptions?: { url?: string } }): string {
  return req.routeOptions?.url || 'unmatched';
}

function tokenMatches(header: string | undefined, token: string): boolean {
  if (!header?.startsWith('Bearer ')) return false;
  const given = Buffer.from(header.slice(7));
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * Records every answer's duration and bot-check refusals, and serves GET /metrics to the holder of
 * `token`. Hooks go on the root instance (not an encapsulated plugin) so they see every route.
 */
export function installMetrics(app: FastifyInstance, metrics: Metrics, token: string): void {
  app.addHook('onResponse', (req, reply, done) => {
    metrics.requestDuration.observe(
      { method: req.method, route: routeLabel(req), status: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
    done();
  });
  app.addHook('onError', (_req, _reply, err, done) => {
    if (err instanceof ApiError && err.code.startsWith('BOT_CHECK_')) {
      metrics.botCheckFailures.inc({ code: err.code });
    }
    done();
  });
  app.get('/metrics', async (req, reply) => {
    if (!tokenMatches(req.headers.authorization, token)) {
      throw new ApiError(
        401,
        'UNAUTHORIZED',
        'Metrics need the bearer token of ROS_METRICS_TOKEN',
        undefined,
        {
          'www-authenticate': 'Bearer',
        },
      );
    }
    reply.header('cache-control', 'no-store');
    return reply.type(metrics.registry.contentType).send(await metrics.registry.metrics());
  });
}
