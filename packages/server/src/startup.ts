import type { FastifyBaseLogger } from 'fastify';
import { startWarnings } from './config/config.js';
import type { AppContext } from './context.js';
import { underStartupLock } from './db/startupLock.js';
import { seedDemoPersons } from './demo/persons.js';
import { seedDemoRecords } from './demo/records.js';
import { type CodebookInUse, ensureReferenceData } from './reference/index.js';

/**
 * Work done once at start, after migrations: reference data, then (unless switched off)
 * the documented demo certificates and people. Each step is idempotent, and instances that start
 * together on one PostgreSQL database take turns (db/startupLock.ts).
 */
export async function startup(
  ctx: AppContext,
  log: FastifyBaseLogger,
): Promise<{ codebook?: CodebookInUse }> {
  // Test aids switched on in production: said loudly at every start (config/config.ts).
  for (const line of startWarnings(ctx.config)) log.warn(line);
  return underStartupLock(
    ctx.db,
    ctx.config.databaseUrl,
    async () => {
      const codebook = await ensureReferenceData(ctx, log);
      if (ctx.config.demoData) {
        await seedDemoRecords(ctx.db);
        await seedDemoPersons(ctx.db);
        log.info('demo data present (ROS_DEMO_DATA=false switches it off)');
      }
      return { codebook };
    },
    log,
  );
}
