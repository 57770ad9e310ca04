import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defaultFormValues } from '@ros/domain';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from './app.js';
import type { AppContext } from './context.js';
import { createToken, SCOPES } from './intake/tokens.js';
import { seedStaticLists } from './reference/store.js';
import { recordingLogger } from './reference/testing.js';
import { storeRequestWithMail } from './requests/store.js';
import { createServices } from './services.js';
import { AGREED } from './test/applicant.js';
import { solvedToken } from './test/botcheck.js';
import { createTestDb, type TestDb, testDbKinds } from './test/databases.js';

/**
 * The composition root (services.ts, issue 13): one set of services per app, built once,
 * shared by the routes that need them, stopped when the app closes.
 */
for (const kind of await testDbKinds()) {
  describe(`the services of one app (${kind})`, () => {
    let t: TestDb;
    let app: FastifyInstance;

    beforeAll(async () => {
      t = await createTestDb(kind, { ROS_PDF_WORKERS: '1' });
      await seedStaticLists(t.db);
      app = await buildApp({ config: t.config, db: t.db, version: 'test' });
      await app.ready();
    });
    afterAll(async () => {
      await app?.close();
      await t?.cleanup();
    });

    it('one PDF pool: the PDF download, the intake PDF and the confirmation e-mail share its worker', async () => {
      const { pdf, mail } = app.services;
      expect(pdf.maxWorkers).toBe(1);
      const stored = await storeRequestWithMail(t.db, {
        language: 'cs',
        duplicate: false,
        viaNia: true,
        mail: true,
        values: {
          ...defaultFormValues(),
          first_name: 'Alžběta',
          last_name: 'Testová',
          email: 'a@example.cz',
        },
        personKey: 'test:services',
        idempotencyKey: null,
        bodyHash: 'c'.repeat(64),
        legal: AGREED,
      });
      if (!('request' in stored)) throw new Error('not stored');
      const { id, reference } = stored.request;

      const download = await app.inject({ url: `/api/ros/pdf/${id}` });
      expect(download.statusCode).toBe(200);
      expect(pdf.rendered).toBe(1);

      const token = (await createToken(t.db, 'bo', SCOPES, 'test')) as string;
      const intake = await app.inject({
        url: `/api/intake/v1/requests/${reference}/pdf`,
        headers: { authorization: `Bearer ${token}` },
      });
      expect(intake.statusCode).toBe(200);
      expect(pdf.rendered).toBe(2);

      // No SMTP in the tests: the mail goes to the outbox, with the PDF made by the same pool.
      mail.kick();
      await mail.idle();
      const row = await t.db.kysely
        .selectFrom('request_mails')
        .select('status')
        .where('request_id', '=', id)
        .executeTakeFirstOrThrow();
      expect(row.status).toBe('sent');
      expect(pdf.rendered).toBe(3);
      expect(pdf.workers).toBe(1);
    });
  });
}

describe('the lifecycle of the services', () => {
  it('start with the app, stop with it: the PDF workers end, the mail queue stops polling', async () => {
    const t = await createTestDb('sqlite');
    try {
      await seedStaticLists(t.db);
      // Handed in (as a test may): the app owns them all the same.
      const ctx: AppContext = { config: t.config, db: t.db, version: 'test' };
      const services = createServices(ctx, recordingLogger());
      const app = await buildApp(ctx, { services });
      expect(app.services).toBe(services);
      const { pdf, mail } = app.services;
      // Built, not started: no thread, no timer.
      expect(pdf.workers).toBe(0);
      expect(mail.polling).toBe(false);
      await app.ready();
      expect(mail.polling).toBe(true);
      // A worker starts on first use.
      const { id } = await storeMailedRequest(t);
      expect((await app.inject({ url: `/api/ros/pdf/${id}` })).statusCode).toBe(200);
      expect(pdf.workers).toBe(1);

      await app.close();
      expect(pdf.workers).toBe(0);
      expect(mail.polling).toBe(false);
      await expect(pdf.render({} as never)).rejects.toThrow(/closed/);
    } finally {
      await t.cleanup();
    }
  });

  it('two apps built from one context get their own services (nothing shared through a module cache)', async () => {
    const t = await createTestDb('sqlite', { ROS_ALTCHA_MAX_NUMBER: '1000' });
    const ctx: AppContext = { config: t.config, db: t.db, version: 'test' };
    const a = await buildApp(ctx);
    const b = await buildApp(ctx);
    try {
      for (const key of [
        'botCheck',
        'nia',
        'referenceLists',
        'validity',
        'pdf',
        'mail',
        'readiness',
      ] as const) {
        expect(a.services[key], key).not.toBe(b.services[key]);
      }
      expect(a.services.nia.forHost(undefined)).not.toBe(b.services.nia.forHost(undefined));
      // Without ROS_ALTCHA_HMAC_KEY each bot check signs with a key of its own: a challenge of
      // one app is no token for the other (with a shared service it was).
      const token = await solvedToken(a);
      const search = (app: FastifyInstance) =>
        app.inject({
          method: 'POST',
          url: '/api/ros/search-birth-number',
          headers: { recaptcha: token },
          payload: { birth_number: '926123/0006' },
        });
      const other = await search(b);
      expect(other.statusCode).toBe(403);
      expect(other.json()).toMatchObject({ error: { code: 'BOT_CHECK_INVALID' } });
      expect((await search(a)).statusCode).toBe(404);
      // Draining one app leaves the other ready.
      a.services.readiness.drain();
      expect(b.services.readiness.draining).toBe(false);
    } finally {
      await a.close();
      await b.close();
      await t.cleanup();
    }
  });
});

describe('routes take services, never build them', () => {
  const dir = join(import.meta.dirname, 'routes');
  const routes = readdirSync(dir).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));

  it.each(routes)('%s imports no other route and constructs no service', (file) => {
    const source = readFileSync(join(dir, file), 'utf8');
    const imports = [...source.matchAll(/from '(\.\/[^']+)'/g)].map((m) => m[1]);
    expect(imports, 'a route module imported by a route').toEqual([]);
    expect(source).not.toMatch(
      /new (PdfPool|MailQueue|PurgeScheduler)\b|create(BotCheck|ValidityCheck|ReferenceLists|NiaService|Readiness|Metrics)\(|instanceGroup\(/,
    );
  });
});

/** A request sent after NIA sign-in, its confirmation e-mail queued. */
async function storeMailedRequest(t: TestDb) {
  const stored = await storeRequestWithMail(t.db, {
    language: 'cs',
    duplicate: false,
    viaNia: true,
    mail: true,
    values: { ...defaultFormValues(), first_name: 'Alžběta', last_name: 'Testová', email: 'a@example.cz' },
    personKey: 'test:services',
    idempotencyKey: null,
    bodyHash: 'c'.repeat(64),
    legal: AGREED,
  });
  if (!('request' in stored)) throw new Error('not stored');
  return stored.request;
}
