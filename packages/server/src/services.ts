import type { FastifyBaseLogger } from 'fastify';
import { type BotCheck, createBotCheck } from './botcheck/index.js';
import { type ConsoleAuthService, createConsoleAuthService } from './console/auth/service.js';
import type { AppContext } from './context.js';
import { type InstanceGroup, instanceGroup } from './instances.js';
import { MailQueue } from './mail/queue.js';
import { createMetrics, type Metrics } from './metrics/index.js';
import { createNiaService, type NiaService } from './nia/index.js';
import { type AccessCodes, createAccessCodes } from './notifications/accessCode.js';
import { PdfPool, type PdfPoolOptions } from './pdf/pool.js';
import { createSlidingWindowLimiter, type RateLimiter } from './ratelimit/limiter.js';
import { createReadiness, type Readiness } from './readiness.js';
import { createValidityCheck, type ValidityCheck } from './records/validityCheck.js';
import { createReferenceLists, type ReferenceLists } from './reference/index.js';
import { PurgeScheduler } from './retention/index.js';

/**
 * The composition root: every long-lived service of one app, built once here and handed to the
 * routes (`ServerContext.services`, below). Nothing is kept per config or per database at
 * module level: two apps in one process (tests) have two sets of services.
 *
 * Lifecycle: building starts nothing (no timer, no thread, no query). `start()` runs when the app
 * becomes ready (buildApp's onReady hook): the instance heartbeat, the validity index's first read
 * (awaited by readiness), the mail queue's polling and the retention purge. `close()` runs when
 * the app closes: the timers stop, the mail queue finishes its run, the PDF pool's workers end.
 */
export interface Services {
  /** The bot check of search and submit, and the ALTCHA challenges (one HMAC key per app). */
  readonly botCheck: BotCheck;
  /** NIA sign-in: the OpenID client and the local test provider, per public address. */
  readonly nia: NiaService;
  /** The console's staff sign-in: the client of the authority's provider and the local staff provider, per public address. */
  readonly consoleAuth: ConsoleAuthService;
  /** The reference lists as served, built once per data load. */
  readonly referenceLists: ReferenceLists;
  /** The validity check, answered from the in-memory index of the certificates. */
  readonly validity: ValidityCheck;
  /** The one PDF worker pool: the PDF download, the intake API's PDF and the mail queue share it. */
  readonly pdf: PdfPool;
  /** The status page's access codes (notifications/accessCode.ts). */
  readonly accessCodes: AccessCodes;
  /** The status page's per-address limit (ROS_RATE_LIMIT_STATUS, this instance's share). */
  readonly statusLimiter: RateLimiter;
  /** The reference lists and /api/docs, per client address (ROS_RATE_LIMIT_LISTS; this instance's share). */
  readonly listsLimiter: RateLimiter;
  /** The confirmation e-mail queue, also of the status notifications (sends in the background). */
  readonly mail: MailQueue;
  /** The retention purge (once per instance group, retention/scheduler.ts). */
  readonly purge: PurgeScheduler;
  /** What /readyz still waits for, and whether the server is draining. */
  readonly readiness: Readiness;
  /** The instances sharing this database (instances.ts). */
  readonly instances: InstanceGroup;
  /** Prometheus metrics, only when ROS_METRICS_TOKEN is set. */
  readonly metrics: Metrics | undefined;
  /** Starts timers and first loads (the app's onReady). */
  start(): Promise<void>;
  /** Stops them; safe to call once whether or not start() ran (the app's onClose). */
  close(): Promise<void>;
}

/**
 * What every route plugin receives: the app's context and its services, built once per app
 * (here). A route takes what it needs from `services`; it never builds one itself.
 */
export interface ServerContext extends AppContext {
  services: Services;
}

/** What a test may put in place of the built services. */
export interface ServiceOptions {
  botCheck?: BotCheck;
  pdfPool?: PdfPoolOptions;
  /** How often the reference lists look for an import by another process (ms; default 30 s). */
  referenceCheckMs?: number;
}

export function createServices(ctx: AppContext, log: FastifyBaseLogger, opts: ServiceOptions = {}): Services {
  const { config, db } = ctx;
  const instances = instanceGroup(db);
  const readiness = createReadiness();
  const validity = createValidityCheck(db, {
    refreshMs: config.validityRefreshMs,
    // This instance's share when several run on one database (instances.ts).
    perMinute: () => Math.max(1, Math.ceil(config.rateLimitValidityPerMinute / instances.live())),
    onError: (err) => log.warn({ err }, 'validity index: reading the certificates failed'),
  });
  const pdf = new PdfPool({ size: config.pdfWorkers || undefined, ...opts.pdfPool });
  const accessCodes = createAccessCodes(db, config);
  const statusLimiter = createSlidingWindowLimiter(() =>
    Math.max(1, Math.ceil(config.rateLimitStatusPerMinute / instances.live())),
  );
  const listsLimiter = createSlidingWindowLimiter(() =>
    Math.max(1, Math.ceil(config.rateLimitListsPerMinute / instances.live())),
  );
  const mail = new MailQueue(ctx, log, pdf, accessCodes);
  const purge = new PurgeScheduler(db, config, log);
  const metrics = config.metricsToken
    ? createMetrics(db, { validityIndexLoadedAt: () => validity.currentAt })
    : undefined;
  let closing: Promise<void> | undefined;

  return {
    botCheck: opts.botCheck ?? createBotCheck(config, db),
    nia: createNiaService(ctx),
    consoleAuth: createConsoleAuthService(ctx),
    referenceLists: createReferenceLists(db, opts.referenceCheckMs),
    validity,
    pdf,
    accessCodes,
    statusLimiter,
    listsLimiter,
    mail,
    purge,
    readiness,
    instances,
    metrics,
    async start() {
      await instances.start();
      const loaded = validity.start();
      readiness.waitFor('validity index', loaded);
      // A first read cut short by closing the app (tests close quickly) rejects: nothing to say then.
      loaded.then(
        () => log.info('validity index loaded: ready to answer checks'),
        () => {},
      );
      mail.start();
      mail.kick();
      purge.start();
    },
    close() {
      closing ??= (async () => {
        validity.close();
        // The queue first: its run in progress may still render a PDF.
        await mail.close();
        await purge.close();
        await pdf.close();
        await instances.stop();
      })();
      return closing;
    },
  };
}
