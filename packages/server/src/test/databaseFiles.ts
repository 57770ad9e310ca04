import { accessSync, constants, existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import { overwriteFreedSpace } from '../retention/erase.js';

/**
 * The erasure tests' look into the database's own files (retention/erasure.test.ts,
 * retention/erasedAgain.test.ts): erased means gone from the bytes on disk, not only from the rows.
 */

/** Whether the bytes of any of these files hold `needle` (UTF-8). */
export function filesHolding(files: string[], needle: string): string[] {
  const bytes = Buffer.from(needle, 'utf8');
  return files.filter((f) => existsSync(f) && readFileSync(f).includes(bytes));
}

/** Every file (all segments) of the test schema's tables, their TOAST tables and indexes. */
export async function postgresFiles(db: Db): Promise<string[]> {
  const dir = await sql<{ data_directory: string }>`show data_directory`.execute(db.kysely);
  const dataDir = dir.rows[0]?.data_directory ?? '';
  const rels = await sql<{ path: string | null }>`
    with own as (
      select c.oid, c.reltoastrelid from pg_class c
      join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = current_schema() and c.relkind in ('r', 'i', 'm')
    )
    select pg_relation_filepath(oid) as path from own
    union select pg_relation_filepath(reltoastrelid) from own where reltoastrelid <> 0
    union select pg_relation_filepath(i.indexrelid) from pg_index i
      join own on own.reltoastrelid = i.indrelid
  `.execute(db.kysely);
  try {
    accessSync(join(dataDir, 'PG_VERSION'), constants.R_OK);
  } catch {
    const why = `PostgreSQL's data directory ${dataDir} cannot be read here: the erasure test needs the server on this machine`;
    if (process.env.CI === 'true') throw new Error(why);
    console.warn(`${why}; skipped`);
    return [];
  }
  const files: string[] = [];
  for (const { path } of rels.rows) {
    if (!path) continue;
    const base = join(dataDir, path);
    const folder = join(base, '..');
    const name = base.slice(folder.length + 1);
    // The main fork and its 1 GB segments (name, name.1, …).
    for (const f of readdirSync(folder))
      if (f === name || (/^\d+$/.test(f.slice(name.length + 1)) && f.startsWith(`${name}.`)))
        files.push(join(folder, f));
  }
  return files;
}

/**
 * PostgreSQL: until the purge's rewrite has run. It waits (stays owed in `leases`) while another
 * transaction older than the erasure is open, such as an autovacuum worker's on the fresh
 * database: run again until no rewrite is owed, as the next purge would.
 */
export async function rewritten(db: Db): Promise<void> {
  for (let i = 0; i < 300; i++) {
    const owed = await db.kysely
      .selectFrom('leases')
      .select('name')
      .where('name', 'like', 'vacuum-owed%')
      .execute();
    if (owed.length === 0) return;
    await new Promise((r) => setTimeout(r, 100));
    await overwriteFreedSpace(db);
  }
  throw new Error('the rewrite stayed owed');
}

/** The files of the database: SQLite's with its -wal and -shm, PostgreSQL's (after a CHECKPOINT). */
export async function databaseFiles(kind: string, db: Db, dataDir: string): Promise<string[]> {
  if (kind === 'sqlite') return ['', '-wal', '-shm'].map((x) => join(dataDir, `ros.sqlite${x}`));
  await sql`checkpoint`.execute(db.kysely);
  return postgresFiles(db);
}
