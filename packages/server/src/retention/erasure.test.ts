import { randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import type { AppContext } from '../context.js';
import { openDatabase } from '../db/database.js';
import { deletePerson, putPerson } from '../intake/register.js';
import { changeStatus } from '../intake/status.js';
import { MailQueue } from '../mail/queue.js';
import { outboxDir } from '../outbox.js';
import { PdfPool } from '../pdf/pool.js';
import { storeRequestWithMail } from '../requests/store.js';
import { AGREED, agreed, newApplicant } from '../test/applicant.js';
import { solvedToken } from '../test/botcheck.js';
import { databaseFiles, filesHolding, postgresFiles, rewritten } from '../test/databaseFiles.js';
import { createTestDb, testDbKinds } from '../test/databases.js';
import { seedFormData } from '../test/seed.js';
import { purge } from './index.js';

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

for (const kind of await testDbKinds()) {
  describe(`erased means erased (${kind})`, () => {
    it('a deleted register person (both versions), an erased e-mail and note are in no file while the server runs (issue 33, item 5)', async () => {
      const t = await createTestDb(
        kind,
        { ROS_ALTCHA_MAX_NUMBER: '1000', ROS_RATE_LIMIT_SEARCH: '100000' },
        { ownDatabase: true },
      );
      const ctx: AppContext = { config: t.config, db: t.db, version: 'test' };
      // The running server: its connection stays open all along. `ros-admin purge` opens its own.
      const app = await buildApp(ctx);
      try {
        await seedFormData(ctx);
        await app.ready();
        const hex = () => randomBytes(6).toString('hex');
        const email = `erase.${hex()}@example.cz`;
        const note = `Doložte prosím ${hex()}`;
        const person = { v1: `reg1.${hex()}@example.cz`, v2: `reg2.${hex()}@example.cz` };
        const street = `Smazaná ${hex()}`;
        const r = await app.inject({
          method: 'POST',
          url: '/api/ros',
          headers: { 'content-type': 'application/json', recaptcha: await solvedToken(app) },
          payload: { ...newApplicant({ email }), language: 'cs', duplicate: false, ...agreed() },
        });
        expect(r.statusCode, r.body).toBe(201);
        const reference = (r.json() as { reference: string }).reference;
        expect((await changeStatus(t.db, reference, { status: 'received' })).outcome).toBe('changed');
        const noted = await changeStatus(t.db, reference, { status: 'documents_needed', note });
        expect(noted.outcome).toBe('changed');
        // A register person put twice (two row versions) and deleted, as through intake.
        const body = { jmeno: 'Zbyněk', prijmeni: 'Smazaný', dat_nar: '1980-01-01', ulice: street };
        for (const e of [person.v1, person.v2])
          expect(await putPerson(t.db, 770001, { ...body, email: e })).toMatchObject({ ok: true });
        const markers = [email, note, person.v1, person.v2, street];
        const before = await databaseFiles(kind, t.db, t.dataDir);
        if (before.length > 0) for (const m of markers) expect(filesHolding(before, m), m).not.toEqual([]);
        expect(await deletePerson(t.db, 770001)).toBe(true);

        // Due: received more than 30 days ago.
        const old = new Date(Date.now() - 31 * 86_400_000).toISOString();
        await t.db.kysely.updateTable('requests').set({ received_at: old }).execute();
        const cli = kind === 'sqlite' ? openDatabase({ dataDir: t.dataDir }) : t.db;
        try {
          expect((await purge(cli, t.config)).erased).toHaveLength(1);
          if (kind === 'postgres') await rewritten(cli);
        } finally {
          if (cli !== t.db) await cli.close();
        }
        const after = await databaseFiles(kind, t.db, t.dataDir);
        expect(after.length).toBe(before.length);
        for (const m of markers) expect(filesHolding(after, m), m).toEqual([]);
        // The server goes on working on the same files.
        expect((await app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
      } finally {
        await app.close();
        await t.cleanup();
      }
    });

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

        // Due: submitted 181 days ago, the paper one never received, the NIA one received on
        // arrival (issue 38).
        const old = new Date(Date.now() - 181 * 86_400_000).toISOString();
        await t.db.kysely.updateTable('requests').set({ created_at: old }).execute();
        await t.db.kysely
          .updateTable('requests')
          .set({ received_at: old })
          .where('id', '=', nia.request.id)
          .execute();
        const result = await purge(t.db, t.config);
        expect(result.erased).toHaveLength(2);
        if (kind === 'postgres') await rewritten(t.db);
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
