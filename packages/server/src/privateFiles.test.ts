import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from './config/config.js';
import { openDatabase } from './db/database.js';
import { migrateToLatest } from './db/migrations.js';
import { createTransport } from './mail/transport.js';

/** Personal data on disk is the owner's only: folders 0700, files 0600 (issue 11). */
const mode = (p: string) => statSync(p).mode & 0o777;

describe('file permissions of the data folder', () => {
  let base: string;
  const old = process.umask(0o022);
  beforeAll(() => {
    base = mkdtempSync(join(tmpdir(), 'ros-perm-'));
  });
  afterAll(() => {
    process.umask(old);
    rmSync(base, { recursive: true, force: true });
  });

  it('the SQLite file, its -wal and -shm files: 0600, the data folder 0700', async () => {
    const dataDir = join(base, 'data');
    const db = openDatabase({ dataDir });
    try {
      await migrateToLatest(db.kysely, db.dialect);
      await sql`insert into counters (name, value) values ('x', 1)`.execute(db.kysely);
      expect(mode(dataDir)).toBe(0o700);
      for (const f of readdirSync(dataDir)) expect([f, mode(join(dataDir, f))]).toEqual([f, 0o600]);
      expect(readdirSync(dataDir)).toEqual(expect.arrayContaining(['ros.sqlite', 'ros.sqlite-wal']));
    } finally {
      await db.close();
    }
  });

  it('tightens a data folder and database an older version left world-readable', async () => {
    const dataDir = join(base, 'old');
    mkdirSync(dataDir, { mode: 0o755 });
    chmodSync(dataDir, 0o755);
    writeFileSync(join(dataDir, 'ros.sqlite'), '');
    chmodSync(join(dataDir, 'ros.sqlite'), 0o644);
    const db = openDatabase({ dataDir });
    await db.close();
    expect(mode(dataDir)).toBe(0o700);
    expect(mode(join(dataDir, 'ros.sqlite'))).toBe(0o600);
  });

  it('outbox/*.eml: 0600 in a 0700 folder, also messages an older version wrote', async () => {
    const dataDir = join(base, 'mail');
    const outbox = join(dataDir, 'outbox');
    mkdirSync(outbox, { recursive: true, mode: 0o755 });
    chmodSync(outbox, 0o755);
    writeFileSync(join(outbox, 'OLD-1.eml'), 'old message');
    chmodSync(join(outbox, 'OLD-1.eml'), 0o644);
    const transport = createTransport(loadConfig({ ROS_DATA_DIR: dataDir }));
    try {
      await transport.send({ from: 'a@example.cz', to: 'b@example.cz', subject: 's', text: 't' }, 'R-1');
    } finally {
      transport.close();
    }
    expect(mode(outbox)).toBe(0o700);
    expect(mode(join(outbox, 'R-1.eml'))).toBe(0o600);
    expect(mode(join(outbox, 'OLD-1.eml'))).toBe(0o600);
  });
});
