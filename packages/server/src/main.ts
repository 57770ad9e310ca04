#!/usr/bin/env node
import { fileURLToPath } from 'node:url';
import { buildApp, loggerOptions } from './app.js';
import { ConfigError, loadConfig } from './config/config.js';
import { openDatabase } from './db/database.js';
import { migrateToLatest } from './db/migrations.js';
import { startup } from './startup.js';
import { printStartupReport } from './startupReport.js';
import { readVersion } from './version.js';

async function main(): Promise<void> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig(process.env);
    // The built web app beside this package, unless ROS_WEB_DIR names another folder.
    config.webDir ??= fileURLToPath(new URL('../../web/dist', import.meta.url));
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(2);
    }
    throw err;
  }
  const db = openDatabase(config);
  await migrateToLatest(db.kysely, db.dialect);
  const ctx = { config, db, version: readVersion() };
  // The app and its services (services.ts), built once: they start when it listens, stop when it closes.
  const app = await buildApp(ctx, { logger: loggerOptions(config.logLevel) });
  const started = await startup(ctx, app.log);

  // Drain (docs/OPERATIONS.md "Deploying a new version"): on SIGTERM the server first says it is
  // not ready (/readyz 503 draining) while it keeps serving old and new requests for the grace
  // period, so a proxy moves traffic away; then it stops listening (a proxy's next connection is
  // refused and goes to another instance, even a POST) and finishes what is in flight.
  // Ctrl+C (SIGINT) in a terminal skips the grace period.
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    const graceMs = signal === 'SIGTERM' ? config.shutdownGraceMs : 0;
    const timer = setTimeout(() => {
      app.log.error('shutdown took longer than the grace period and 10 s: exiting');
      process.exit(1);
    }, graceMs + 10000);
    timer.unref();
    if (graceMs > 0) {
      app.services.readiness.drain();
      app.log.info({ signal, graceMs }, 'draining: not ready, still serving during the grace period');
      await new Promise((r) => setTimeout(r, graceMs));
    }
    app.log.info({ signal }, 'shutting down: finishing requests in flight');
    await app.close();
    await db.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
  app.log.info(
    { database: db.dialect, dataDir: config.dataDir },
    `ROS portal listening on port ${config.port}`,
  );
  // For people: one plain line when ready, one per thing switched off or missing (stderr).
  printStartupReport({ config, dialect: db.dialect, codebook: started.codebook });
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
