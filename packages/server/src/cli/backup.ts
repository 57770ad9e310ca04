import { closeSync, openSync, rmSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import SQLite from 'better-sqlite3';
import type { AppContext } from '../context.js';
import { usagePrinter } from './dispatch.js';

/**
 * `ros-admin backup FILE`: a consistent copy of the embedded SQLite database while the portal
 * serves (docs/OPERATIONS.md "Backups"). `VACUUM INTO` copies one read transaction's snapshot:
 * in WAL mode the server keeps writing meanwhile, and unlike SQLite's page-by-page backup API
 * the copy never restarts when another process writes. On PostgreSQL the command prints the
 * `pg_dump` line to use instead. Exit codes: 0 written, 1 refused or failed, 2 wrong usage.
 */

const USAGE = [
  'Usage: ros-admin backup FILE [--force]',
  '  writes a consistent copy of the SQLite database to FILE (mode 0600) while the server runs,',
  '  then checks it (integrity, requests counted); --force replaces an existing FILE.',
  '  On PostgreSQL it prints the pg_dump command to use.',
];

const usage = usagePrinter('backup', USAGE);

/**
 * The documented PostgreSQL backup: a custom-format dump, restored with pg_restore. pg_dump
 * creates its file with the shell's umask (0644 with the usual 022): `umask 077` first makes it
 * 0600 like everything else that holds personal data (issue 21).
 */
export const PG_DUMP_LINE = '(umask 077 && pg_dump --format=custom --no-owner --file=FILE "$DATABASE_URL")';

export async function run(args: string[], ctx: AppContext, out: (line: string) => void): Promise<number> {
  let parsed: ReturnType<typeof parseOptions>;
  try {
    parsed = parseOptions(args);
  } catch (err) {
    return usage(out, err instanceof Error ? err.message : String(err));
  }
  const { values, positionals } = parsed;
  if (positionals.length === 0 || positionals[0] === 'help' || positionals[0] === '--help') {
    return usage(out, positionals.length === 0 ? 'name the file to write' : undefined);
  }
  if (positionals.length > 1) return usage(out, `unexpected argument "${positionals[1]}"`);
  const file = resolve(positionals[0] as string);

  if (ctx.db.dialect === 'postgres' || !ctx.db.sqlite) {
    out('The database is PostgreSQL: back it up with pg_dump (docs/OPERATIONS.md "Backups"):');
    out(`  ${PG_DUMP_LINE.replace('FILE', file)}`);
    return 1;
  }

  // The copy holds personal data: create it readable by its owner only, before SQLite writes to
  // it (VACUUM INTO accepts an existing empty file and keeps its mode).
  if (values.force) rmSync(file, { force: true });
  try {
    closeSync(openSync(file, 'wx', 0o600));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    out(
      code === 'EEXIST'
        ? `ros-admin backup: ${file} exists (--force replaces it)`
        : `ros-admin backup: cannot create ${file} (${code ?? String(err)})`,
    );
    return 1;
  }

  const started = Date.now();
  try {
    ctx.db.sqlite.prepare('VACUUM INTO ?').run(file);
  } catch (err) {
    rmSync(file, { force: true });
    out(`ros-admin backup: the copy failed: ${err instanceof Error ? err.message : String(err)}`);
    return 1;
  }
  const check = verifyBackup(file);
  if (!check.ok) {
    out(`ros-admin backup: the copy in ${file} failed its check: ${check.problem}`);
    return 1;
  }
  const mb = (statSync(file).size / 1024 / 1024).toFixed(1);
  out(
    `Backup written to ${file}: ${mb} MB, ${check.requests} requests, ${check.records} certificates, ` +
      `integrity ok, in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  return 0;
}

function parseOptions(args: string[]) {
  return parseArgs({ args, allowPositionals: true, options: { force: { type: 'boolean' } } });
}

type BackupCheck = { ok: true; requests: number; records: number } | { ok: false; problem: string };

/** Opens the copy read-only: SQLite's integrity check, and the rows that matter most counted. */
export function verifyBackup(file: string): BackupCheck {
  let db: SQLite.Database | undefined;
  try {
    const copy = new SQLite(file, { readonly: true, fileMustExist: true });
    db = copy;
    const integrity = copy.pragma('integrity_check', { simple: true });
    if (integrity !== 'ok') return { ok: false, problem: String(integrity) };
    const count = (table: string) =>
      (copy.prepare(`select count(*) as n from ${table}`).get() as { n: number }).n;
    return { ok: true, requests: count('requests'), records: count('records') };
  } catch (err) {
    return { ok: false, problem: err instanceof Error ? err.message : String(err) };
  } finally {
    db?.close();
  }
}
