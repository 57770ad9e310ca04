import { existsSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import type { Config } from './config/config.js';
import { outboxDir } from './outbox.js';
import type { CodebookInUse } from './reference/index.js';

/**
 * What a person starting the portal reads (the JSON log lines on stdout stay for machines): one
 * line when it is ready, and one line for each thing switched off or missing, with what to do.
 * Written to stderr as plain text, so stdout stays JSON lines only. Called from main.ts.
 */
export interface StartupFacts {
  config: Config;
  dialect: 'sqlite' | 'postgres';
  codebook: CodebookInUse | undefined;
  /** Working folder the paths are shown relative to. */
  cwd?: string;
}

function where(path: string, cwd: string): string {
  const rel = relative(cwd, path);
  if (rel === '') return '.';
  return rel.startsWith('..') || rel.startsWith(sep) ? path : `.${sep}${rel}`;
}

/** "PostgreSQL at db.example:5432/ros" (never the user name or password). */
function postgresAt(url: string | undefined): string {
  try {
    const u = new URL(url ?? '');
    return `PostgreSQL at ${u.hostname}${u.port ? `:${u.port}` : ''}${u.pathname}`;
  } catch {
    return 'PostgreSQL';
  }
}

export function readyLine(f: StartupFacts): string {
  const cwd = f.cwd ?? process.cwd();
  const { config } = f;
  const storage =
    f.dialect === 'sqlite' ? `SQLite in ${where(config.dataDir, cwd)}` : postgresAt(config.databaseUrl);
  const demo = config.demoData ? 'demo data loaded' : 'no demo data';
  const municipalities = f.codebook ? `, ${f.codebook.municipalities} municipalities` : '';
  return `ROS portal ready at ${config.publicUrl} (${storage}, ${demo}${municipalities})`;
}

/** One line for each thing switched off or missing, saying what to do. */
export function notices(f: StartupFacts): string[] {
  const cwd = f.cwd ?? process.cwd();
  const { config } = f;
  const out: string[] = config.unknownSettings.map(
    (name) =>
      `${name} is not a setting of this server and is ignored (a typo? docs/configuration.md lists every setting); production refuses to start with it.`,
  );
  if (!config.webDir || !existsSync(join(config.webDir, 'index.html'))) {
    out.push(
      `Web app not built (${config.webDir ? where(config.webDir, cwd) : 'no ROS_WEB_DIR'}): only the API answers; run \`npm run build\`, or start with \`npm start\`.`,
    );
  }
  if (f.codebook?.notice) out.push(f.codebook.notice);
  if (config.niaTestProvider && !config.niaIssuer) {
    out.push(
      'NIA sign-in: the local test provider at /nia-test (test identities, not the real NIA); for the real one set ROS_NIA_TEST_PROVIDER=false, ROS_NIA_ISSUER, ROS_NIA_CLIENT_ID and ROS_NIA_CLIENT_SECRET (docs/nia.md).',
    );
  }
  if (config.consoleTestProvider) {
    out.push(
      "Console sign-in: the local staff provider at /urad-test (test staff, not the authority's provider) signs anyone in to /urad as a test reader, clerk or administrator; for the authority's one set ROS_CONSOLE_TEST_PROVIDER=off, ROS_CONSOLE_ISSUER, ROS_CONSOLE_CLIENT_ID and ROS_CONSOLE_CLIENT_SECRET (docs/console-signin.md).",
    );
  }
  if (config.useEid === 'NO')
    out.push('NIA sign-in is hidden (ROS_USE_EID=NO): set ROS_USE_EID=YES to offer it.');
  if (!config.smtpUrl) {
    out.push(
      `E-mail is not sent: confirmation e-mails are written to ${where(outboxDir(config), cwd)} as .eml files; set ROS_SMTP_URL to send them.`,
    );
  }
  return out;
}

/** Prints the ready line and the notices (stderr, plain text). */
export function printStartupReport(
  f: StartupFacts,
  write: (line: string) => void = (l) => process.stderr.write(`${l}\n`),
): void {
  write(readyLine(f));
  for (const n of notices(f)) write(`  - ${n}`);
}
