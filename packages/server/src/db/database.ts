import { existsSync } from 'node:fs';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import { ensurePrivateDir, ensurePrivateFile } from '../privateFiles.js';
import type { Database } from './schema.js';

export type DialectName = 'sqlite' | 'postgres';

export interface Db {
  kysely: Kysely<Database>;
  dialect: DialectName;
  /** The better-sqlite3 handle (SQLite only), for the few hot lookups that use prepared statements. */
  sqlite?: SQLite.Database;
  close(): Promise<void>;
}

// int8 (bigint) and numeric come back as strings from pg by default; our ids fit in a double.
pg.types.setTypeParser(20, (v) => Number(v));

export function openDatabase(opts: { databaseUrl?: string; dataDir: string; sqliteFile?: string }): Db {
  if (opts.databaseUrl) {
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: 10 });
    // A connection that breaks while idle in the pool (PostgreSQL restarted, a failover, an
    // administrator's pg_terminate_backend) is dropped by the pool, which opens a new one when
    // next asked. Without a listener, node-postgres throws that error and the process stops.
    pool.on('error', (err) => {
      process.emitWarning(
        `PostgreSQL dropped an idle connection (${(err as { code?: string }).code ?? err.message})`,
      );
    });
    const kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return { kysely, dialect: 'postgres', close: () => kysely.destroy() };
  }
  const file = opts.sqliteFile ?? join(opts.dataDir, 'ros.sqlite');
  if (file !== ':memory:') {
    // Personal data: owner only. SQLite makes its -wal and -shm files with the database file's mode.
    ensurePrivateDir(opts.dataDir);
    ensurePrivateFile(file);
    for (const extra of [`${file}-wal`, `${file}-shm`]) if (existsSync(extra)) ensurePrivateFile(extra);
  }
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  // Erased means erased (issue 21): deleted and overwritten content is zeroed in the file, not
  // left in free space for a copy of the file to give back (retention/erase.ts).
  sqlite.pragma('secure_delete = ON');
  const kysely = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
  return { kysely, dialect: 'sqlite', sqlite, close: () => kysely.destroy() };
}
