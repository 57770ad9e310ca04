import type { BotCheck } from './botcheck/index.js';
import type { Config } from './config.js';
import type { Db } from './db/database.js';
import type { Metrics } from './metrics/index.js';
import type { InstanceGroup } from './sharedLimits.js';

/** What every route module receives. Services are added here as they are built. */
export interface AppContext {
  config: Config;
  db: Db;
  version: string;
  /** The bot-check service; built from config on first use when not given (tests may pass one). */
  botCheck?: BotCheck;
  /** Prometheus metrics; built by buildApp when ROS_METRICS_TOKEN is set, else absent (nothing kept). */
  metrics?: Metrics;
  /** The instances sharing this database (sharedLimits.ts); built by buildApp when not given. */
  instances?: InstanceGroup;
}
