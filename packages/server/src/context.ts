import type { Config } from './config.js';
import type { Db } from './db/database.js';
import type { Services } from './services.js';

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
 * What every route plugin receives: the app's context and its services, built once per app
 * (services.ts). A route takes what it needs from `services`; it never builds one itself.
 */
export interface ServerContext extends AppContext {
  services: Services;
}
