import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app.js';
import type { AppContext } from '../context.js';
import { createTestDb, type TestDb, type TestDbKind } from './databases.js';
import { seedFormData } from './seed.js';

/**
 * What most API tests start from: the app on a fresh database of the given kind with the form's
 * reference data (seedFormData), ready for `inject`. `stop` closes the app and drops the database.
 */
export async function startFormApp(
  kind: TestDbKind,
  env: Record<string, string> = {},
): Promise<{ t: TestDb; app: FastifyInstance; stop: () => Promise<void> }> {
  const t = await createTestDb(kind, env);
  const ctx: AppContext = { config: t.config, db: t.db, version: 'test' };
  await seedFormData(ctx);
  const app = await buildApp(ctx);
  await app.ready();
  return {
    t,
    app,
    async stop() {
      await app.close();
      await t.cleanup();
    },
  };
}
