import { randomBytes } from 'node:crypto';
import { accessSync, constants, existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import type { AppContext } from '../context.js';
import type { Db } from '../db/database.js';
import { MailQueue } from '../mail/queue.js';
import { outboxDir } from '../outbox.js';
import { PdfPool } from '../pdf/pool.js';
import { storeRequestWithMail } from '../requests/store.js';
import { AGREED, agreed, newApplicant } from '../test/applicant.js';
import { solvedToken } from '../test/botcheck.js';
import { createTestDb, testDbKinds } from '../test/databases.js';
import { seedFormData } from '../test/seed.js';
import { purge } from './retention.js';

/**
 * Issue 21, item 2: erased means erased. A request is submitted with a unique e-mail address
 * (and one sent after NIA sign-in has its confirmation e-mail written to the outbox), the
 * retention purge erases both, the database is closed cleanly (PostgreSQL: CHECKPOINT), and the
 * database's own files are searched byte by byte for the address: SQLite's file with its -wal
 * and -shm, PostgreSQL's files of every table, TOAST table and index of the test's schema
 * (pg_relation_filepath). Before the purge the same search finds it, so the test can fail.
 */

const silent = { info() {}, warn() {}, error() {}, debug() {}, trace() {}, fatal() {}, child: () => silent };

const pdf = new PdfPool({ size: 1 });
afterAll(() => pdf.close());

/** Whether the bytes of any of these files hold `needle` (UTF-8). */
function filesHolding(files: string[], needle: string): string[] {
  const bytes = Buffer.from(needle, 'utf8');
  return files.filter((f) => existsSync(f) && readFileSync(f).includes(bytes));
}

/** Every file (all segments) of the test schema's tables, their TOAST tables and indexes. */
async function postgresFiles(db: Db): Promise<string[]> {
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

for (const kind of await testDbKinds()) {
  describe(`erased means erased (${kind})`, () => {
    it('after the purge and a clean stop, no database file holds an erased e-mail address, and no outbox file', async () => {
      const t = await createTestDb(
        kind,
        { ROS_ALTCHA_MAX_NUMBER: '1000', ROS_RATE_LIMIT_SEARCH: '100000' },
        { ownDatabase: true },
      );
      const ctx: AppContext = { config: t.config, db: t.db, version: 'test' };
      let closed = false;
      try {
        await seedFormData(ctx);
        const app = await buildApp(ctx);
        await app.ready();
        const marker = `erase.${randomBytes(6).toString('hex')}@example.cz`;
        const mailed = `mailed.${randomBytes(6).toString('hex')}@example.cz`;
        const r = await app.inject({
          method: 'POST',
          url: '/api/ros',
          headers: { 'content-type': 'application/json', recaptcha: await solvedToken(app) },
          payload: { ...newApplicant({ email: marker }), language: 'cs', duplicate: false, ...agreed() },
        });
        expect(r.statusCode, r.body).toBe(201);
        await app.close();
        // A request sent after NIA sign-in: its confirmation e-mail (with the PDF) goes to the outbox.
        const nia = await storeRequestWithMail(t.db, {
          language: 'cs',
          duplicate: false,
          viaNia: true,
          mail: true,
          values: newApplicant({ email: mailed, first_name: 'Zdislava' }),
          personKey: 'test:erase',
          idempotencyKey: null,
          bodyHash: 'e'.repeat(64),
          legal: AGREED,
        });
        if (!('created' in nia)) throw new Error('not stored');
        const queue = new MailQueue(ctx, silent as unknown as FastifyBaseLogger, pdf);
        await queue.processDue();
        await queue.close();
        const outbox = outboxDir(t.config);
        expect(readdirSync(outbox)).toEqual([`${nia.request.reference}.eml`]);

        const files = async () =>
          kind === 'sqlite'
            ? ['', '-wal', '-shm'].map((x) => join(t.dataDir, `ros.sqlite${x}`))
            : postgresFiles(t.db);
        if (kind === 'postgres') await sql`checkpoint`.execute(t.db.kysely);
        const before = await files();
        // The search can find it: without the erasure the test fails.
        if (before.length > 0) expect(filesHolding(before, marker)).not.toEqual([]);

        // Due: never received, submitted 181 days ago.
        const old = new Date(Date.now() - 181 * 86_400_000).toISOString();
        await t.db.kysely.updateTable('requests').set({ created_at: old }).execute();
        const result = await purge(t.db, t.config);
        expect(result.erased).toHaveLength(2);
        expect(readdirSync(outbox)).toEqual([]);

        if (kind === 'postgres') {
          await sql`checkpoint`.execute(t.db.kysely);
          const after = await files();
          expect(after.length).toBe(before.length);
          expect(filesHolding(after, marker)).toEqual([]);
          expect(filesHolding(after, mailed)).toEqual([]);
        } else {
          await t.db.close();
          closed = true;
          const after = await files();
          expect(filesHolding(after, marker)).toEqual([]);
          expect(filesHolding(after, mailed)).toEqual([]);
        }
      } finally {
        if (closed) {
          // The database is closed already: only its folder is left to remove.
          await t.cleanup().catch(() => {});
        } else await t.cleanup();
      }
    });
  });
}
