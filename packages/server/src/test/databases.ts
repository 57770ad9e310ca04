import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { type Config, loadConfig } from '../config/config.js';
import { type Db, openDatabase } from '../db/database.js';
import { migrateToLatest } from '../db/migrations.js';

/**
 * The storage and API tests run once on SQLite and once on PostgreSQL.
 * PostgreSQL: ROS_TEST_DATABASE_URL or postgres://postgres@127.0.0.1:5432/test; each test
 * database gets its own schema, dropped afterwards. With CI=true an unreachable PostgreSQL
 * fails the suite; elsewhere the PostgreSQL half is skipped with a warning.
 */
export const PG_URL = process.env.ROS_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export interface TestDb {
  db: Db;
  config: Config;
  dataDir: string;
  cleanup(): Promise<void>;
}

export type TestDbKind = 'sqlite' | 'postgres';

let pgReachable: boolean | undefined;
export async function postgresReachable(): Promise<boolean> {
  if (pgReachable !== undefined) return pgReachable;
  const client = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('select 1');
    pgReachable = true;
  } catch {
    pgReachable = false;
  } finally {
    await client.end().catch(() => {});
  }
  return pgReachable;
}

/** Kinds to run: both when PostgreSQL answers (or in CI, where it must), else SQLite only. */
export async function testDbKinds(): Promise<TestDbKind[]> {
  if (process.env.CI === 'true' || (await postgresReachable())) return ['sqlite', 'postgres'];
  console.warn(`PostgreSQL at ${PG_URL} is not reachable: running the SQLite half only`);
  return ['sqlite'];
}

/** A fresh, migrated database of the given kind and a config pointing at it. */
export async function createTestDb(
  kind: TestDbKind,
  env: Record<string, string> = {},
  opts: { ownDatabase?: boolean } = {},
): Promise<TestDb> {
  const dataDir = mkdtempSync(join(tmpdir(), 'ros-test-'));
  let databaseUrl: string | undefined;
  let dropSchema: (() => Promise<void>) | undefined;
  if (kind === 'postgres' && opts.ownDatabase) {
    // A database of its own: what VACUUM may remove depends on the open transactions of the
    // database (other tests' included), so a test of it must not share one.
    const name = `ros_t_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 5000 });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const url = new URL(PG_URL);
    url.pathname = `/${name}`;
    databaseUrl = url.toString();
    dropSchema = async () => {
      const c = new pg.Client({ connectionString: PG_URL });
      await c.connect();
      await c.query(`drop database ${name} with (force)`);
      await c.end();
    };
  } else if (kind === 'postgres') {
    const schema = `t_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 5000 });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    await admin.end();
    const url = new URL(PG_URL);
    url.searchParams.set('options', `-c search_path=${schema}`);
    databaseUrl = url.toString();
    dropSchema = async () => {
      const c = new pg.Client({ connectionString: PG_URL });
      await c.connect();
      await c.query(`drop schema ${schema} cascade`);
      await c.end();
    };
  }
  const config = loadConfig(
    {
      ROS_DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      ROS_DEMO_DATA: 'false',
      ROS_REFERENCE_DOWNLOAD: 'false',
      // No retention purge when a test app starts (it would erase back-dated test requests);
      // the purge's own tests switch it on.
      ROS_PURGE_INTERVAL_MINUTES: '0',
      ...env,
    },
    { databaseUrl },
  );
  const db = openDatabase({ databaseUrl, dataDir });
  try {
    await migrateToLatest(db.kysely, db.dialect);
  } catch (err) {
    await db.close();
    await dropSchema?.();
    rmSync(dataDir, { recursive: true, force: true });
    throw err;
  }
  // Once: a test file whose next set-up failed cleans up the database of the test before again
  // (its `t` still points there), which would bury the set-up's error under "schema … does not exist".
  let cleaned = false;
  return {
    db,
    config,
    dataDir,
    async cleanup() {
      if (cleaned) return;
      cleaned = true;
      await db.close();
      await dropSchema?.();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
