import { mkdirSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { defaultFormValues } from '@ros/domain';
import type { FastifyBaseLogger } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { openDatabase } from '../db/database.js';
import { markReceived } from '../intake/requests.js';
import { createTransport } from '../mail/transport.js';
import { createSmsGateway } from '../notifications/sms.js';
import { outboxDir, statusNoticeName } from '../outbox.js';
import { bodyHash, type StoredRequest } from '../requests/repository.js';
import { storeRequestWithMail } from '../requests/store.js';
import { AGREED } from '../test/applicant.js';
import { createTestDb, type TestDb, testDbKinds } from '../test/databases.js';
import { PurgeScheduler, purge, takeLease } from './index.js';

const DAY = 86_400_000;
const silent = { info() {}, error() {} } as unknown as FastifyBaseLogger;

for (const kind of await testDbKinds()) {
  describe(`retention purge (${kind})`, { timeout: 60_000 }, () => {
    let t: TestDb;
    let n = 0;
    const stored = async (first: string, at: Date, mail = false): Promise<StoredRequest> => {
      const values = { ...defaultFormValues(), first_name: first, email: 'x@example.cz' };
      const r = await storeRequestWithMail(
        t.db,
        {
          language: 'cs',
          duplicate: false,
          viaNia: mail,
          mail,
          niaIdentifier: mail ? `nia-${first}` : null,
          values,
          personKey: `p-${first}`,
          idempotencyKey: `i-${n}`,
          bodyHash: bodyHash({ values, n: n++ }),
          legal: AGREED,
        },
        at,
      );
      if (!('request' in r)) throw new Error('not stored');
      return r.request;
    };
    const row = (reference: string) =>
      t.db.kysely
        .selectFrom('requests')
        .selectAll()
        .where('reference', '=', reference)
        .executeTakeFirstOrThrow();

    beforeEach(async () => {
      t = await createTestDb(kind);
    });
    afterEach(async () => {
      await t?.cleanup();
    });

    it('erases a received request 30 days after receipt and an unreceived one 180 days after submission', async () => {
      const now = new Date('2026-09-01T12:00:00Z');
      const ago = (days: number) => new Date(now.getTime() - days * DAY);
      const received29 = await stored('Rita', ago(100));
      await markReceived(t.db, received29.reference, ago(29));
      const received31 = await stored('Rosa', ago(100));
      await markReceived(t.db, received31.reference, ago(31));
      // Sent after NIA sign-in: received on arrival (issue 38), so its 30 days run from submission.
      const nia29 = await stored('Nina', ago(29), true);
      const nia31 = await stored('Nika', ago(31), true);
      const new179 = await stored('Nela', ago(179));
      const new181 = await stored('Nora', ago(181));
      const outbox = outboxDir(t.config);
      mkdirSync(outbox, { recursive: true });
      writeFileSync(join(outbox, `${nia31.reference}.eml`), 'mail of Nika');
      writeFileSync(join(outbox, `${nia29.reference}.eml`), 'mail of Nina');

      const dry = await purge(t.db, t.config, { now, dryRun: true });
      // Oldest submission first.
      expect(dry.erased.map((e) => [e.reference, e.reason])).toEqual([
        [new181.reference, 'unreceived'],
        [received31.reference, 'received'],
        [nia31.reference, 'received'],
      ]);
      expect((await row(received31.reference)).erased_at).toBeNull();

      const result = await purge(t.db, t.config, { now });
      expect(result.erased.map((e) => e.reference).sort()).toEqual(
        [received31.reference, nia31.reference, new181.reference].sort(),
      );
      for (const r of [received31, nia31, new181]) {
        const after = await row(r.reference);
        // What remains: the reference, the dates, the channel (and language and kind).
        expect(after).toMatchObject({
          reference: r.reference,
          created_at: r.createdAt,
          via_nia: r.viaNia ? 1 : 0,
          payload: '{}',
          person_key: null,
          idempotency_key: null,
          body_hash: '',
          nia_identifier: null,
          erased_at: now.toISOString(),
        });
        expect(JSON.stringify(after)).not.toMatch(/Rosa|Nika|Nora|example\.cz/);
      }
      expect((await row(received31.reference)).received_at).toEqual(expect.any(String));
      expect((await row(nia31.reference)).received_at).toBe(nia31.createdAt);
      for (const r of [received29, nia29, new179]) expect((await row(r.reference)).erased_at).toBeNull();
      // The erased requests' mail rows and outbox files are gone, the others' kept.
      const mails = await t.db.kysely.selectFrom('request_mails').select('request_id').execute();
      expect(mails.map((m) => m.request_id)).toEqual([nia29.id]);
      expect(readdirSync(outbox)).toEqual([`${nia29.reference}.eml`]);
      expect((await purge(t.db, t.config, { now })).erased).toEqual([]);
    });

    it('deletes expired NIA sessions, spent bot tokens and search matches past expiry and outbox files past ROS_OUTBOX_KEEP_DAYS', async () => {
      const now = new Date();
      const sessions = t.db.kysely;
      const iso = (ms: number) => new Date(now.getTime() + ms).toISOString();
      for (const [id, expires] of [
        ['old', iso(-1000)],
        ['live', iso(60_000)],
      ] as const) {
        await sessions
          .insertInto('sso_sessions')
          .values({
            id,
            status: 'active',
            from_page: 'form',
            data: '{}',
            created_at: iso(-3_600_000),
            expires_at: expires,
          })
          .execute();
        await t.db.kysely
          .insertInto('used_bot_tokens')
          .values({ token_hash: id, expires_at: expires })
          .execute();
        await t.db.kysely
          .insertInto('search_matches')
          .values({ token_hash: id, person_id: 1, created_at: iso(-3_600_000), expires_at: expires })
          .execute();
      }
      const outbox = outboxDir(t.config);
      mkdirSync(outbox, { recursive: true });
      for (const [name, days] of [
        ['ROS-2026-000001.eml', 8],
        ['ROS-2026-000002.eml', 6],
        ['.x.1.tmp', 2],
        ['notes.txt', 30],
      ] as const) {
        const f = join(outbox, name);
        writeFileSync(f, 'x');
        const at = (now.getTime() - days * DAY) / 1000;
        utimesSync(f, at, at);
      }
      const r = await purge(t.db, t.config, { now });
      expect(r).toMatchObject({ sessions: 1, botTokens: 1, matchTokens: 1, outboxFiles: 2 });
      expect((await sessions.selectFrom('sso_sessions').select('id').execute()).map((s) => s.id)).toEqual([
        'live',
      ]);
      expect(
        (await t.db.kysely.selectFrom('used_bot_tokens').select('token_hash').execute()).map(
          (s) => s.token_hash,
        ),
      ).toEqual(['live']);
      expect(
        (await t.db.kysely.selectFrom('search_matches').select('token_hash').execute()).map(
          (s) => s.token_hash,
        ),
      ).toEqual(['live']);
      expect(readdirSync(outbox).sort()).toEqual(['ROS-2026-000002.eml', 'notes.txt']);
      const audit = await t.db.kysely
        .selectFrom('audit_log')
        .selectAll()
        .where('action', '=', 'purge')
        .execute();
      expect(audit).toEqual([
        expect.objectContaining({
          actor: 'system',
          detail: 'requests=0 sessions=1 bot_tokens=1 match_tokens=1 outbox_files=2',
        }),
      ]);
    });

    it('erases exactly the outbox files the mail transport and the SMS gateway wrote for an erased request', async () => {
      const now = new Date();
      const gone = await stored('Gita', new Date(now.getTime() - 200 * DAY));
      const kept = await stored('Klara', new Date(now.getTime() - DAY));
      // The real writers, under the names the mail queue and the notices give them.
      const transport = createTransport(t.config);
      const sms = createSmsGateway(t.config);
      try {
        for (const r of [gone, kept]) {
          const mail = { from: 'ros@example.cz', to: 'x@example.cz', subject: 's', text: 't' };
          await transport.send(mail, r.reference);
          await transport.send(mail, statusNoticeName(r.reference, 7));
          await sms.send(
            { to: '+420603123456', text: 't', reference: r.reference },
            statusNoticeName(r.reference, 7),
          );
        }
      } finally {
        transport.close();
      }
      const dirs = [transport.outbox, sms.outbox].map((d) => d ?? '');
      const files = () => dirs.flatMap((d) => readdirSync(d).sort());
      expect(files()).toHaveLength(6);
      expect(files().filter((f) => f.startsWith(gone.reference))).toHaveLength(3);

      const r = await purge(t.db, t.config, { now });
      expect(r.erased.map((e) => e.reference)).toEqual([gone.reference]);
      expect(r.outboxFiles).toBe(3);
      expect(files()).toEqual([
        `${kept.reference}.eml`,
        `${statusNoticeName(kept.reference, 7)}.eml`,
        `${statusNoticeName(kept.reference, 7)}.sms`,
      ]);
    });

    it('a lease is taken by one of several racing holders, and again only once it ran out', async () => {
      const now = new Date('2026-09-01T12:00:00Z');
      const until = new Date(now.getTime() + 60_000);
      const got = await Promise.all(['a', 'b', 'c', 'd'].map((h) => takeLease(t.db, 'purge', h, now, until)));
      expect(got.filter(Boolean)).toHaveLength(1);
      expect(await takeLease(t.db, 'purge', 'e', new Date(now.getTime() + 59_000), until)).toBe(false);
      expect(await takeLease(t.db, 'purge', 'e', until, new Date(until.getTime() + 60_000))).toBe(true);
      expect(await takeLease(t.db, 'other', 'e', now, until)).toBe(true);
    });

    it('runs once per instance group: two app instances on one database purge once', async () => {
      await stored('Zora', new Date(Date.now() - 200 * DAY));
      const config = { ...t.config, purgeIntervalMinutes: 60 };
      // A second connection to the same database, as a second process would have.
      const url = t.config.databaseUrl;
      const db2 = openDatabase({ databaseUrl: url, dataDir: t.dataDir });
      const apps = [
        await buildApp({ config, db: t.db, version: 'test' }),
        await buildApp({ config, db: db2, version: 'test' }),
      ];
      try {
        // Both start their purge when ready; closing waits for a purge under way.
        await Promise.all(apps.map((a) => a.ready()));
      } finally {
        for (const a of apps) await a.close();
        await db2.close();
      }
      const runs = await t.db.kysely
        .selectFrom('audit_log')
        .selectAll()
        .where('action', '=', 'purge')
        .execute();
      expect(runs).toHaveLength(1);
      expect(runs[0]).toMatchObject({ actor: 'system', detail: expect.stringMatching(/^requests=1 /) });
      // Within the interval no instance runs it again; a scheduler with ROS_PURGE_INTERVAL_MINUTES=0 never starts.
      expect(await new PurgeScheduler(t.db, config, silent).tick()).toBeNull();
      const off = new PurgeScheduler(t.db, { ...config, purgeIntervalMinutes: 0 }, silent);
      off.start();
      await off.close();
      expect(
        await t.db.kysely.selectFrom('audit_log').selectAll().where('action', '=', 'purge').execute(),
      ).toHaveLength(1);
    });
  });
}
