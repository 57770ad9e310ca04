import { spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { openDatabase } from '../db/database.js';
import { migrateToLatest } from '../db/migrations.js';
import { agreed, newApplicant } from '../test/applicant.js';
import { solvedToken } from '../test/botcheck.js';
import { createTestDb, type TestDb, testDbKinds } from '../test/databases.js';
import { seedFormData } from '../test/seed.js';
import { PG_DUMP_LINE, verifyBackup } from './backup.js';

const serverDir = fileURLToPath(new URL('../..', import.meta.url));

/** Runs `ros-admin` from source in its own process, as an operator would beside the server. */
function rosAdmin(args: string[], env: Record<string, string>): Promise<{ code: number; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...args], {
      cwd: serverDir,
      env: { ...process.env, LOG_LEVEL: 'silent', ...env },
    });
    let out = '';
    child.stdout.on('data', (b) => {
      out += b;
    });
    child.stderr.on('data', (b) => {
      out += b;
    });
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code: code ?? -1, out }));
  });
}

describe('ros-admin backup (SQLite, while the server takes requests)', () => {
  let t: TestDb;
  let app: FastifyInstance;
  const work = mkdtempSync(join(tmpdir(), 'ros-backup-'));

  beforeAll(async () => {
    t = await createTestDb('sqlite', { ROS_ALTCHA_MAX_NUMBER: '1000', ROS_RATE_LIMIT_SEARCH: '100000' });
    const ctx = { config: t.config, db: t.db, version: 'test' };
    await seedFormData(ctx);
    app = await buildApp(ctx);
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await t?.cleanup();
    rmSync(work, { recursive: true, force: true });
  });

  it('copies every request acknowledged before it began, under submit load, and restores', async () => {
    const acknowledged: string[] = [];
    let n = 0;
    let stop = false;
    const failures: string[] = [];
    const worker = async () => {
      while (!stop) {
        const i = n++;
        const res = await app.inject({
          method: 'POST',
          url: '/api/ros',
          headers: { 'content-type': 'application/json', recaptcha: await solvedToken(app) },
          payload: {
            ...newApplicant({ email: `zofie.${i}@example.cz` }),
            language: 'cs',
            duplicate: false,
            ...agreed(),
          },
        });
        if (res.statusCode === 201) {
          acknowledged.push((res.json() as { reference: string }).reference);
        } else {
          failures.push(`${res.statusCode} ${res.body.slice(0, 300)}`);
          stop = true;
        }
      }
    };
    const load = [worker(), worker(), worker()];
    const waitFor = async (count: number) => {
      while (acknowledged.length < count && failures.length === 0)
        await new Promise((r) => setTimeout(r, 20));
    };
    try {
      await waitFor(20);
    } catch (err) {
      stop = true;
      await Promise.allSettled(load);
      throw err;
    }
    if (failures.length) {
      await Promise.allSettled(load);
      expect(failures).toEqual([]);
    }

    const file = join(work, 'ros-backup.sqlite');
    // Everything acknowledged so far was acknowledged before the backup begins (no await between;
    // comparing millisecond times lost an acknowledgement of the same millisecond once).
    const before = [...acknowledged];
    const backup = await rosAdmin(['backup', file], { ROS_DATA_DIR: t.dataDir });
    const afterBackup = acknowledged.length;
    stop = true;
    await Promise.all(load);

    expect(backup.out).toContain('integrity ok');
    expect(backup.code, backup.out).toBe(0);
    expect(failures).toEqual([]);
    // The load went on while the copy was taken (the backup did not stop the server).
    expect(afterBackup).toBeGreaterThan(before.length);
    expect(statSync(file).mode & 0o777).toBe(0o600);

    // Restore: the copy becomes the database of a fresh data folder.
    const restoredDir = join(work, 'restored');
    rmSync(restoredDir, { recursive: true, force: true });
    const restored = openDatabase({ dataDir: restoredDir });
    await restored.close();
    copyFileSync(file, join(restoredDir, 'ros.sqlite'));
    const db = openDatabase({ dataDir: restoredDir });
    try {
      await migrateToLatest(db.kysely, db.dialect);
      const rows = await db.kysely.selectFrom('requests').select('reference').execute();
      const restoredRefs = new Set(rows.map((r) => r.reference));
      const missing = before.filter((ref) => !restoredRefs.has(ref));
      expect(missing).toEqual([]);
      expect(before.length).toBeGreaterThanOrEqual(20);
    } finally {
      await db.close();
    }
  });

  it('refuses to overwrite a file without --force, and checks what it wrote', async () => {
    const file = join(work, 'again.sqlite');
    const env = { ROS_DATA_DIR: t.dataDir };
    expect((await rosAdmin(['backup', file], env)).code).toBe(0);
    const again = await rosAdmin(['backup', file], env);
    expect(again.code).toBe(1);
    expect(again.out).toContain('exists');
    expect((await rosAdmin(['backup', file, '--force'], env)).code).toBe(0);
    const check = verifyBackup(file);
    expect(check.ok).toBe(true);
  });

  it('finds a damaged copy', () => {
    const file = join(work, 'not-a-database.sqlite');
    copyFileSync(fileURLToPath(import.meta.url), file);
    expect(verifyBackup(file).ok).toBe(false);
  });
});

// Skipped, and counted as skipped, without PostgreSQL; with CI=true testDbKinds() always lists
// it, so a missing server fails the run as in the other PostgreSQL tests.
describe.skipIf(!(await testDbKinds()).includes('postgres'))('ros-admin backup on PostgreSQL', () => {
  it('names the pg_dump line instead of copying', async () => {
    const pgDb = await createTestDb('postgres');
    try {
      const r = await rosAdmin(['backup', '/tmp/x.dump'], { DATABASE_URL: pgDb.config.databaseUrl ?? '' });
      expect(r.code).toBe(1);
      expect(r.out).toContain('pg_dump --format=custom');
    } finally {
      await pgDb.cleanup();
    }
  });

  it('the printed line writes a dump only its owner can read, whatever the umask (issue 21)', async () => {
    const pgDb = await createTestDb('postgres', {}, { ownDatabase: true });
    const dir = mkdtempSync(join(tmpdir(), 'ros-dump-'));
    try {
      const file = join(dir, 'ros.dump');
      // The line as an operator's shell runs it, under the usual umask 022.
      const line = `umask 022; ${PG_DUMP_LINE.replace('FILE', file)}`;
      const code = await new Promise<number>((resolve, reject) => {
        const child = spawn('sh', ['-c', line], {
          env: { ...process.env, DATABASE_URL: pgDb.config.databaseUrl ?? '' },
          stdio: 'ignore',
        });
        child.on('error', reject);
        child.on('exit', (c) => resolve(c ?? -1));
      });
      expect(code).toBe(0);
      expect(statSync(file).mode & 0o777).toBe(0o600);
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await pgDb.cleanup();
    }
  });
});
