import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from './config/config.js';
import type { CodebookInUse } from './reference/index.js';
import { notices, printStartupReport, readyLine } from './startupReport.js';

const cwd = mkdtempSync(join(tmpdir(), 'ros-report-'));
const web = join(cwd, 'web');
mkdirSync(web);
writeFileSync(join(web, 'index.html'), '<!doctype html>');
afterAll(() => rmSync(cwd, { recursive: true, force: true }));

const builtin: CodebookInUse = {
  kind: 'builtin',
  origin: 'the built-in codebook',
  snapshot: 'spring 2024',
  importedAt: '2026-01-01T00:00:00.000Z',
  districts: 77,
  municipalities: 6258,
  current: true,
};

function facts(env: Record<string, string>, codebook: CodebookInUse | undefined = builtin) {
  const config = loadConfig({ ROS_DATA_DIR: join(cwd, 'data'), ...env });
  config.webDir ??= web;
  return { config, dialect: config.databaseUrl ? ('postgres' as const) : ('sqlite' as const), codebook, cwd };
}

describe('the start-up report', () => {
  it('prints the ready line of the plain start and what is switched off, with what to do', () => {
    const lines: string[] = [];
    printStartupReport(facts({}), (l) => lines.push(l));
    expect(lines[0]).toBe(
      'ROS portal ready at http://localhost:8080 (SQLite in ./data, demo data loaded, 6258 municipalities)',
    );
    expect(lines.slice(1).every((l) => l.startsWith('  - '))).toBe(true);
    expect(lines.join('\n')).toMatch(
      /NIA sign-in: the local test provider .*set ROS_NIA_TEST_PROVIDER=false/,
    );
    expect(lines.join('\n')).toMatch(/E-mail is not sent: .*\.\/data\/outbox .*set ROS_SMTP_URL/);
    expect(lines).toContain(
      "  - Console sign-in: the local staff provider at /urad-test (test staff, not the authority's provider) signs anyone in to /urad as a test reader, clerk or administrator; for the authority's one set ROS_CONSOLE_TEST_PROVIDER=off, ROS_CONSOLE_ISSUER, ROS_CONSOLE_CLIENT_ID and ROS_CONSOLE_CLIENT_SECRET (docs/console-signin.md).",
    );
    expect(lines).toHaveLength(4);
  });

  it('names PostgreSQL without its credentials, and says when there is no demo data', () => {
    const f = facts({
      DATABASE_URL: 'postgres://ros:secret@db.example:5432/ros',
      ROS_DEMO_DATA: 'false',
      PORT: '9090',
    });
    expect(readyLine(f)).toBe(
      'ROS portal ready at http://localhost:9090 (PostgreSQL at db.example:5432/ros, no demo data, 6258 municipalities)',
    );
    expect(readyLine(f)).not.toContain('secret');
  });

  it('has nothing to say when everything is set up for real', () => {
    const f = facts({
      ROS_NIA_TEST_PROVIDER: 'false',
      ROS_NIA_ISSUER: 'https://nia.example',
      ROS_NIA_CLIENT_ID: 'id',
      ROS_NIA_CLIENT_SECRET: 'secret',
      ROS_SMTP_URL: 'smtp://mail.example:587',
      ROS_CONSOLE_TEST_PROVIDER: 'off',
      ROS_CONSOLE_ISSUER: 'https://login.urad.example',
      ROS_CONSOLE_CLIENT_ID: 'ros-console',
      ROS_CONSOLE_CLIENT_SECRET: 'secret',
    });
    expect(notices(f)).toEqual([]);
    // The console switched off says nothing of its provider either.
    expect(notices(facts({ ROS_CONSOLE: 'off' })).join('\n')).not.toMatch(/Console sign-in/);
  });

  it('says when the web app is not built, sign-in is hidden, or the codebook asked for did not load', () => {
    const f = facts(
      { ROS_USE_EID: 'NO', ROS_WEB_DIR: join(cwd, 'nothing') },
      {
        ...builtin,
        notice: 'ČSÚ codebook from ROS_REFERENCE_DIR not loaded: x. The built-in codebook is used.',
      },
    );
    const n = notices(f).join('\n');
    expect(n).toMatch(/^Web app not built \(\.\/nothing\): only the API answers; run `npm run build`/);
    expect(n).toMatch(/NIA sign-in is hidden \(ROS_USE_EID=NO\)/);
    expect(n).toMatch(/ROS_REFERENCE_DIR not loaded/);
  });
});
