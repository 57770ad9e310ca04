#!/usr/bin/env node
import { ConfigError, loadConfig } from './config/config.js';
/**
 * ros-admin: the operators' command-line tool. Uses the same settings (environment
 * variables) as the server, so it works on the same database.
 *
 *   ros-admin reference import [--dir DIR] | status
 *   ros-admin records load FILE | issue … | revoke ID | show ID | demo-links
 *   ros-admin persons load FILE | show ID | find …
 *   ros-admin mails list [--status S] [--limit N] | resend REFERENCE|REQUEST_ID [--force] | resend-notices [REF]
 *   ros-admin requests list | show REF | export … | received REF | overdue   (docs/intake.md)
 *   ros-admin tokens create --name N --scopes S | list | revoke NAME
 *   ros-admin audit list [--since DATE] [--target REF]
 *   ros-admin purge [--dry-run]
 *   ros-admin backup FILE [--force]
 */
import type { AppContext } from './context.js';
import { openDatabase } from './db/database.js';
import { migrateToLatest } from './db/migrations.js';
import { readVersion } from './version.js';

type CommandModule = {
  run(args: string[], ctx: AppContext, out: (line: string) => void): Promise<number>;
};

const COMMANDS: Record<string, { describe: string; load: () => Promise<CommandModule> }> = {
  reference: { describe: 'import or inspect the ČSÚ codebooks', load: () => import('./cli/reference.js') },
  records: { describe: 'load, issue, revoke and show certificates', load: () => import('./cli/records.js') },
  persons: { describe: 'load and inspect the register of persons', load: () => import('./cli/persons.js') },
  mails: { describe: 'list and re-send queued e-mails and SMS', load: () => import('./cli/mails.js') },
  requests: {
    describe: 'list, show, export and mark received submitted requests',
    load: () => import('./cli/requests.js'),
  },
  tokens: { describe: 'create, list and revoke intake API tokens', load: () => import('./cli/tokens.js') },
  audit: { describe: 'list the audit trail', load: () => import('./cli/audit.js') },
  purge: {
    describe: 'erase what retention says is due (--dry-run: only list)',
    load: () => import('./cli/purge.js'),
  },
  backup: {
    describe: 'copy the SQLite database while the server runs',
    load: () => import('./cli/backup.js'),
  },
};

function usage(out: (line: string) => void): void {
  out('Usage: ros-admin <command> [arguments]');
  for (const [name, c] of Object.entries(COMMANDS)) out(`  ${name.padEnd(10)} ${c.describe}`);
}

export async function runCli(argv: string[], out: (line: string) => void = console.log): Promise<number> {
  const [name, ...args] = argv;
  const command = name ? COMMANDS[name] : undefined;
  if (!command) {
    usage(out);
    return name && name !== '--help' && name !== 'help' ? 2 : 0;
  }
  const config = loadConfig(process.env);
  const db = openDatabase(config);
  try {
    await migrateToLatest(db.kysely, db.dialect);
    const mod = await command.load();
    return await mod.run(args, { config, db, version: readVersion() }, out);
  } finally {
    await db.close();
  }
}

runCli(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    console.error(
      err instanceof ConfigError
        ? err.message
        : `ros-admin: ${err instanceof Error ? err.message : String(err)}`,
    );
    process.exit(1);
  },
);
