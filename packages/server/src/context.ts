import type { Config } from './config/config.js';
import type { Db } from './db/database.js';

/**
 * Settings, database and version: what start-up work, `ros-admin` and the tests' helpers need,
 * and what buildApp (app.ts) is built from.
 */
export interface AppContext {
  config: Config;
  db: Db;
  version: string;
}

/**
 * What a service built from the settings and the database takes (mail queue, NIA, reference
 * data): not the version, and never the app's other services.
 */
export type ServiceContext = Pick<AppContext, 'config' | 'db'>;

// What every route plugin receives (`ServerContext`): services.ts, beside `Services`.
