import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { notices } from '../startupReport.js';
import { ConfigError, loadConfig, OTHER_ROS_VARIABLES, SERVER_SETTINGS, startWarnings } from './config.js';

const src = fileURLToPath(new URL('..', import.meta.url));
const docs = readFileSync(
  fileURLToPath(new URL('../../../../docs/configuration.md', import.meta.url)),
  'utf8',
);

/** The server's own source files (not tests, not test helpers). */
function sources(dir = src): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'test' ? [] : sources(path);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [path] : [];
  });
}

describe('one list of the settings (SERVER_SETTINGS)', () => {
  it('is the table of docs/configuration.md, in its order', () => {
    const documented = [...docs.matchAll(/^\| `([A-Z][A-Z0-9_]*)` \|/gm)].map((m) => m[1]);
    expect(documented).toEqual([...SERVER_SETTINGS]);
  });

  it('holds every ROS_ variable the server reads', () => {
    const read = new Set<string>();
    for (const file of sources()) {
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(/\benv(?:\.|\[')(ROS_[A-Z0-9_]+)/g)) read.add(m[1] as string);
      for (const m of text.matchAll(/\b(?:int|num|oneOf|bool)\('(ROS_[A-Z0-9_]+)'/g))
        read.add(m[1] as string);
    }
    expect(read.size).toBeGreaterThan(40);
    const settings = new Set<string>(SERVER_SETTINGS);
    expect([...read].filter((name) => !settings.has(name))).toEqual([]);
    expect(OTHER_ROS_VARIABLES.filter((name) => settings.has(name))).toEqual([]);
  });
});

/** Issue 33 item 11: `ROS_DATABASE_URL` was ignored in silence and production started on SQLite. */
describe('a ROS_ variable that is no setting', () => {
  const value = 'postgres://ros:s3cret-value@db.example/ros';

  it('is warned at start outside production, by name, never with its value', () => {
    const c = loadConfig({ ROS_DATABASE_URL: value, ROS_E2E_PORT: '4284' });
    expect(c.unknownSettings).toEqual(['ROS_DATABASE_URL']);
    const warnings = startWarnings(c);
    expect(warnings).toEqual([
      expect.stringMatching(/^WARNING: ROS_DATABASE_URL is not a setting of this server/),
    ]);
    expect(warnings.join('\n')).not.toContain('s3cret');
    const told = notices({ config: c, dialect: 'sqlite', codebook: undefined });
    expect(told.some((line) => line.startsWith('ROS_DATABASE_URL is not a setting'))).toBe(true);
    expect(told.join('\n')).not.toContain('s3cret');
  });

  it('is refused in production, one line each; the tools’ own variables are not', () => {
    const env = {
      NODE_ENV: 'production',
      ROS_PUBLIC_URL: 'https://ros.example.cz',
      ROS_USE_EID: 'NO',
      ROS_ALTCHA_HMAC_KEY: randomBytes(32).toString('hex'),
      ROS_STATUS_KEY: randomBytes(32).toString('hex'),
      ROS_UPSTREAMS: 'server 10.0.0.5:8080;',
      ROS_TLS_CERT: '/etc/ros/tls.crt',
    };
    expect(() => loadConfig(env)).not.toThrow();
    try {
      loadConfig({ ...env, ROS_DATABASE_URL: value, ROS_RATE_LIMT_SEARCH: '5' });
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      const problems = (err as ConfigError).problems;
      expect(problems).toEqual([
        expect.stringMatching(/^ROS_DATABASE_URL is not a setting of this server/),
        expect.stringMatching(/^ROS_RATE_LIMT_SEARCH is not a setting of this server/),
      ]);
      expect(problems.join('\n')).not.toContain('s3cret');
    }
  });
});
